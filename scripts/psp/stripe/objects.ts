// The Stripe objects the simulator (./simulator.ts) holds and answers, shaped as the API
// reference describes them (https://docs.stripe.com/api): PaymentIntent, Checkout Session,
// Charge, Refund, Dispute, Event, Balance, lists, search results and the error body. Exported for
// the contract test (lib/providers/stripe/contract.test.ts), which checks them against the pinned
// OpenAPI document.
import { randomBytes } from "node:crypto";

export const API_VERSION = "2026-10-28.endive";
export const now = () => Math.floor(Date.now() / 1000);
/** Stripe ids: a prefix and random characters (pi_…, cs_test_…, ch_…, re_…, evt_…). */
export const stripeId = (prefix: string) => `${prefix}_${randomBytes(12).toString("base64url").replace(/[-_]/g, "0")}`;

export type Obj = Record<string, any>;

export function paymentIntent(p: { amount: number; currency: string; type: string; metadata: Obj; billing: Obj; created?: number }): Obj {
  return {
    id: stripeId("pi"),
    object: "payment_intent",
    amount: p.amount,
    amount_capturable: 0,
    amount_received: 0,
    capture_method: "automatic",
    client_secret: `${stripeId("pi")}_secret_${randomBytes(6).toString("hex")}`,
    confirmation_method: "automatic",
    created: p.created ?? now(),
    currency: p.currency,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    metadata: p.metadata,
    next_action: null,
    payment_method: stripeId("pm"),
    payment_method_types: [p.type],
    status: "requires_payment_method",
    // Kept for the simulator only (the buyer's email picks failure knobs); stripped on the wire.
    _billing: p.billing,
  };
}

/** next_action of a confirmed PIX or OXXO PaymentIntent (https://docs.stripe.com/api/payment_intents/object#payment_intent_object-next_action). */
export function nextActionFor(pi: Obj, base: string): Obj {
  const expires = now() + 86_400;
  if (pi.payment_method_types[0] === "pix") {
    const data = `00020101021226880014br.gov.bcb.pix2566qr.stripe.sim/${pi.id}5204000053039865802BR5913SIMULATED6009SAO PAULO62070503***6304ABCD`;
    return { type: "pix_display_qr_code", pix_display_qr_code: { data, expires_at: expires, hosted_instructions_url: `${base}/hosted/pix/${pi.id}`, image_url_png: `${base}/hosted/pix/${pi.id}.png`, image_url_svg: `${base}/hosted/pix/${pi.id}.svg` } };
  }
  const digits = BigInt(`0x${randomBytes(8).toString("hex")}`).toString().padStart(18, "0").slice(0, 18);
  return { type: "oxxo_display_details", oxxo_display_details: { expires_after: expires, hosted_voucher_url: `${base}/hosted/oxxo/${pi.id}`, number: digits } };
}

export function checkoutSession(p: { amount: number; currency: string; type: string; clientReferenceId: string | null; customerEmail: string | null; metadata: Obj; successUrl: string; cancelUrl: string; base: string }): Obj {
  const id = stripeId("cs_test");
  return {
    id,
    object: "checkout.session",
    amount_subtotal: p.amount,
    amount_total: p.amount,
    automatic_tax: { enabled: false, status: null },
    cancel_url: p.cancelUrl,
    client_reference_id: p.clientReferenceId,
    created: now(),
    currency: p.currency,
    customer_email: p.customerEmail,
    expires_at: now() + 86_400,
    livemode: false,
    metadata: p.metadata,
    mode: "payment",
    payment_intent: null,
    payment_method_types: [p.type],
    payment_status: "unpaid",
    shipping_options: [],
    status: "open",
    success_url: p.successUrl,
    url: `${p.base}/c/pay/${id}`,
  };
}

/**
 * The months the simulated hosted page offers on an MXN card session with installments enabled
 * (meses sin intereses, https://docs.stripe.com/payments/mx-installments). Stripe's own page offers
 * what the card's issuer and the amount allow; a test picks one of these with the pay control.
 */
export const MSI_COUNTS = [3, 6, 9, 12, 18, 24];

