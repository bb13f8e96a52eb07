// EBANX's pay-in wire format: the request bodies our connector sends and how each answer is read.
// Every field below is one EBANX publishes; the page is named above it. The contract tests
// (transformers.test.ts) check each body against the documented example in ./fixtures/.
//
// References:
//   Direct API   https://docs.ebanx.com/docs/payments/integration-methods/ebanx-direct
//                https://developers.ebanx.com/api-reference/ebanx-payment-api/payment-reference/reference-direct-operation/
//   Payment Page https://docs.ebanx.com/docs/payments/guides/accept-payments/payment-page (POST /ws/request)
//   Query        https://docs.ebanx.com/docs/payments/guides/after-payments/retrieve-payment (POST /ws/query)
//   Refund       https://docs.ebanx.com/docs/payments/guides/after-payments/refund-payment (POST /ws/refund)
//   Errors       https://docs.ebanx.com/docs/resources/error-codes/api-error-codes
//   The official PHP SDK, github.com/ebanx/benjamin (src/Services/Adapters/*, tests/Unit/Services/Gateways/*).
import { ebanxAmount, minorOf } from "@/lib/providers/ebanx/exact-json";
import { noUsableAnswer } from "@/lib/providers/http-exchange";
import type { ChargeOutcome, ChargeReadBack, ChargeRequest, ProviderStatus, RefundOutcome, RefundRequest, RefundStatus } from "@/lib/providers/types";

/** How a catalog rail is paid at EBANX: Direct API (instructions) or the hosted Payment Page (a redirect). */
type RailWire = { api: "direct" | "page"; paymentTypeCode: string; country: string };

// Payment type codes: https://docs.ebanx.com/docs/resources/payment-type-codes ("pix", "boleto",
// "spei", "oxxo"; "eft" is PSE, Colombia's bank transfer, in the Direct and Request operation
// references; "_creditcard" selects the credit cards on the Payment Page). PSE goes through the
// Payment Page: the Direct API needs the buyer's bank (payment.eft_code, benjamin
// EftPaymentAdapter) chosen from /ws/getBankList, which our checkout does not ask.
export const RAILS: Record<string, RailWire> = {
  "1001": { api: "direct", paymentTypeCode: "pix", country: "br" },
  "1002": { api: "direct", paymentTypeCode: "boleto", country: "br" },
  "1003": { api: "direct", paymentTypeCode: "spei", country: "mx" },
  "1004": { api: "direct", paymentTypeCode: "oxxo", country: "mx" },
  "1005": { api: "page", paymentTypeCode: "eft", country: "co" },
  "1006": { api: "page", paymentTypeCode: "_creditcard", country: "br" },
  "1007": { api: "page", paymentTypeCode: "_creditcard", country: "mx" },
};

/** A decimal written as a JSON number, exactly (see exactJsonBody). */
export type Decimal = { __decimal: string };
const decimal = (minor: bigint, currency: string): Decimal => ({ __decimal: ebanxAmount(minor, currency) });

/** JSON text with every Decimal written as a bare number ("amount_total": 100.50), never through a float. */
export function exactJsonBody(body: unknown): string {
  return JSON.stringify(body).replace(/\{"__decimal":"(\d+(?:\.\d+)?)"\}/g, "$1");
}

const buyerName = (req: ChargeRequest) => req.buyer.name?.trim() || req.buyer.email || "Customer";

/** POST /ws/direct: `operation: request`, `mode: full` and the payment object (reference-direct-operation). */
export function directBody(req: ChargeRequest, integrationKey: string, wire: RailWire) {
  return {
    integration_key: integrationKey,
    operation: "request",
    mode: "full",
    payment: {
      name: buyerName(req),
      email: req.buyer.email ?? "",
      ...(req.buyer.documentId ? { document: req.buyer.documentId } : {}),
      ...(req.buyer.phone ? { phone_number: req.buyer.phone } : {}),
      country: wire.country,
      payment_type_code: wire.paymentTypeCode,
      // Our transaction id: EBANX keeps one payment per merchant_payment_code (BP-DR-0 otherwise).
      merchant_payment_code: req.transactionId,
      currency_code: req.currency,
      amount_total: decimal(req.amountLocalMinor, req.currency),
      // Card installments (issue 42): EBANX spells it `instalments`
      // (https://docs.ebanx.com/docs/payments/guides/features/installments).
      ...(req.installments ? { instalments: req.installments.count } : {}),
    },
  };
}

