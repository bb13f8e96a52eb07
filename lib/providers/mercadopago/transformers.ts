// Mercado Pago's wire format for charges: the bodies we send and how we read its answers. No
// flow here (./connector.ts decides which call and what an answer means for our rows); notices
// are in ./notices.ts, money as JSON decimals in ./decimal-json.ts. The published pages each
// detail comes from are named above it; the doc sources are github:mercadopago/devsite-docs
// (guides/…) and github:mercadopago/sdk-nodejs (src/clients/…), their examples copied into
// ./fixtures/ and checked by ./transformers.test.ts.
import type { ChargeLookup, ChargeOutcome, ChargeReadBack, ChargeRequest, ProviderStatus } from "@/lib/providers/types";
import { decimal, minorOf } from "@/lib/providers/mercadopago/decimal-json";

/**
 * How each catalog rail is charged at Mercado Pago.
 * - `payment`: the Payments API, POST /v1/payments with a `payment_method_id`:
 *   pix (https://www.mercadopago.com.br/developers/en/docs/checkout-api/payment-methods/pix,
 *   devsite-docs guides/checkout-api-v2/integrate-pix.en.md), bolbradesco and oxxo
 *   (…/checkout-api/payment-methods/other-payment-methods, guides/checkout-api-v2/other-payment-methods.en.md),
 *   clabe, SPEI transfers in Mexico (https://www.mercadopago.com.mx/developers/en/docs/checkout-api/payment-methods/spei-transfers,
 *   guides/checkout-api-v2/integrate-stp.en.md).
 * - `preference`: Checkout Pro, POST /checkout/preferences, MP's own page at `init_point`
 *   (https://www.mercadopago.com.br/developers/en/reference/preferences/_checkout_preferences/post).
 *   Cards: a card payment through the Payments API needs a card token made in the buyer's browser
 *   by MercadoPago.js, which we never hold. PSE: the API's pse payment requires the buyer's bank
 *   (`transaction_details.financial_institution`, mandatory in guides/checkout-api-v2/integrate-pse.en.md),
 *   which our charge request does not carry; MP's page asks the buyer for it.
 */
export const RAIL_METHODS: Record<string, { kind: "payment"; paymentMethodId: string } | { kind: "preference" }> = {
  "1001": { kind: "payment", paymentMethodId: "pix" },
  "1002": { kind: "payment", paymentMethodId: "bolbradesco" },
  "1003": { kind: "payment", paymentMethodId: "clabe" },
  "1004": { kind: "payment", paymentMethodId: "oxxo" },
  "1005": { kind: "preference" },
  "1006": { kind: "preference" },
  "1007": { kind: "preference" },
};

/**
 * Our notice URL for this provider (the payment route writes `{provider}` in it, as for every
 * connector), with `source_news=webhooks`: "To receive notifications exclusively via Webhooks and
 * not via IPN, you can add the parameter source_news=webhooks to the notification_url"
 * (https://www.mercadopago.com.br/developers/en/docs/your-integrations/notifications/webhooks).
 * IPN's notices are unsigned and would only be refused.
 */
export function noticeUrlOf(req: ChargeRequest, code: string): string {
  const url = new URL(req.notifyUrl.replace("{provider}", code));
  url.searchParams.set("source_news", "webhooks");
  return url.toString();
}

function names(full: string | undefined): { first: string; last: string } | null {
  const parts = (full ?? "").trim().split(/\s+/).filter(Boolean);
  if (!parts.length) return null;
  return { first: parts[0]!, last: parts.slice(1).join(" ") || parts[0]! };
}

/**
 * `payer.identification` {type, number}: in Brazil a CPF (11 digits) or a CNPJ (14). Mexico's
 * payments take none (the "Get document types" step is not offered for MLM in
 * guides/checkout-api-v2/other-payment-methods.en.md).
 */