/** An installment plan as Stripe writes it on a charge and a PaymentIntent: {count, interval, type}. */
export const installmentPlan = (count: number): Obj => ({ count, interval: "month", type: "fixed_count" });

/**
 * `payment_method_details` of a charge (https://docs.stripe.com/api/charges/object#charge_object-payment_method_details):
 * `type` and a hash of that name; a card's `installments` is null when the buyer paid at once and
 * `{ plan }` with the plan chosen otherwise (`_plan` of the PaymentIntent).
 */
function paymentMethodDetails(pi: Obj): Obj {
  const type = pi.payment_method_types[0];
  if (type !== "card") return { type, [type]: {} };
  const mx = pi.currency === "mxn";
  return { type: "card", card: { brand: "visa", country: mx ? "MX" : "BR", exp_month: 12, exp_year: 2030, funding: "credit", last4: "4242", network: "visa", installments: pi._plan ? { plan: pi._plan } : null } };
}

export function charge(pi: Obj): Obj {
  return {
    id: stripeId("ch"),
    object: "charge",
    amount: pi.amount,
    amount_captured: pi.amount,
    amount_refunded: 0,
    billing_details: { address: null, email: pi._billing?.email ?? null, name: pi._billing?.name ?? null, phone: null },
    captured: true,
    created: now(),
    currency: pi.currency,
    disputed: false,
    livemode: false,
    metadata: pi.metadata,
    paid: true,
    payment_intent: pi.id,
    payment_method_details: paymentMethodDetails(pi),
    refunded: false,
    // Listed as API versions before 2022-11-15 list them (the pinned reference's): a charge.refunded
    // event then names its refunds.
    refunds: { object: "list", data: [], has_more: false, url: "/v1/refunds" },
    status: "succeeded",
  };
}

export function refund(p: { amount: number; charge: Obj; metadata: Obj; status: string }): Obj {
  return { id: stripeId("re"), object: "refund", amount: p.amount, charge: p.charge.id, created: now(), currency: p.charge.currency, metadata: p.metadata, payment_intent: p.charge.payment_intent, reason: null, status: p.status };
}

export function dispute(ch: Obj): Obj {
  return { id: stripeId("dp"), object: "dispute", amount: ch.amount, balance_transactions: [], charge: ch.id, created: now(), currency: ch.currency, evidence: {}, evidence_details: { due_by: now() + 7 * 86_400, has_evidence: false, past_due: false, submission_count: 0 }, is_charge_refundable: false, livemode: false, metadata: {}, payment_intent: ch.payment_intent, reason: "fraudulent", status: "needs_response" };
}

export function event(type: string, object: Obj): Obj {
  return { id: stripeId("evt"), object: "event", api_version: API_VERSION, created: now(), data: { object }, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type };
}

export function balance(): Obj {
  return { object: "balance", available: [{ amount: 0, currency: "brl", source_types: { card: 0 } }], livemode: false, pending: [{ amount: 0, currency: "brl", source_types: { card: 0 } }] };
}

export const list = (url: string, data: Obj[], hasMore: boolean): Obj => ({ object: "list", data, has_more: hasMore, url });
export const searchResult = (url: string, data: Obj[]): Obj => ({ object: "search_result", data, has_more: false, next_page: null, url });

/** The error body (https://docs.stripe.com/api/errors): type, code, decline_code, message, param. */
export function errorBody(e: { type: string; message: string; code?: string; decline_code?: string; param?: string }): Obj {
  return { error: { type: e.type, message: e.message, ...(e.code ? { code: e.code, doc_url: `https://docs.stripe.com/error-codes/${e.code.replace(/_/g, "-")}` } : {}), ...(e.decline_code ? { decline_code: e.decline_code } : {}), ...(e.param ? { param: e.param } : {}) } };
}

/** What goes on the wire: the simulator's own bookkeeping (keys starting with `_`) left out. */
export function wire(o: unknown): unknown {
  if (Array.isArray(o)) return o.map(wire);
  if (!o || typeof o !== "object") return o;
  return Object.fromEntries(Object.entries(o).filter(([k]) => !k.startsWith("_")).map(([k, v]) => [k, wire(v)]));
}
