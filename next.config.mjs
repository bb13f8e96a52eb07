/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // Server-only packages with native code, WASM or worker threads stay outside the bundle.
  serverExternalPackages: ["pino", "pg", "@prisma/adapter-pg", "ioredis", "@node-rs/argon2", "bwip-js", "qrcode", "pdfkit",
    // OpenTelemetry patches modules as Node loads them: it and what it patches must be real packages.
    "postcss", "@tailwindcss/postcss",
    "@opentelemetry/sdk-node", "@opentelemetry/instrumentation-http", "@opentelemetry/instrumentation-pg", "@opentelemetry/instrumentation-undici", "@opentelemetry/exporter-trace-otlp-http"],
  typedRoutes: false,
  // A build with type errors is refused, whoever runs it (CI also runs `npm run typecheck`).
  // The app's own files only (tsconfig.build.json leaves out tests, scripts and the SDK): the
  // build needs no test tool, so `npm install --omit=dev && npm run build` works.
  typescript: { ignoreBuildErrors: false, tsconfigPath: "tsconfig.build.json" },
};

export default nextConfig;
