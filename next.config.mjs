/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // Server-only packages with native code, WASM or worker threads stay outside the bundle.
  serverExternalPackages: ["pino", "pg", "@prisma/adapter-pg", "ioredis", "@node-rs/argon2", "bwip-js", "qrcode"],
  typedRoutes: false,
  // A build with type errors is refused, whoever runs it (CI also runs `npm run typecheck`).
  typescript: { ignoreBuildErrors: false },
};

export default nextConfig;
