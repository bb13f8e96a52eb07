// OpenTelemetry traces (@opentelemetry/sdk-node): on only when OTEL_EXPORTER_OTLP_ENDPOINT is set,
// exporting OTLP over HTTP. Incoming HTTP, PostgreSQL queries (pg) and outgoing calls (node:http
// for webhooks, undici for fetch to providers) become spans; outgoing calls carry `traceparent`,
// so a provider's or a merchant's logs can be joined to ours. Every log line carries the active
// trace and span ids (lib/platform/log.ts).
import { NodeSDK } from "@opentelemetry/sdk-node";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { UndiciInstrumentation } from "@opentelemetry/instrumentation-undici";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { CLOSE_ORDER, onShutdown } from "@/lib/platform/lifecycle";

let sdk: NodeSDK | null = null;
// One SDK per process, whichever copy of this module asks first (the server entry before Next
// loads, or instrumentation.ts under a bare `next start`).
const STARTED = Symbol.for("latam-payments.tracing-started");

export function startTracing(): boolean {
  const g = globalThis as Record<symbol, unknown>;
  if (sdk || g[STARTED] || !process.env.OTEL_EXPORTER_OTLP_ENDPOINT) return false;
  g[STARTED] = true;
  sdk = new NodeSDK({
    resource: resourceFromAttributes({ "service.name": process.env.OTEL_SERVICE_NAME ?? "latam-payments", "deployment.environment.name": process.env.APP_ENV ?? "development" }),
    // Reads OTEL_EXPORTER_OTLP_ENDPOINT (+ /v1/traces) and OTEL_EXPORTER_OTLP_HEADERS itself.
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [
      // Health checks and metrics scrapes would be most of the traces; they tell nothing.
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => /^\/(metrics|healthz|readyz)\b/.test(req.url ?? "") }),
      new PgInstrumentation({ enhancedDatabaseReporting: false }),
      new UndiciInstrumentation(),
    ],
  });
  sdk.start();
  onShutdown("trace exporter", CLOSE_ORDER.clients, () => stopTracing());
  return true;
}

/** Flushes and stops the exporter (a clean stop must not lose the last spans). */
export async function stopTracing(): Promise<void> {
  await sdk?.shutdown().catch(() => {});
  sdk = null;
}
