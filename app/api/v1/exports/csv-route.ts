// The handler of each GET /exports/<resource>.csv route: the streamed CSV as a download.
import { route } from "@/lib/platform/http/handler";
import { EXPORT_ENDPOINTS } from "@/lib/exports/schema";
import { exportCsv } from "@/lib/exports/export-csv";
import type { ExportName } from "@/lib/exports/resources";

export function csvRoute(name: ExportName & keyof typeof EXPORT_ENDPOINTS) {
  return route(EXPORT_ENDPOINTS[name], async ({ auth, query }) => {
    const { filename, stream } = await exportCsv(auth, name, query);
    return new Response(stream, {
      status: 200,
      headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${filename}"`, "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" },
    });
  });
}
