// GET /readyz: 200 when this process may take traffic, 503 with the failing checks otherwise
// (lib/platform/health/readiness.ts). No credential, no rate limit: a load balancer's readiness probe.
import { readiness } from "@/lib/platform/health/readiness";

export const dynamic = "force-dynamic";

export async function GET() {
  const r = await readiness();
  return Response.json({ status: r.ready ? "ready" : "unavailable", checks: r.checks }, { status: r.ready ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
