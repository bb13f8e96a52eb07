// Imported first by the server entries: OpenTelemetry patches http and pg as they load, so it
// must start before anything (migrations, the app) loads them. Off unless configured, and then
// never loaded: compiled (scripts/lib/compile-server.ts) this file is an entry of its own and the
// tracing module a chunk that only this import loads.
if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) {
  const { startTracing } = await import("../../lib/platform/telemetry/tracing.ts");
  startTracing();
}

export {};