function identification(req: ChargeRequest): { type: string; number: string } | null {
  if (req.rail.countryIso2 !== "BR" || !req.buyer.documentId) return null;
  const digits = req.buyer.documentId.replace(/\D/g, "");
  return digits.length === 14 ? { type: "CNPJ", number: digits } : { type: "CPF", number: digits };
}

/**
 * POST /v1/payments for pix, bolbradesco, oxxo and clabe, as the guides above send them:
 * transaction_amount (a JSON decimal), description, payment_method_id, payer {email,
 * first_name, last_name, identification}; SPEI's payer also has entity_type "individual"
 * (integrate-stp.en.md). external_reference (our transaction id: the search key of
 * chargeByReference) and notification_url (the notice goes to our URL, taking precedence over
 * the one registered in Your integrations:
 * https://www.mercadopago.com.br/developers/en/docs/your-integrations/notifications/webhooks)
 * are fields of the create request (sdk-nodejs src/clients/payment/create/types.ts).
 * Null when the buyer has no e-mail: MP requires payer.email.
 */
export function paymentBody(req: ChargeRequest, code: string, paymentMethodId: string): Record<string, unknown> | null {
  if (!req.buyer.email) return null;
  const n = names(req.buyer.name);
  const id = identification(req);
  return {
    transaction_amount: decimal(req.amountLocalMinor, req.currency),
    description: `Payment ${req.transactionId}`,
    payment_method_id: paymentMethodId,
    external_reference: req.transactionId,
    notification_url: noticeUrlOf(req, code),
    payer: {
      email: req.buyer.email,
      ...(n ? { first_name: n.first, last_name: n.last } : {}),
      ...(id ? { identification: id } : {}),
      ...(paymentMethodId === "clabe" ? { entity_type: "individual" } : {}),
    },
  };
}

/**
 * POST /checkout/preferences: one item (title, quantity, currency_id, unit_price), our
 * external_reference and notification_url, the buyer as payer {email, name, surname}, and
 * back_urls with auto_return "approved" so an approved buyer comes back to our result page
 * (fields of sdk-nodejs src/clients/preference/commonTypes.ts, PreferenceRequest).
 */
export function preferenceBody(req: ChargeRequest, code: string): Record<string, unknown> {
  const n = names(req.buyer.name);
  const result = `${new URL(noticeUrlOf(req, code)).origin}/c/${req.transactionId}/result`;
  return {
    items: [{ id: req.transactionId, title: `Payment ${req.transactionId}`, quantity: 1, currency_id: req.currency, unit_price: decimal(req.amountLocalMinor, req.currency) }],
    external_reference: req.transactionId,
    notification_url: noticeUrlOf(req, code),
    back_urls: { success: result, pending: result, failure: result },
    auto_return: "approved",
    ...(req.buyer.email || n ? { payer: { ...(req.buyer.email ? { email: req.buyer.email } : {}), ...(n ? { name: n.first, surname: n.last } : {}) } } : {}),
  };
}

const isUrl = (v: unknown): v is string => typeof v === "string" && /^https?:\/\//.test(v);
const text = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v.trim() : typeof v === "number" ? String(v) : null);
/** A code of MP's as our decline reason: its own words, never free text (which stays in `message`). */
const code = (v: unknown): string | null => (typeof v === "string" && /^[A-Za-z0-9_.-]{1,64}$/.test(v) ? v : typeof v === "number" ? String(v) : null);

/** MP's own error body ({message, error, status, cause}); a proxy's page or an empty body is not one. */
export function mpError(body: any): boolean {
  return body !== null && typeof body === "object" && (typeof body.error === "string" || typeof body.message === "string");
}

/**
 * The answer to POST /v1/payments. Created (201) pending or in_process: accepted, with what the
 * buyer needs: pix's point_of_interaction.transaction_data {qr_code, ticket_url}; boleto's,
 * OXXO's and SPEI's transaction_details.external_resource_url, boleto's barcode and digitable
 * line and the ticket's payment_method_reference_id where MP returns them. Rejected at creation:
 * a decline whose reason is the status_detail (cc_rejected_…, collection-results:
 * https://www.mercadopago.com.br/developers/en/docs/checkout-api/response-handling/collection-results).
 * A 400 that names its cause (`cause[].code`) refused the request explicitly: a decline with that
 * code. Anything else (401, 404, 429, 5xx, no JSON, no id) is unknown.
 */
