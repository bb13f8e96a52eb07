// The dashboard's evidence upload: the same use case as POST /api/v1/claims/{id}/evidence for the
// signed-in user's merchant and environment. A route rather than a server action: files of up to
// 5 MiB each, read with the API's bounded multipart reader. Browsers' cross-site posts are
// refused (Sec-Fetch-Site / Origin); the session cookie is SameSite=Lax as well.
import { newId } from "@/lib/platform/ids";
import { errorResponse } from "@/lib/platform/http/handler";
import { readMultipart, refuseDeclaredOversize } from "@/lib/platform/http/body";
import { crossSiteRefused, isCrossSite } from "@/lib/platform/http/cross-site";
import { dashboardOrThrow } from "@/server/dashboard";
import { parseEvidenceForm, submitEvidenceEndpoint } from "@/lib/claims/schema";
import { submitEvidence } from "@/lib/claims/submit-evidence";

export async function POST(req: Request, ctx: { params: Promise<{ id: string }> }) {
  if (isCrossSite(req)) return crossSiteRefused();
  const requestId = newId("request");
  try {
    const limit = submitEvidenceEndpoint.multipart.limitBytes;
    refuseDeclaredOversize(req, limit);
    const d = await dashboardOrThrow("respondToDisputes");
    const { id } = await ctx.params;
    const form = await readMultipart(req, limit);
    const out = await submitEvidence(d.ctx, id, parseEvidenceForm(form.data));
    return Response.json(out, { status: 201, headers: { "cache-control": "no-store", "x-request-id": requestId } });
  } catch (err) {
    return errorResponse(err, requestId).response;
  }
}
