/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // Server-only packages with native code, WASM or worker threads stay outside the bundle.
  serverExternalPackages: ["pino", "pg", "@prisma/adapter-pg", "ioredis", "@node-rs/argon2", "bwip-js", "qrcode"],
  typedRoutes: false,
  // `npm run typecheck` (tsc over app, lib, scripts and tests) is the one type gate, run by CI
  // before the build; the build does not repeat it.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
