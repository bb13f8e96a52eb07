// POST /c/{txId}/retry: "pay another way" after the payment failed or expired. Creates (once)
// the successor session and sends the buyer to it (303); when the payment cannot be retried,
// back to its result page, which says why. The document the buyer typed for the failed payment
// (kept in their browser) fills the new page's field.
import { config } from "@/lib/platform/config";
import { crossSiteRefused, isCrossSite } from "@/lib/platform/http/cross-site";
import { createSuccessorSession } from "@/lib/checkout/create-successor";
import { TX_ID } from "@/lib/payments/ids";
import { keptDocument, typedDocumentCookie } from "@/server/checkout-form";

export async function POST(req: Request, ctx: { params: Promise<{ txId: string }> }) {
  const { txId } = await ctx.params;
  if (isCrossSite(req)) return crossSiteRefused();
  const locale = new URL(req.url).searchParams.get("locale");
  const next = TX_ID.test(txId) ? await createSuccessorSession(txId) : null;
  const target = new URL(next ? `${config().APP_URL}/checkout/${next.sessionId}` : `${config().APP_URL}/c/${txId}/result`);
  if (locale) target.searchParams.set("locale", locale);
  const headers = new Headers({ location: target.toString(), "cache-control": "no-store" });
  const doc = next ? keptDocument(req) : undefined;
  if (next && doc) headers.append("set-cookie", typedDocumentCookie(next.sessionId, doc, config().APP_URL.startsWith("https:")));
  return new Response(null, { status: 303, headers });
}
