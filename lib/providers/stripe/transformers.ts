// Stripe's wire format for the connector (./connector.ts): the parameters of each call we make
// and how each answer (an object, or an error the `stripe` library raised) becomes one of our
// outcomes. Every field below is taken from Stripe's API reference (https://docs.stripe.com/api)
// and its published OpenAPI document (github:stripe/openapi, pinned in ./openapi/); the contract
// test (./contract.test.ts) checks each request built here against that document.
//
// Two shapes of charge (which rail takes which is `chargeShape`):
// - a PaymentIntent confirmed at once (PIX, OXXO): its `next_action` carries what the buyer pays
//   with, shown on our own /pay/stripe/<tx> page;
// - a Checkout Session (cards, boleto): Stripe's hosted page collects what we must not (card
//   data) or do not (boleto needs the buyer's postal address, which our API does not collect:
//   https://docs.stripe.com/payments/boleto/accept-a-payment?payment-ui=direct-api lists name,
//   email, tax id and address as required); its `url` is our paymentFormUrl.
import type { ChargeOutcome, ChargeRequest, ProviderStatus, RefundStatus } from "@/lib/providers/types";

/** The metadata mark of a PaymentIntent a Checkout Session of ours created. */
export const CHECKOUT_SESSION = "checkout_session";

export type Shape = "payment_intent" | "checkout_session";
/** The pay-in rails Stripe takes here and how (catalog ids of lib/rails/rails.ts). */
export const RAIL_SHAPES: Record<string, { shape: Shape; type: "pix" | "oxxo" | "boleto" | "card" }> = {
  // https://docs.stripe.com/payments/pix/accept-a-payment?payment-ui=direct-api
  "1001": { shape: "payment_intent", type: "pix" },
  // https://docs.stripe.com/payments/boleto/accept-a-payment?payment-ui=checkout
  "1002": { shape: "checkout_session", type: "boleto" },
  // https://docs.stripe.com/payments/oxxo/accept-a-payment?payment-ui=direct-api
  "1004": { shape: "payment_intent", type: "oxxo" },
  // https://docs.stripe.com/payments/accept-a-payment?payment-ui=stripe-hosted
  "1006": { shape: "checkout_session", type: "card" },
  "1007": { shape: "checkout_session", type: "card" },
};