export function paymentOutcome(status: number, body: any): ChargeOutcome {
  if (body === undefined) return { kind: "unavailable", reason: `unreadable_answer_${status}` };
  if (status >= 500) return { kind: "unavailable", reason: `http_${status}` };
  if (status === 400 && mpError(body) && Array.isArray(body.cause) && code(body.cause[0]?.code)) {
    return { kind: "declined", reason: `cause_${code(body.cause[0].code)}`, message: text(body.cause[0]?.description ?? body.message)?.slice(0, 200) ?? null };
  }
  if (status < 200 || status >= 300 || text(body?.id) === null) return { kind: "unavailable", reason: `unexpected_answer_${status}` };
  if (body.status === "rejected" || body.status === "cancelled") return { kind: "declined", reason: code(body.status_detail) ?? body.status };
  if (!["pending", "in_process", "authorized", "approved"].includes(body.status)) return { kind: "unavailable", reason: "unexpected_status" };
  const td = body.point_of_interaction?.transaction_data ?? {};
  const details = body.transaction_details ?? {};
  const instructions: Record<string, unknown> = {};
  if (text(td.qr_code)) instructions.pixCode = td.qr_code;
  if (text(details.digitable_line)) instructions.line = details.digitable_line;
  if (text(details.barcode?.content)) instructions.barcode = details.barcode.content;
  if (text(details.payment_method_reference_id)) instructions.reference = text(details.payment_method_reference_id);
  const page = isUrl(td.ticket_url) ? td.ticket_url : isUrl(details.external_resource_url) ? details.external_resource_url : null;
  return { kind: "accepted", providerRef: text(body.id)!, paymentFormUrl: page, instructions: Object.keys(instructions).length ? instructions : null };
}

/**
 * The answer to POST /checkout/preferences: its `id` is our providerRef (the payment does not
 * exist until the buyer pays on MP's page) and `init_point` the page. MP's test purchases are
 * made with the *production* credentials (APP_USR-) of a seller test account, on `init_point`
 * (https://www.mercadopago.com.br/developers/en/docs/checkout-pro/integration-test/make-test-purchase,
 * devsite-docs guides/checkout-pro/make-test-purchase.en.md): so APP_USR- tokens, test users'
 * included, get `init_point`. Only an application's TEST- credentials get `sandbox_init_point`,
 * the sandbox page every preference answer also carries (the reference's sample answer,
 * fixtures/preferences-create.response.json), where those credentials' preferences are paid.
 */
export function preferenceOutcome(status: number, body: any, testCredentials: boolean): ChargeOutcome {
  if (body === undefined) return { kind: "unavailable", reason: `unreadable_answer_${status}` };
  if (status >= 500) return { kind: "unavailable", reason: `http_${status}` };
  if (status === 400 && mpError(body) && Array.isArray(body.cause) && code(body.cause[0]?.code)) return { kind: "declined", reason: `cause_${code(body.cause[0].code)}`, message: text(body.message)?.slice(0, 200) ?? null };
  const page = testCredentials && isUrl(body?.sandbox_init_point) ? body.sandbox_init_point : body?.init_point;
  if (status < 200 || status >= 300 || text(body?.id) === null || !isUrl(page)) return { kind: "unavailable", reason: `unexpected_answer_${status}` };
  return { kind: "accepted", providerRef: text(body.id)!, paymentFormUrl: page, instructions: null };
}

