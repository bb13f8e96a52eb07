// GET /metrics: Prometheus text format (lib/platform/metrics). Behind a bearer token (METRICS_TOKEN),
// compared in constant time; without one it is open only outside production.
import { config } from "@/lib/platform/config";
import { safeEqual } from "@/lib/platform/crypto/hash";
import { renderMetrics } from "@/lib/monitoring/gauges";

export const dynamic = "force-dynamic";

export async function GET(req: Request) {
  const token = config().METRICS_TOKEN;
  if (!token && config().APP_ENV === "production") return new Response("Not Found\n", { status: 404, headers: { "Content-Type": "text/plain" } });
  if (token) {
    const given = (req.headers.get("authorization") ?? "").replace(/^Bearer\s+/i, "");
    if (!safeEqual(given, token)) return new Response("Unauthorized\n", { status: 401, headers: { "Content-Type": "text/plain", "WWW-Authenticate": 'Bearer realm="metrics"' } });
  }
  const { body, contentType } = await renderMetrics();
  return new Response(body, { headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
}
