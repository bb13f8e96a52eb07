// Runs once when the server starts (Node.js runtime only).
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    // Before anything else loads, so the http and pg modules are patched: traces when configured.
    if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) (await import("@/lib/platform/telemetry/tracing")).startTracing();
    const { onServerStart } = await import("@/server-start");
    await onServerStart();
  }
}
