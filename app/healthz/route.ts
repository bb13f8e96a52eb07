// GET /healthz: the process is alive and serving (no dependency is asked). Outside /api/v1: no
// credential, no rate limit, for a supervisor's liveness probe.
export const dynamic = "force-dynamic";

export function GET() {
  return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}
