// Live data for the dashboard's TanStack queries (GET only; mutations are server actions). The
// session decides merchant and environment through the gate (permission "read"); the loaders are
// declared once in server/dashboard-loaders.ts, with the types the client hook reads.
import { AppError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { errorResponse } from "@/lib/platform/http/handler";
import { dashboardOrThrow } from "@/server/dashboard";
import { isResource, loadDashboardData } from "@/server/dashboard-loaders";

export async function GET(req: Request, ctx: { params: Promise<{ resource: string }> }) {
  const requestId = newId("request");
  try {
    const { resource } = await ctx.params;
    if (!isResource(resource)) throw new AppError("route_not_found", `No dashboard data named ${resource}.`);
    // Every loader is a read: none changes state or reveals a secret (those are server actions
    // with their own permission), so every role passes the gate here.
    const d = await dashboardOrThrow("read");
    const body = await loadDashboardData(d, resource, Object.fromEntries(new URL(req.url).searchParams));
    return new Response(JSON.stringify(body), { headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", "X-Environment": d.environment } });
  } catch (err) {
    return errorResponse(err, requestId).response;
  }
}
