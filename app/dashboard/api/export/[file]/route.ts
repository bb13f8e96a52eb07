// The dashboard's "Export CSV" buttons: the same streamed export as GET /api/v1/exports/…, for the
// signed-in user's merchant and environment (permission "read", like every dashboard read).
import { AppError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { errorResponse } from "@/lib/platform/http/handler";
import { parseWith } from "@/lib/platform/contract/validation";
import { dashboardOrThrow } from "@/server/dashboard";
import { exportCsv } from "@/lib/exports/export-csv";
import { EXPORT_NAMES, type ExportName } from "@/lib/exports/resources";
import { exportQuery } from "@/lib/exports/schema";

export async function GET(req: Request, ctx: { params: Promise<{ file: string }> }) {
  const requestId = newId("request");
  try {
    const { file } = await ctx.params;
    const name = file.replace(/\.csv$/, "") as ExportName;
    if (!file.endsWith(".csv") || !EXPORT_NAMES.includes(name)) throw new AppError("route_not_found", `No export named ${file}.`);
    const d = await dashboardOrThrow("read");
    const query = parseWith(exportQuery, Object.fromEntries(new URL(req.url).searchParams), "query");
    const { filename, stream } = await exportCsv(d.ctx, name, query);
    return new Response(stream, {
      headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${filename}"`, "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "X-Request-Id": requestId },
    });
  } catch (err) {
    return errorResponse(err, requestId).response;
  }
}
