// Imported first by the server entries: OpenTelemetry patches http and pg as they load, so it
// must start before anything (migrations, the app) loads them. Off unless configured.
import path from "node:path";

if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) {
  const { startTracing } = await import(path.resolve(import.meta.dirname, "../../lib/platform/telemetry/tracing.ts"));
  startTracing();
}
