// The dashboard's "Download receipt": the same PDF as GET /api/v1/settlements/{id}/receipt, for
// the signed-in user's merchant and environment (permission "read").
import { newId } from "@/lib/platform/ids";
import { errorResponse } from "@/lib/platform/http/handler";
import { dashboardOrThrow } from "@/server/dashboard";
import { settlementReceipt } from "@/lib/settlements/list-settlements";

export async function GET(_req: Request, ctx: { params: Promise<{ id: string }> }) {
  try {
    const d = await dashboardOrThrow("read");
    const { id } = await ctx.params;
    const { pdf, filename } = await settlementReceipt(d.ctx, id);
    return new Response(new Uint8Array(pdf), { headers: { "content-type": "application/pdf", "content-disposition": `attachment; filename="${filename}"`, "cache-control": "private, no-store", "x-content-type-options": "nosniff" } });
  } catch (err) {
    return errorResponse(err, newId("request")).response;
  }
}
