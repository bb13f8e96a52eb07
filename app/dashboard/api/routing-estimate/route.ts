// The Routing page's "Estimate on past traffic": the rules being edited (saved or not) estimated on
// the shop's routed payments, by the use case of POST /api/v1/me/routing/evaluate. A read (nothing
// is saved), so every role passes the gate with "read"; posted because the rules are a body.
import { newId } from "@/lib/platform/ids";
import { errorResponse } from "@/lib/platform/http/handler";
import { crossSiteRefused, isCrossSite } from "@/lib/platform/http/cross-site";
import { API_BODY_LIMIT, readBody } from "@/lib/platform/http/body";
import { parseWith } from "@/lib/platform/contract/validation";
import { AppError } from "@/lib/platform/errors";
import { dashboardOrThrow, withShop } from "@/server/dashboard";
import { evaluateRoutingBody } from "@/lib/routing/evaluate-schema";
import { evaluateRoutingRules } from "@/lib/routing/evaluate-rules";

export async function POST(req: Request) {
  const requestId = newId("request");
  if (isCrossSite(req)) return crossSiteRefused();
  try {
    const d = await dashboardOrThrow("read");
    let raw: unknown;
    try {
      raw = JSON.parse(await readBody(req, API_BODY_LIMIT));
    } catch {
      throw new AppError("invalid_request", "The body must be JSON: {rules, since}.");
    }
    const body = await evaluateRoutingRules(await withShop(d), {}, parseWith(evaluateRoutingBody, raw, "body"));
    return new Response(JSON.stringify(body), { headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", "X-Environment": d.environment } });
  } catch (err) {
    return errorResponse(err, requestId).response;
  }
}