/** POST /ws/request: the Payment Page's flat parameters (payment-page guide; benjamin RequestAdapter). */
export function pageBody(req: ChargeRequest, integrationKey: string, wire: RailWire) {
  return {
    integration_key: integrationKey,
    name: buyerName(req),
    email: req.buyer.email ?? "",
    country: wire.country,
    payment_type_code: wire.paymentTypeCode,
    merchant_payment_code: req.transactionId,
    currency_code: req.currency,
    amount: decimal(req.amountLocalMinor, req.currency),
    // The Payment Page's installment count (`instalments`), the buyer's choice with us.
    ...(req.installments ? { instalments: String(req.installments.count) } : {}),
  };
}

/** POST /ws/query by EBANX's hash or by our merchant_payment_code (retrieve-payment guide). */
export const queryBody = (integrationKey: string, by: { hash: string } | { merchant_payment_code: string }) => ({ integration_key: integrationKey, ...by });

/** POST /ws/refund: `operation: request` with the payment's hash (refund-payment guide; benjamin RefundAdapter). */
export function refundBody(req: RefundRequest, integrationKey: string, currency: string) {
  return {
    integration_key: integrationKey,
    operation: "request",
    hash: req.providerRef,
    // Our claim id: the refund is found again in the payment's `refunds` by it.
    merchant_refund_code: req.reference,
    amount: decimal(req.amountLocalMinor, currency),
    description: `Refund ${req.reference}`,
  };
}

// Answers ------------------------------------------------------------------------------------

export type Answer = { status: number; body: any };
/** EBANX's error object: `{status: "ERROR", status_code, status_message}` (api-error-codes). */
export const errorCode = (body: any): string | null => (body?.status === "ERROR" && typeof body?.status_code === "string" ? body.status_code : null);

// The codes that are EBANX refusing this payment itself (its own decline rows, in the
// migration 20261202110300_ebanx_decline_codes, say which are hard). Everything else EBANX
// answers as an error (a missing field, an unknown parameter, an invalid key) says nothing of the
// buyer and is `unavailable`. Sources: api-error-codes (BP-CH-1, BP-DR-6/7), the Spanish error
// list https://docs.ebanx.com/docs/resources/error-messages-spanish (BP-DR-93, BP-DR-102), and
// EBANX's own plugin's error table (github.com/ebanx/woocommerce-gateway-ebanx
// services/class-wc-ebanx-errors.php: BP-DR-23 invalid document, BP-DR-39 name/CPF/birth date
// mismatch, BP-DR-40 payment limit reached).
export const REFUSALS = new Set(["BP-CH-1", "BP-DR-6", "BP-DR-7", "BP-DR-23", "BP-DR-39", "BP-DR-40", "BP-DR-93", "BP-DR-102"]);
/** "Payment already exists with merchant_payment_code" (api-error-codes): our repeat, not a decline. */
export const DUPLICATE = "BP-DR-0";
/** Invalid integration key: BP-SA-2 (benjamin FacadeTest), BP-DPAR-4 (the plugins' tables); BP-SA-1: none sent (api-error-codes). */
export const KEY_REFUSED = new Set(["BP-SA-1", "BP-SA-2", "BP-DPAR-4"]);

const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/** The buyer's instructions of a Direct answer, under our keys (lib/checkout/instructions.ts). */
export function instructionsOf(payment: any): Record<string, string> | null {
  const out: Record<string, string> = {};
  const put = (k: string, v: unknown) => {
    const s = str(v);
    if (s) out[k] = s;
  };
  // PIX: payment.pix.qr_code_value, the copy-and-paste code (EBANX's WooCommerce plugin reads it so:
  // github.com/ebanx/woocommerce-gateway-ebanx gateways/class-wc-ebanx-pix-gateway.php; the PIX guide
  // https://docs.ebanx.com/docs/payments/guides/accept-payments/api/brazil/pix).
  put("pixCode", payment?.pix?.qr_code_value);
  // Boleto: boleto_barcode is the 47-digit digitable line, boleto_barcode_raw the 44-digit barcode, boleto_url its PDF (benjamin BoletoTest).
  put("line", payment?.boleto_barcode);
  put("barcode", payment?.boleto_barcode_raw);
  put("boletoUrl", payment?.boleto_url);
  // OXXO: oxxo_barcode and the voucher's oxxo_url (benjamin OxxoTest).
  put("barcode", payment?.oxxo_barcode);
  put("voucherUrl", payment?.oxxo_url);
  // SPEI: clabe_account, clabe_reference and spei_url (benjamin SpeiTest).
  put("clabe", payment?.clabe_account);
  put("reference", payment?.clabe_reference);
  put("speiUrl", payment?.spei_url);
  return Object.keys(out).length ? out : null;
}

