// Mercado Pago's wire format for charges: the bodies we send and how we read its answers. No
// flow here (./connector.ts decides which call and what an answer means for our rows); notices
// are in ./notices.ts, money as JSON decimals in ./decimal-json.ts. The published pages each
// detail comes from are named above it; the doc sources are github:mercadopago/devsite-docs
// (guides/…) and github:mercadopago/sdk-nodejs (src/clients/…), their examples copied into
// ./fixtures/ and checked by ./transformers.test.ts.
import type { ChargeLookup, ChargeOutcome, ChargeReadBack, ChargeRequest, ProviderStatus } from "@/lib/providers/types";
import { decimal, minorOf, wholeNumber } from "@/lib/providers/mercadopago/decimal-json";
import { noUsableAnswer } from "@/lib/providers/http-exchange";

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
 * Null when the buyer has no e-mail (MP requires payer.email) or the amount cannot be sent (mpAmount).
 */
export function paymentBody(req: ChargeRequest, code: string, paymentMethodId: string): Record<string, unknown> | null {
  if (!req.buyer.email) return null;
  const amount = mpAmount(req.amountLocalMinor, req.currency);
  if (amount === null) return null;
  const n = names(req.buyer.name);
  const id = identification(req);
  return {
    transaction_amount: amount,
    description: `Payment ${req.transactionId}`,
    payment_method_id: paymentMethodId,
    external_reference: req.transactionId,
    notification_url: noticeUrlOf(req, code),
    ...(req.installments ? { installments: req.installments.count } : {}),
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
 * (fields of sdk-nodejs src/clients/preference/commonTypes.ts, PreferenceRequest). Null when the
 * amount cannot be sent (mpAmount).
 */
export function preferenceBody(req: ChargeRequest, code: string): Record<string, unknown> | null {
  const amount = mpAmount(req.amountLocalMinor, req.currency);
  if (amount === null) return null;
  const n = names(req.buyer.name);
  const result = `${new URL(noticeUrlOf(req, code)).origin}/c/${req.transactionId}/result`;
  return {
    items: [{ id: req.transactionId, title: `Payment ${req.transactionId}`, quantity: 1, currency_id: req.currency, unit_price: amount }],
    external_reference: req.transactionId,
    notification_url: noticeUrlOf(req, code),
    back_urls: { success: result, pending: result, failure: result },
    auto_return: "approved",
    // Installments: at most, and opening on, the buyer's count (docs/integrators/installments.md).
    ...(req.installments ? { payment_methods: { installments: req.installments.count, default_installments: req.installments.count } } : {}),
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
 * MP saying it has no such resource: a 404 whose body is MP's whole error shape with `error:
 * "not_found"` and `status: 404` (GET /v1/payments/{id}: `{"message":"Payment not found","error":
 * "not_found","status":404,"cause":[{"code":2000,…}]}`, sdk-nodejs' MercadoPagoError fields). A
 * gateway's or a wrong URL's `{"message":"Not Found"}` says nothing about the payment: unknown.
 */
export function mpNotFound(status: number, body: any): boolean {
  return status === 404 && mpError(body) && body.error === "not_found" && Number(body.status) === 404;
}

/**
 * The 400 causes of POST /v1/payments that are MP refusing what we asked for (the buyer's data,
 * the amount, the method), from the reference's list of 400 causes
 * (https://www.mercadopago.com.co/developers/en/reference/payments/_payments/post): 2067 invalid
 * user identification number, 2072 invalid value for transaction_amount, 3011 payment_method not
 * found, 3028 invalid payment_method_id, 4037 invalid transaction_amount, 4050/4051 payer.email
 * not valid / too long. The same list names MP's own failures (2004 "POST to Gateway Transactions
 * API fail", 2007 "Connection to Card Token API fail", 2041 "GET to API APPLICATION fail"),
 * our configuration (1, 3, 5, 2034, 3004, 3007, 3009: the token, the site, the users) and a repeat
 * (2001 "Already posted the same request in the last minute"): none of those says the charge was
 * refused, so every cause not listed here is `unavailable` (the cascade may move on).
 */
export const CHARGE_REFUSAL_CAUSES = new Set(["2067", "2072", "3011", "3028", "4037", "4050", "4051"]);

/**
 * The 400 causes of POST /v1/payments/{id}/refunds that are MP refusing the refund: 2063 "The
 * action requested is not valid for the current payment state", 4040 an amount not positive or
 * above what is left, 3024 "Not valid action - partial refund unsupported for this transaction"
 * (the payments reference's list above). Every other cause is unknown: the claim stays pending.
 */
export const REFUND_REFUSAL_CAUSES = new Set(["2063", "3024", "4040"]);

/** A 400's first cause code, when MP named one in its own error shape. */
export function causeOf(status: number, body: any): string | null {
  return status === 400 && mpError(body) && Array.isArray(body.cause) ? code(body.cause[0]?.code) : null;
}

/** A 400 with a cause: a decline for a documented refusal, `unavailable` for anything else. */
function causeOutcome(cause: string, message: unknown): ChargeOutcome {
  if (CHARGE_REFUSAL_CAUSES.has(cause)) return { kind: "declined", reason: `cause_${cause}`, message: text(message)?.slice(0, 200) ?? null };
  return { kind: "unavailable", reason: `cause_${cause}` };
}

/**
 * MP takes Colombian pesos as whole numbers. MP's own pages we read do not state it (the payments
 * and preferences references type transaction_amount / unit_price as a number); the rule is MP's
 * 400 as integrators report it, "Prices in COP currency must be expressed with integer values"
 * (github.com/odoo/odoo/pull/191214, Odoo's Mercado Pago connector). We hold COP with exponent 2
 * (ISO 4217, lib/money/currency.ts), so an amount is sent only when its minor units are whole pesos,
 * written without decimals; any other is never rounded (the buyer would pay another amount) and
 * never sent: null, and the caller declines softly (the cascade moves on) or refuses a refund.
 */
export function mpAmount(minor: bigint, currency: string): string | null {
  if (currency.toUpperCase() !== "COP") return decimal(minor, currency);
  return minor % 100n === 0n ? wholeNumber(minor / 100n) : null;
}

/**
 * The answer to POST /v1/payments. Created (201) pending or in_process: accepted, with what the
 * buyer needs: pix's point_of_interaction.transaction_data {qr_code, ticket_url}; boleto's,
 * OXXO's and SPEI's transaction_details.external_resource_url, boleto's barcode and digitable
 * line and the ticket's payment_method_reference_id where MP returns them. Rejected at creation:
 * a decline whose reason is the status_detail (cc_rejected_…, collection-results:
 * https://www.mercadopago.com.br/developers/en/docs/checkout-api/response-handling/collection-results).
 * A 400 that names a documented refusal as its cause (`cause[].code`, CHARGE_REFUSAL_CAUSES) is a
 * decline with that code; any other cause, and anything else (401, 404, 429, 5xx, no JSON, no id),
 * is unknown.
 */
export function paymentOutcome(status: number, body: any): ChargeOutcome {
  if (body === undefined || status >= 500) return { kind: "unavailable", reason: noUsableAnswer(status, body) };
  const cause = causeOf(status, body);
  if (cause) return causeOutcome(cause, body.cause[0]?.description ?? body.message);
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
  if (body === undefined || status >= 500) return { kind: "unavailable", reason: noUsableAnswer(status, body) };
  const cause = causeOf(status, body);
  if (cause) return causeOutcome(cause, body.message);
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
  if (mpNotFound(status, body)) return { kind: "not_found" };
  let s = statusOf(body?.status, body?.status_detail);
  if ((s === "failed" || s === "expired") && !API_METHODS.has(body?.payment_method_id)) s = "pending";
  if (status !== 200 || text(body?.id) === null || !s) return { kind: "unknown", reason: noUsableAnswer(status, body) };
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
export function searchLookup(status: number, body: any, reference: string): ChargeLookup | { kind: "found_payment"; back: Extract<ChargeReadBack, { kind: "found" }> } {
  if (status !== 200 || !Array.isArray(body?.results)) return { kind: "unknown", reason: noUsableAnswer(status, body) };
  // Only payments that name our reference count: a result under another external_reference
  // (MP ignoring or loosening the filter) says nothing of ours, and is never applied to our charge.
  const ours = body.results.filter((r: any) => text(r?.external_reference) === reference);
  if (ours.length < body.results.length) return { kind: "unknown", reason: "results_of_another_reference" };
  const found = ours.map((r: any) => paymentReadBack(200, r)).filter((r: ChargeReadBack): r is Extract<ChargeReadBack, { kind: "found" }> => r.kind === "found");
  if (!found.length) return ours.length ? { kind: "unknown", reason: "unreadable_results" } : { kind: "not_found" };
  found.sort((a: any, b: any) => (RANK[a.status] ?? 9) - (RANK[b.status] ?? 9));
  return { kind: "found_payment", back: found[0] };
}