/** Stripe takes amounts as integers in the currency's smallest unit (https://docs.stripe.com/currencies#zero-decimal). */
function amountOf(minor: bigint): number {
  if (minor <= 0n || minor > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError("amount out of range");
  return Number(minor);
}

/** Our checkout result page, where Stripe's hosted page sends the buyer back (both ways: we read the outcome ourselves). */
export function resultUrl(req: ChargeRequest): string {
  const app = req.notifyUrl.replace(/\/api\/v1\/providers\/.*$/, "");
  return `${app}/c/${encodeURIComponent(req.transactionId)}/result`;
}

/**
 * POST /v1/payment_intents with `confirm: true` (https://docs.stripe.com/api/payment_intents/create):
 * `payment_method_data` creates the PIX or OXXO payment method inline; `metadata.reference` is our
 * transaction id, what chargeByReference searches (https://docs.stripe.com/search#query-fields-for-payment-intents).
 */
export function paymentIntentParams(req: ChargeRequest, type: "pix" | "oxxo") {
  // billing_details (https://docs.stripe.com/api/payment_methods/object#payment_method_object-billing_details):
  // OXXO requires the buyer's name and email (https://docs.stripe.com/payments/oxxo/accept-a-payment?payment-ui=direct-api).
  const billing: Record<string, string> = {};
  if (req.buyer.name) billing.name = req.buyer.name;
  if (req.buyer.email) billing.email = req.buyer.email;
  if (req.buyer.phone) billing.phone = req.buyer.phone;
  return {
    amount: amountOf(req.amountLocalMinor),
    currency: req.currency.toLowerCase(),
    confirm: true,
    payment_method_types: [type],
    payment_method_data: { type, billing_details: billing },
    metadata: { reference: req.transactionId },
  };
}

/**
 * POST /v1/checkout/sessions (https://docs.stripe.com/api/checkout/sessions/create): one
 * `price_data` line item of the whole amount; `client_reference_id` and the PaymentIntent's
 * metadata both carry our transaction id (the session's own `metadata` is not copied to its
 * PaymentIntent: https://docs.stripe.com/api/checkout/sessions/create#create_checkout_session-payment_intent_data-metadata).
 */
export function checkoutSessionParams(req: ChargeRequest, type: "card" | "boleto") {
  const back = resultUrl(req);
  return {
    mode: "payment" as const,
    payment_method_types: [type],
    line_items: [{ quantity: 1, price_data: { currency: req.currency.toLowerCase(), unit_amount: amountOf(req.amountLocalMinor), product_data: { name: `Payment ${req.transactionId}` } } }],
    client_reference_id: req.transactionId,
    ...(req.buyer.email ? { customer_email: req.buyer.email } : {}),
    // `via` tells a notice about this PaymentIntent that our charge is its session (readCharge).
    payment_intent_data: { metadata: { reference: req.transactionId, via: CHECKOUT_SESSION } },
    ...installmentsOptions(req, type),
    metadata: { reference: req.transactionId },
    success_url: back,
    cancel_url: back,
  };
}

/**
 * Mexico's meses sin intereses on a card Checkout Session (issue 42 point 5): MXN only, and only
 * for a payment asked in installments (count > 1). A session takes no plan, only the switch
 * `payment_method_options[card][installments][enabled]` ("Setting to true enables installments for
 * this Checkout Session"): Stripe's hosted page then offers the buyer the plans their card and the
 * amount allow, and the buyer picks one there or pays at once
 * (https://docs.stripe.com/payments/meses-sin-intereses/accept-a-payment?payment-ui=checkout).
 * The field postdates the pinned spec3 (v127); it is in the `stripe` library's types generated
 * from the current spec3 (Checkout/Sessions.d.ts, SessionCreateParams.PaymentMethodOptions.Card.Installments),
 * which the contract test reads. What the buyer chose comes back on the charge (installmentsChosen).
 */
export function installmentsOptions(req: ChargeRequest, type: "card" | "boleto") {
  if (type !== "card" || !req.installments || req.installments.count <= 1 || req.currency.toUpperCase() !== "MXN") return {};
  return { payment_method_options: { card: { installments: { enabled: true } } } };
}

/**
 * The plan the buyer paid on, from the Charge: `payment_method_details.card.installments.plan`
 * {count, interval, type} (https://docs.stripe.com/api/charges/object#charge_object-payment_method_details-card-installments-plan;
 * in spec3 as the `stripe` library's Charges.d.ts types it: `installments: Card.Installments | null`,
 * `plan: Installments.Plan | null`, `count: number | null`, `type: 'bonus' | 'fixed_count' | 'revolving'`).
 * The count of installments the buyer makes, 1 when they paid at once (no installments, or no
 * plan). Only a `fixed_count` plan has a count of monthly payments ("For fixed_count installment
 * plans, this is the number of installment payments"); a `bonus` or `revolving` plan is not
 * meses sin intereses and is booked as paid at once. undefined: the charge says nothing we can
 * read (not a card charge, not expanded), so what we asked stands.
 */
export function installmentsChosen(charge: any): number | undefined {
  const card = charge && typeof charge === "object" ? charge.payment_method_details?.card : undefined;
  if (!card || typeof card !== "object" || !("installments" in card)) return undefined;
  const plan = card.installments?.plan;
  if (!plan) return 1;
  if (plan.type !== "fixed_count") return 1;
  return Number.isInteger(plan.count) && plan.count >= 1 ? plan.count : undefined;
}

/** The instructions our /pay page shows (lib/checkout/instructions.ts' keys) from a PaymentIntent's next_action. */
export function instructionsOf(pi: any): Record<string, string> | null {
  const next = pi?.next_action;
  // https://docs.stripe.com/api/payment_intents/object#payment_intent_object-next_action-pix_display_qr_code
  const pixCode = next?.pix_display_qr_code?.data;
  if (typeof pixCode === "string" && pixCode) return { pixCode };
  // https://docs.stripe.com/api/payment_intents/object#payment_intent_object-next_action-oxxo_display_details
  const oxxo = next?.oxxo_display_details?.number;
  if (typeof oxxo === "string" && oxxo) return { barcode: oxxo };
  // https://docs.stripe.com/api/payment_intents/object#payment_intent_object-next_action-boleto_display_details
  const line = next?.boleto_display_details?.number;
  if (typeof line === "string" && line) return { line };
  return null;
}

/** A created PaymentIntent: accepted with what the buyer pays with, or failed at once (its last_payment_error). */
export function paymentIntentOutcome(pi: any): ChargeOutcome {
  if (!pi || typeof pi.id !== "string" || !pi.id.startsWith("pi_")) return { kind: "unavailable", reason: "unreadable_answer" };
  const err = pi.last_payment_error;
  if (pi.status === "requires_payment_method" && err) return { kind: "declined", reason: String(err.decline_code ?? err.code ?? "payment_failed"), message: err.message ?? null };
  if (pi.status === "canceled") return { kind: "declined", reason: "canceled" };
  const instructions = instructionsOf(pi);
  if (pi.status === "requires_action" && !instructions) return { kind: "unavailable", reason: "no_instructions" };
  return { kind: "accepted", providerRef: pi.id, paymentFormUrl: null, instructions };
}

export function checkoutSessionOutcome(s: any): ChargeOutcome {
  if (!s || typeof s.id !== "string" || !s.id.startsWith("cs_")) return { kind: "unavailable", reason: "unreadable_answer" };
  if (typeof s.url !== "string" || !s.url) return { kind: "unavailable", reason: "no_instructions" };
  return { kind: "accepted", providerRef: s.id, paymentFormUrl: s.url, instructions: null };
}

/**
 * A PaymentIntent's status (https://docs.stripe.com/payments/paymentintents/lifecycle) as ours.
 * requires_payment_method after an attempt carries last_payment_error: a voucher or QR left
 * unpaid ends with code payment_intent_payment_attempt_expired (https://docs.stripe.com/error-codes),
 * anything else is a failed attempt. With `latest_charge` expanded (https://docs.stripe.com/api/charges/object):
 * `refunded` (fully) and `disputed` ("Whether the charge has been disputed", true for good once a
 * dispute was opened), with the charge's disputes (GET /v1/disputes?payment_intent=) for what the
 * dispute came to.
 */
export function paymentIntentStatus(pi: any, disputes?: readonly any[]): ProviderStatus | "chargeback" | null {
  switch (pi?.status) {
    case "succeeded": {
      const charge = typeof pi.latest_charge === "object" && pi.latest_charge ? pi.latest_charge : null;
      // `disputed` stays true after a dispute is won: the Dispute's own status decides.
      if (charge?.disputed === true) {
        const d = disputeOutcome(disputes);
        if (d === null) return null;
        if (d === "chargeback") return "chargeback";
      }
      if (charge?.refunded === true) return "refunded";
      return "paid";
    }
    case "processing":
    case "requires_action":
    case "requires_confirmation":
    case "requires_capture":
      return "pending";
    case "requires_payment_method": {
      const code = pi.last_payment_error?.code;
      if (code === "payment_intent_payment_attempt_expired") return "expired";
      return pi.last_payment_error ? "failed" : "pending";
    }
    case "canceled":
      return "failed";
    default:
      return null;
  }
}

/**
 * A Checkout Session (https://docs.stripe.com/api/checkout/sessions/object#checkout_session_object-status):
 * open, complete or expired, with payment_status paid / unpaid / no_payment_required. A complete
 * session of an asynchronous method (boleto) stays unpaid until the voucher is paid. Its
 * PaymentIntent, when expanded, says more (a refund, a dispute, a failed boleto).
 */
export function checkoutSessionStatus(s: any, disputes?: readonly any[]): ProviderStatus | "chargeback" | null {
  const pi = typeof s?.payment_intent === "object" && s.payment_intent ? s.payment_intent : null;
  if (s?.status === "expired") return pi?.status === "succeeded" ? paymentIntentStatus(pi, disputes) : "expired";
  if (pi) {
    const st = paymentIntentStatus(pi, disputes);
    // A card attempt declined on the hosted page leaves the session open for another card.
    if (st === "failed" && s.status === "open") return "pending";
    return st;
  }
  if (s?.status === "complete") return s.payment_status === "paid" ? "paid" : "pending";
  if (s?.status === "open") return "pending";
  return null;
}

/**
 * What a charge's disputes came to (https://docs.stripe.com/api/disputes/object#dispute_object-status):
 * `needs_response`, `under_review` and `lost` are a chargeback (the funds are withdrawn while it
 * is open and stay gone when lost); `won` gave the funds back, and the `warning_*` statuses are
 * an inquiry that never withdrew any (https://docs.stripe.com/disputes/how-disputes-work#inquiries):
 * both `settled`, the charge reads as what it otherwise is. One dispute in a chargeback state makes
 * the charge a chargeback. No list (not read) or a status word we do not know: null, unknown.
 */
export function disputeOutcome(disputes: readonly any[] | undefined): "chargeback" | "settled" | null {
  if (!disputes || disputes.length === 0) return null;
  let out: "chargeback" | "settled" = "settled";
  for (const d of disputes) {
    if (d?.status === "needs_response" || d?.status === "under_review" || d?.status === "lost") out = "chargeback";
    else if (!["won", "warning_needs_response", "warning_under_review", "warning_closed"].includes(d?.status)) return null;
  }
  return out;
}

/** `metadata.reference` (or a session's client_reference_id): our transaction id as Stripe holds it. */
export function referenceOf(obj: any): string | null {
  const ref = obj?.metadata?.reference ?? obj?.client_reference_id;
  return typeof ref === "string" && ref ? ref : null;
}

/** Search query syntax: https://docs.stripe.com/search#search-query-language (quotes escaped with a backslash). */
export function referenceQuery(reference: string): string {
  return `metadata['reference']:'${reference.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}

/** POST /v1/refunds (https://docs.stripe.com/api/refunds/create). */
export function refundParams(paymentIntent: string, amountMinor: bigint, reference: string) {
  return { payment_intent: paymentIntent, amount: amountOf(amountMinor), metadata: { reference } };
}

/** A Refund's status (https://docs.stripe.com/api/refunds/object#refund_object-status): pending, requires_action, succeeded, failed, canceled. */
export function refundStatusOf(r: any): RefundStatus {
  switch (r?.status) {
    case "succeeded":
      return { kind: "refunded" };
    case "failed":
    case "canceled":
      return { kind: "rejected", reason: String(r.failure_reason ?? r.status) };
    case "pending":
    case "requires_action":
      return { kind: "processing" };
    default:
      return { kind: "unknown", reason: "unreadable_answer" };
  }
}