/**
 * A payment's `status` (and `status_detail`) as our status. Values of
 * https://www.mercadopago.com.br/developers/en/reference/payments/_payments_id/get: pending,
 * approved, authorized, in_process, in_mediation, rejected, cancelled, refunded, charged_back.
 * authorized (not captured) and in_process are still pending; in_mediation is an approved
 * payment with a buyer's claim open (paid; the claim is not a chargeback); a cancelled payment
 * whose status_detail is "expired" expired (a ticket or PIX not paid in time); charged_back
 * by its status_detail (below).
 */
export function statusOf(status: unknown, detail: unknown): ProviderStatus | "chargeback" | null {
  switch (status) {
    case "pending":
    case "in_process":
    case "authorized":
      return "pending";
    case "approved":
    case "in_mediation":
      return "paid";
    case "rejected":
      return "failed";
    case "cancelled":
      return detail === "expired" ? "expired" : "failed";
    case "refunded":
      return "refunded";
    case "charged_back":
      // status_detail of charged_back (collection-results, "charged_back": settled, reimbursed,
      // in_process): `reimbursed` is a chargeback the seller won, its money given back, so the
      // payment reads as paid again; `settled` (lost) and `in_process` are a chargeback; another
      // word says nothing we can act on.
      if (detail === "reimbursed") return "paid";
      return detail === "settled" || detail === "in_process" ? "chargeback" : null;
    default:
      return null;
  }
}

/** The methods we charge through the Payments API; any other payment was made on MP's Checkout Pro page. */
const API_METHODS = new Set(Object.values(RAIL_METHODS).flatMap((m) => (m.kind === "payment" ? [m.paymentMethodId] : [])));

/**
 * GET /v1/payments/{id}: the payment as MP holds it now (404 with MP's JSON: it has none by that
 * id). A payment made on MP's Checkout Pro page (a card, PSE) is one attempt at the preference:
 * rejected, the buyer stays on the page and may pay another way, so for our charge it is still
 * pending (our own deadline ends it).
 */
export function paymentReadBack(status: number, body: any): ChargeReadBack {
  if (status === 404 && mpError(body)) return { kind: "not_found" };
  let s = statusOf(body?.status, body?.status_detail);
  if ((s === "failed" || s === "expired") && !API_METHODS.has(body?.payment_method_id)) s = "pending";
  if (status !== 200 || text(body?.id) === null || !s) return { kind: "unknown", reason: body === undefined ? `unreadable_answer_${status}` : `http_${status}` };
  const currency = typeof body.currency_id === "string" ? body.currency_id : null;
  return { kind: "found", providerRef: text(body.id)!, reference: text(body.external_reference), status: s, amountMinor: minorOf(body.transaction_amount, currency), currency };
}

/** Which of several payments under one external_reference tells the charge's story: a paid one first, then an open one, then the latest. */
const RANK: Record<string, number> = { chargeback: 0, refunded: 1, paid: 2, pending: 3, expired: 4, failed: 5 };

/**
 * GET /v1/payments/search?external_reference=… ({paging, results}: sdk-nodejs
 * src/clients/payment/search/types.ts). No result: MP never made a payment under our reference
 * (for a Checkout Pro preference: the buyer has not paid). A buyer may try twice on MP's page
 * (a rejected card, then an approved one): the paid one counts.
 */
export function searchLookup(status: number, body: any): ChargeLookup | { kind: "found_payment"; back: Extract<ChargeReadBack, { kind: "found" }> } {
  if (status !== 200 || !Array.isArray(body?.results)) return { kind: "unknown", reason: body === undefined ? `unreadable_answer_${status}` : `http_${status}` };
  const found = body.results.map((r: any) => paymentReadBack(200, r)).filter((r: ChargeReadBack): r is Extract<ChargeReadBack, { kind: "found" }> => r.kind === "found");
  if (!found.length) return body.results.length ? { kind: "unknown", reason: "unreadable_results" } : { kind: "not_found" };
  found.sort((a: any, b: any) => (RANK[a.status] ?? 9) - (RANK[b.status] ?? 9));
  return { kind: "found_payment", back: found[0] };
}