/** What a create call (/ws/direct, /ws/request) answered; `duplicate`: our transaction id is already there. */
export function chargeAnswer(a: Answer): ChargeOutcome | { kind: "duplicate" } {
  if (a.body === undefined || a.body === null || typeof a.body !== "object") return { kind: "unavailable", reason: `unreadable_answer_${a.status}` };
  const code = errorCode(a.body);
  if (code === DUPLICATE) return { kind: "duplicate" };
  if (code && REFUSALS.has(code)) return { kind: "declined", reason: code, message: str(a.body.status_message) };
  if (code) return { kind: "unavailable", reason: KEY_REFUSED.has(code) ? "credentials_refused" : `ebanx_${code}` };
  if (a.status >= 500) return { kind: "unavailable", reason: `http_${a.status}` };
  if (a.body.status !== "SUCCESS" || !str(a.body.payment?.hash)) return { kind: "unavailable", reason: `unreadable_answer_${a.status}` };
  return acceptedOf(a.body);
}

/** An answer carrying the payment (create or query): its hash and what the buyer needs. */
export function acceptedOf(body: any): ChargeOutcome {
  const payment = body.payment;
  // The redirect: the answer's redirect_url (benjamin EftTest, EbanxAccountTest; the Payment Page's URL).
  const paymentFormUrl = str(body.redirect_url) ?? str(payment?.redirect_url);
  const instructions = instructionsOf(payment);
  if (!paymentFormUrl && !instructions) return { kind: "unavailable", reason: "no_instructions" };
  return { kind: "accepted", providerRef: payment.hash, paymentFormUrl, instructions };
}

const isDue = (dueDate: unknown, now: Date) => typeof dueDate === "string" && /^\d{4}-\d{2}-\d{2}$/.test(dueDate) && `${dueDate}T23:59:59Z` < now.toISOString();

/**
 * Payment status words (https://docs.ebanx.com/docs/reports/transactions-reports/payments-report,
 * API_STATUS): OP open, PE pending, CO confirmed, CA cancelled. A CA voucher past its due_date
 * expired; any other CA failed. A confirmed payment whose confirmed refunds cover it is refunded.
 */
export function statusOf(payment: any, now = new Date()): ProviderStatus | null {
  switch (payment?.status) {
    case "OP":
    case "PE":
      return "pending";
    case "CO": {
      const currency = str(payment.currency_ext);
      const total = minorOf(payment.amount_ext, currency);
      const refunds: any[] = Array.isArray(payment.refunds) ? payment.refunds : [];
      const refunded = refunds.filter((r) => r?.status === "CO").reduce((s, r) => s + (minorOf(r.amount_ext, currency) ?? 0n), 0n);
      return total !== null && refunded > 0n && refunded >= total ? "refunded" : "paid";
    }
    case "CA":
      return isDue(payment.due_date, now) ? "expired" : "failed";
    default:
      return null;
  }
}

/** A payment read back by hash (readCharge): our reference, status, amount and currency as EBANX holds them. */
export function readBackOf(a: Answer, now = new Date()): ChargeReadBack {
  if (a.body === undefined || a.status >= 500) return { kind: "unknown", reason: noUsableAnswer(a.status, a.body) };
  if (queryNotFound(a.body)) return { kind: "not_found" };
  const p = a.body?.payment;
  const status = a.body?.status === "SUCCESS" ? statusOf(p, now) : null;
  if (!status || !str(p?.hash)) return { kind: "unknown", reason: errorCode(a.body) ? `ebanx_${errorCode(a.body)}` : "unreadable_payment" };
  // What we asked for is amount_ext in currency_ext, the currency the payment was requested in:
  // amount_br is the buyer's local total with IOF added (benjamin PixTest: amount_ext 100,
  // amount_iof 3.5, amount_br 103.50; OxxoTest: amount_ext 64.55 USD, amount_br 1362.01 MXN).
  const currency = str(p.currency_ext);
  return { kind: "found", providerRef: p.hash, reference: str(p.merchant_payment_code), status, amountMinor: minorOf(p.amount_ext, currency), currency: currency?.toUpperCase() ?? null };
}

/**
 * "No such payment" from /ws/query: BP-QL-1 "Payment not found". EBANX's code for it is not in the
 * error pages we could read (api-error-codes lists the payment and customer errors of /ws/direct);
 * it is the code our simulator answers, to be confirmed against EBANX's sandbox
 * (docs/operators/providers/ebanx.md, "What needs EBANX's own sandbox account"). Only that exact
 * code counts: a message is never read (BP-SA-1 "Parameter integration_key not found", a route's
 * or a proxy's "Not found" say nothing of the payment), and anything else is unknown.
 */
