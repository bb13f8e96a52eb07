/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // Server-only packages with native code, WASM or worker threads stay outside the bundle.
  serverExternalPackages: ["pino", "pg", "@prisma/adapter-pg", "ioredis", "@node-rs/argon2"],
  typedRoutes: false,
};

export default nextConfig;
