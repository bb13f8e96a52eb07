// A file of evidence for the signed-in user's merchant (permission "read").
import { newId } from "@/lib/platform/ids";
import { errorResponse } from "@/lib/platform/http/handler";
import { dashboardOrThrow } from "@/server/dashboard";
import { evidenceFile } from "@/lib/claims/submit-evidence";

export async function GET(_req: Request, ctx: { params: Promise<{ id: string; evidenceId: string }> }) {
  try {
    const d = await dashboardOrThrow("read");
    const { id, evidenceId } = await ctx.params;
    return await evidenceFile(d.ctx, id, evidenceId);
  } catch (err) {
    return errorResponse(err, newId("request")).response;
  }
}
