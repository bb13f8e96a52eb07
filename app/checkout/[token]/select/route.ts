// The selector page's form POST: the same use case as POST /checkout/sessions/{token}/select.
// Success: 303 to the transaction's checkout link (/c/<txId>, then the provider's page). A
// rejected pick: 303 back to the page with the error code and field and `#<field>` (the page
// focuses it); the typed document comes back in a short-lived cookie, never in the URL. A bad
// document is `document_invalid`, an absent one `document_missing`.
import { AppError } from "@/lib/platform/errors";
import { clientIp } from "@/lib/platform/http/client-ip";
import { crossSiteRefused, isCrossSite } from "@/lib/platform/http/cross-site";
import { boundedRead, readFormData } from "@/lib/platform/http/body";
import { log } from "@/lib/platform/log";
import { selectMethodBody } from "@/lib/checkout/schema";
import { selectCheckoutMethod } from "@/lib/checkout/select-method";
import { sessionPageUrl } from "@/lib/checkout/present";
import { config } from "@/lib/platform/config";
import { keptDocumentCookie, typedDocumentCookie } from "@/server/checkout-form";

function seeOther(location: string, ...cookies: string[]): Response {
  const headers = new Headers({ location, "cache-control": "no-store" });
  for (const cookie of cookies) headers.append("set-cookie", cookie);
  return new Response(null, { status: 303, headers });
}

const FIELD_OF: Record<string, string> = { documentId: "documentId", userName: "name", userEmail: "email", userPhone: "phone", paymentMethodId: "paymentMethodId" };

export async function POST(req: Request, ctx: { params: Promise<{ token: string }> }) {
  const { token } = await ctx.params;
  const locale = new URL(req.url).searchParams.get("locale");
  const secure = config().APP_URL.startsWith("https:");
  let typed = "";
  const back = (params: Record<string, string>) => {
    const url = new URL(sessionPageUrl(token));
    for (const [k, v] of Object.entries({ ...(locale ? { locale } : {}), ...params })) url.searchParams.set(k, v);
    if (params.field) url.hash = params.field;
    return seeOther(url.toString(), typedDocumentCookie(token, typed, secure));
  };
  if (isCrossSite(req)) return crossSiteRefused();

  const read = await boundedRead(readFormData(req));
  if (read.refused) return read.refused;
  const form = read.value;
  if (!form) return back({ error: "choose_method", field: "paymentMethodId" });
  const method = String(form.get("paymentMethodId") ?? "");
  const documentId = String(form.get("documentId") ?? "").trim();
  typed = documentId.slice(0, 40);
  if (!method) return back({ error: "choose_method", field: "paymentMethodId" });
  // The card step's installment choice, one select per card rail (components/checkout/installments-field.tsx).
  const installments = form.get(`installments-${method}`);
  const parsed = selectMethodBody.safeParse({ paymentMethodId: method, ...(installments ? { installments: String(installments) } : {}), customer: documentId ? { documentId } : undefined });
  if (!parsed.success) return back({ error: "document_invalid", field: "documentId", method });

  try {
    const selected = await selectCheckoutMethod(token, parsed.data, { requestIp: clientIp(req.headers) });
    const next = new URL(selected.checkoutUrl);
    if (locale) next.searchParams.set("locale", locale);
    // Kept for "pay another way" should this payment fail (server/checkout-form.ts).
    return seeOther(next.toString(), typedDocumentCookie(token, "", secure), ...(typed ? [keptDocumentCookie(selected.transactionId, typed, secure)] : []));
  } catch (err) {
    if (!(err instanceof AppError)) {
      log.error({ err: err instanceof Error ? err.message : String(err) }, "checkout select failed");
      return back({ error: "generic", method });
    }
    // The page itself explains expired and used sessions.
    if (err.code === "checkout_session_not_found" || err.code === "checkout_session_already_completed") return back({});
    const details = (err.details ?? {}) as { missingFields?: Array<{ key: string }>; malformedFields?: Array<{ key: string }> };
    const field = (details.missingFields ?? details.malformedFields ?? [])[0]?.key ?? err.param;
    if (err.code === "missing_required_fields" && field === "documentId") return back({ error: details.missingFields?.length ? "document_missing" : "document_invalid", method, field: "documentId" });
    if (err.code === "installments_unavailable") return back({ error: "installments_unavailable", method });
    const error = err.code === "missing_required_fields" ? "missing_required_fields" : err.code === "amount_out_of_limits" ? "amount_out_of_limits" : err.code === "cascade_exhausted" || err.code === "method_not_enabled_for_shop" ? "method_unavailable" : "generic";
    return back({ error, method, ...(field && FIELD_OF[field] ? { field: FIELD_OF[field] } : {}) });
  }
}