export const QUERY_NOT_FOUND = "BP-QL-1";
export const queryNotFound = (body: any): boolean => errorCode(body) === QUERY_NOT_FOUND;


/**
 * The /ws/refund errors that are EBANX refusing the refund itself, nothing queued: BP-REF-7 "The
 * payment cannot be refunded because it is not confirmed" (EBANX's own plugin,
 * github.com/ebanx/woocommerce-gateway-ebanx, its refund error switch). Every other code (a
 * missing parameter, a key refused, a code we have no page for) is unknown: the claim stays pending
 * and its status job asks.
 */
export const REFUND_REFUSALS = new Set(["BP-REF-7"]);

/** The refund answer: `{payment, refund: {id, merchant_refund_code, status: RE|PE|CO|CA}, operation: "refund", status}` (benjamin RefundTest). */
export function refundAnswer(a: Answer): RefundOutcome {
  if (a.body === undefined || a.status >= 500) return { kind: "unknown", reason: noUsableAnswer(a.status, a.body) };
  const code = errorCode(a.body);
  // A refund EBANX refuses outright (REFUND_REFUSALS) is an ERROR answer: nothing was queued.
  if (code) return REFUND_REFUSALS.has(code) ? { kind: "refused", reason: code } : { kind: "unknown", reason: KEY_REFUSED.has(code) ? "credentials_refused" : `ebanx_${code}` };
  const refund = a.body?.refund;
  if (a.body?.status !== "SUCCESS" || !refund) return { kind: "unknown", reason: "unreadable_refund" };
  const word = refundWord(refund);
  if (word === "refunded") return { kind: "refunded", providerRef: str(refund.id) };
  if (word === "rejected") return { kind: "refused", reason: "refund_cancelled" };
  // Queued (RE/PE, still cancellable) or a word we do not know: the status job follows it.
  return { kind: "unknown", reason: word === "processing" ? `refund_${refund.status}` : "refund_status_unknown" };
}

/**
 * Refund status words (refund-payment guide: Requested → Pending → Confirmed; benjamin RefundTest
 * `status: "RE"`): RE and PE are EBANX's queue, and "when the refund is Requested or Pending, it
 * can be cancelled" (the refund-payment and pix-automatico refund pages), so they are still
 * processing; only CO is refunded; CA cancelled. Any other word: null, unknown.
 */
function refundWord(refund: any): "refunded" | "rejected" | "processing" | null {
  if (refund?.status === "CO") return "refunded";
  if (refund?.status === "RE" || refund?.status === "PE") return "processing";
  if (refund?.status === "CA") return "rejected";
  return null;
}

/** A refund of the payment that names no claim of ours (made in EBANX's dashboard, or by a request whose code EBANX did not keep). */
const unattributed = (r: any) => typeof r?.merchant_refund_code !== "string" || r.merchant_refund_code === "";

/** A refund found again by our claim id in the payment's `refunds` (merchant_refund_code). */
export function refundStatusOf(a: Answer, reference: string, amountMinor?: bigint): RefundStatus {
  if (a.body === undefined || a.status >= 500) return { kind: "unknown", reason: noUsableAnswer(a.status, a.body) };
  if (queryNotFound(a.body)) return { kind: "not_found" };
  const refunds: any[] | null = a.body?.status === "SUCCESS" ? (Array.isArray(a.body.payment?.refunds) ? a.body.payment.refunds : []) : null;
  if (!refunds) return { kind: "unknown", reason: errorCode(a.body) ? `ebanx_${errorCode(a.body)}` : "unreadable_payment" };
  const mine = refunds.find((r) => r?.merchant_refund_code === reference);
  if (!mine) {
    // EBANX does not hold merchant_refund_code unique and has no idempotency for refunds: a refund
    // that names no claim may be ours (`amountMinor`: only one of the same amount counts; without
    // it, any), and answering not_found would send a second one.
    const currency = str(a.body.payment?.currency_ext);
    const maybeMine = refunds.filter(unattributed).some((r) => amountMinor === undefined || minorOf(r?.amount_ext, currency) === null || minorOf(r?.amount_ext, currency) === amountMinor);
    return maybeMine ? { kind: "unknown", reason: "unattributed_refund" } : { kind: "not_found" };
  }
  const word = refundWord(mine);
  if (word === "refunded") return { kind: "refunded" };
  if (word === "rejected") return { kind: "rejected", reason: "refund_cancelled" };
  return word === "processing" ? { kind: "processing" } : { kind: "unknown", reason: "refund_status_unknown" };
}
