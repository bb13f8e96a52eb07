import { test } from "node:test";
import assert from "node:assert/strict";
import Stripe from "stripe";
import { checkoutSessionParams, checkoutSessionStatus, installmentsChosen, installmentsOptions, disputeOutcome, instructionsOf, paymentIntentOutcome, paymentIntentParams, paymentIntentStatus, referenceQuery, refundStatusOf, resultUrl } from "@/lib/providers/stripe/transformers";
import { chargeFailure, isMissing } from "@/lib/providers/stripe/errors";
import { readStripeNotice, subjectsOf } from "@/lib/providers/stripe/notices";
import type { ChargeRequest } from "@/lib/providers/types";

const req = (rail: string, over: Partial<ChargeRequest> = {}): ChargeRequest => ({ transactionId: "tx_1", rail: { paymentMethodId: rail } as ChargeRequest["rail"], amountLocalMinor: 12345n, currency: "BRL", buyer: { name: "Ana Souza", email: "ana@example.com", documentId: "12345678909" }, notifyUrl: "https://pay.example.com/api/v1/providers/{provider}/notifications", ...over });

test("a PIX PaymentIntent is confirmed at once with our id as metadata.reference, amounts in minor units", () => {
  const p = paymentIntentParams(req("1001"), "pix");
  assert.equal(p.amount, 12345);
  assert.equal(p.currency, "brl");
  assert.equal(p.confirm, true);
  assert.deepEqual(p.payment_method_types, ["pix"]);
  assert.deepEqual(p.payment_method_data, { type: "pix", billing_details: { name: "Ana Souza", email: "ana@example.com" } });
  assert.deepEqual(p.metadata, { reference: "tx_1" });
  assert.throws(() => paymentIntentParams(req("1001", { amountLocalMinor: 0n }), "pix"), RangeError);
});

test("a Checkout Session sends the buyer back to our result page and carries our id three ways", () => {
  const p = checkoutSessionParams(req("1006"), "card");
  assert.equal(resultUrl(req("1006")), "https://pay.example.com/c/tx_1/result");
  assert.equal(p.success_url, "https://pay.example.com/c/tx_1/result");
  assert.equal(p.client_reference_id, "tx_1");
  assert.equal(p.payment_intent_data.metadata.reference, "tx_1");
  assert.equal(p.line_items[0]!.price_data.unit_amount, 12345);
  assert.equal("customer_email" in checkoutSessionParams(req("1006", { buyer: {} }), "card"), false);
});

test("next_action becomes the keys our /pay page shows", () => {
  assert.deepEqual(instructionsOf({ next_action: { type: "pix_display_qr_code", pix_display_qr_code: { data: "000201…" } } }), { pixCode: "000201…" });
  assert.deepEqual(instructionsOf({ next_action: { type: "oxxo_display_details", oxxo_display_details: { number: "1234" } } }), { barcode: "1234" });
  assert.deepEqual(instructionsOf({ next_action: { type: "boleto_display_details", boleto_display_details: { number: "2379 0001" } } }), { line: "2379 0001" });
  assert.equal(instructionsOf({ next_action: null }), null);
  // requires_action without anything to show is no usable answer, never a decline.
  assert.deepEqual(paymentIntentOutcome({ id: "pi_1", status: "requires_action", next_action: { type: "redirect_to_url" } }), { kind: "unavailable", reason: "no_instructions" });
  assert.equal(paymentIntentOutcome({ id: "pi_1", status: "requires_payment_method", last_payment_error: { code: "payment_method_provider_decline" } }).kind, "declined");
  assert.equal(paymentIntentOutcome({ object: "garbage" }).kind, "unavailable");
});

test("PaymentIntent and Checkout Session statuses map to ours; a dispute and a full refund are seen on the charge", () => {
  assert.equal(paymentIntentStatus({ status: "requires_action" }), "pending");
  assert.equal(paymentIntentStatus({ status: "processing" }), "pending");
  assert.equal(paymentIntentStatus({ status: "succeeded", latest_charge: "ch_1" }), "paid");
  assert.equal(paymentIntentStatus({ status: "succeeded", latest_charge: { refunded: true } }), "refunded");
  assert.equal(paymentIntentStatus({ status: "succeeded", latest_charge: { refunded: false, disputed: true } }, [{ status: "needs_response" }]), "chargeback");
  assert.equal(paymentIntentStatus({ status: "requires_payment_method", last_payment_error: { code: "payment_intent_payment_attempt_expired" } }), "expired");
  assert.equal(paymentIntentStatus({ status: "requires_payment_method", last_payment_error: { code: "card_declined" } }), "failed");
  assert.equal(paymentIntentStatus({ status: "requires_payment_method", last_payment_error: null }), "pending");
  assert.equal(paymentIntentStatus({ status: "canceled" }), "failed");
  assert.equal(paymentIntentStatus({ status: "something_new" }), null);
  assert.equal(checkoutSessionStatus({ status: "open", payment_intent: null }), "pending");
  assert.equal(checkoutSessionStatus({ status: "expired", payment_intent: null }), "expired");
  assert.equal(checkoutSessionStatus({ status: "complete", payment_status: "unpaid", payment_intent: { status: "processing" } }), "pending");
  assert.equal(checkoutSessionStatus({ status: "complete", payment_status: "paid", payment_intent: { status: "succeeded", latest_charge: { refunded: false } } }), "paid");
  // A declined card on the hosted page leaves the session open for another card.
  assert.equal(checkoutSessionStatus({ status: "open", payment_intent: { status: "requires_payment_method", last_payment_error: { code: "card_declined" } } }), "pending");
  assert.equal(checkoutSessionStatus({ status: "complete", payment_status: "unpaid", payment_intent: { status: "requires_payment_method", last_payment_error: { code: "payment_method_provider_decline" } } }), "failed");
});

test("errors: a card decline carries decline_code, else code; no answer, 5xx, 401 and 429 are unknown", () => {
  const card = new Stripe.errors.StripeCardError({ type: "card_error", code: "card_declined", decline_code: "insufficient_funds", message: "Your card has insufficient funds.", statusCode: 402 } as any);
  assert.deepEqual(chargeFailure(card), { kind: "declined", reason: "insufficient_funds", message: "Your card has insufficient funds." });
  const invalid = new Stripe.errors.StripeInvalidRequestError({ type: "invalid_request_error", code: "amount_too_small", message: "Amount must be at least…", statusCode: 400 } as any);
  assert.equal((chargeFailure(invalid) as any).reason, "amount_too_small");
  assert.deepEqual(chargeFailure(new Stripe.errors.StripeAPIError({ message: "x", statusCode: 503 } as any)), { kind: "unavailable", reason: "http_503" });
  assert.deepEqual(chargeFailure(new Stripe.errors.StripeConnectionError({ message: "Request aborted due to timeout being reached (1500ms)" } as any)), { kind: "unavailable", reason: "timeout" });
  assert.deepEqual(chargeFailure(new Stripe.errors.StripeAuthenticationError({ message: "Invalid API Key provided: sk_test_****", statusCode: 401 } as any)), { kind: "unavailable", reason: "credentials_refused" });
  assert.deepEqual(chargeFailure(new Stripe.errors.StripeRateLimitError({ message: "slow", statusCode: 429 } as any)), { kind: "unavailable", reason: "rate_limited" });
  assert.equal(isMissing(new Stripe.errors.StripeInvalidRequestError({ code: "resource_missing", statusCode: 404, message: "No such" } as any)), true);
});

test("refund statuses: succeeded, failed/canceled, pending", () => {
  assert.deepEqual(refundStatusOf({ status: "succeeded" }), { kind: "refunded" });
  assert.deepEqual(refundStatusOf({ status: "failed", failure_reason: "expired_or_canceled_card" }), { kind: "rejected", reason: "expired_or_canceled_card" });
  assert.deepEqual(refundStatusOf({ status: "pending" }), { kind: "processing" });
  assert.equal(refundStatusOf(undefined).kind, "unknown");
});

test("search queries quote our reference safely", () => {
  assert.equal(referenceQuery("tx_abc"), "metadata['reference']:'tx_abc'");
  assert.equal(referenceQuery("a'b"), "metadata['reference']:'a\\'b'");
});

test("notices: verified by the library's own test header; a wrong secret is invalid, an old timestamp stale, none missing", () => {
  const stripe = new Stripe("sk_test_x");
  const secret = "whsec_test_secret_123";
  const payload = JSON.stringify({ id: "evt_1", object: "event", type: "payment_intent.succeeded", data: { object: { id: "pi_1", object: "payment_intent" } } });
  const now = new Date();
  const at = Math.floor(now.getTime() / 1000);
  const read = (header: string | null, body = payload) => readStripeNotice({ rawBody: body, headers: new Headers(header ? { "stripe-signature": header } : {}), url: new URL("http://x/"), now }, secret);
  assert.deepEqual(read(stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: at })), { kind: "verified", noticeId: "evt_1", subjects: [{ kind: "charge", providerRef: "pi_1" }] });
  assert.deepEqual(read(stripe.webhooks.generateTestHeaderString({ payload, secret: "whsec_other", timestamp: at })), { kind: "refused", check: "invalid" });
  assert.deepEqual(read(stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: at - 301 })), { kind: "refused", check: "stale" });
  // An old timestamp with a wrong signature is not "stale": nothing of it is trusted.
  assert.deepEqual(read(stripe.webhooks.generateTestHeaderString({ payload, secret: "whsec_other", timestamp: at - 301 })), { kind: "refused", check: "invalid" });
  assert.deepEqual(read(stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: at })!, payload + " "), { kind: "refused", check: "invalid" });
  assert.deepEqual(read(null), { kind: "refused", check: "missing" });
  assert.deepEqual(readStripeNotice({ rawBody: payload, headers: new Headers({ "stripe-signature": "t=1,v1=x" }), url: new URL("http://x/"), now }, null), { kind: "refused", check: "missing" });
});

test("event subjects: charges by the id our row holds, refunds by our claim id", () => {
  assert.deepEqual(subjectsOf({ type: "checkout.session.completed", data: { object: { id: "cs_test_1" } } }), [{ kind: "charge", providerRef: "cs_test_1" }]);
  assert.deepEqual(subjectsOf({ type: "charge.dispute.created", data: { object: { id: "dp_1", payment_intent: "pi_9" } } }), [{ kind: "charge", providerRef: "pi_9" }]);
  assert.deepEqual(subjectsOf({ type: "refund.created", data: { object: { id: "re_1", metadata: { reference: "clm_1" } } } }), [{ kind: "refund", reference: "clm_1" }]);
  assert.deepEqual(subjectsOf({ type: "charge.refunded", data: { object: { id: "ch_1", refunds: { data: [{ metadata: { reference: "clm_2" } }] } } } }), [{ kind: "refund", reference: "clm_2" }]);
  assert.deepEqual(subjectsOf({ type: "charge.refunded", data: { object: { id: "ch_1" } } }), []);
  assert.deepEqual(subjectsOf({ type: "customer.created", data: { object: { id: "cus_1" } } }), []);
});

test("a won dispute (or an inquiry) does not read as a chargeback: Charge.disputed stays true, the Dispute's status decides", () => {
  const disputed = { status: "succeeded", latest_charge: { refunded: false, disputed: true } };
  for (const st of ["needs_response", "under_review", "lost"]) assert.equal(paymentIntentStatus(disputed, [{ status: st }]), "chargeback", st);
  for (const st of ["won", "warning_needs_response", "warning_under_review", "warning_closed"]) assert.equal(paymentIntentStatus(disputed, [{ status: st }]), "paid", st);
  assert.equal(paymentIntentStatus({ status: "succeeded", latest_charge: { refunded: true, disputed: true } }, [{ status: "won" }]), "refunded");
  // Disputed but its disputes unread, or a word we do not know: unknown, never a guess.
  assert.equal(paymentIntentStatus(disputed), null);
  assert.equal(paymentIntentStatus(disputed, [{ status: "something_new" }]), null);
  assert.equal(disputeOutcome([{ status: "won" }, { status: "lost" }]), "chargeback");
  assert.equal(checkoutSessionStatus({ status: "complete", payment_status: "paid", payment_intent: disputed }, [{ status: "won" }]), "paid");
});

test("notices: a signed timestamp too far in the future is stale too (the library checks only the past)", () => {
  const stripe = new Stripe("sk_test_x");
  const secret = "whsec_test_secret_123";
  const payload = JSON.stringify({ id: "evt_1", object: "event", type: "payment_intent.succeeded", data: { object: { id: "pi_1", object: "payment_intent" } } });
  const now = new Date();
  const at = Math.floor(now.getTime() / 1000);
  const read = (timestamp: number) => readStripeNotice({ rawBody: payload, headers: new Headers({ "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp }) }), url: new URL("http://x/"), now }, secret);
  assert.deepEqual(read(at + 3600), { kind: "refused", check: "stale" });
  assert.deepEqual(read(at + 301), { kind: "refused", check: "stale" });
  assert.equal(read(at + 60).kind, "verified", "a clock a minute ahead is within the tolerance");
});

test("meses sin intereses: an MXN card session in installments enables them, nothing else does", () => {
  const inst = (count: number) => ({ count, totalMinor: 12345n, paidBy: "merchant" as const });
  const mx = checkoutSessionParams(req("1007", { currency: "MXN", installments: inst(6) }), "card");
  assert.deepEqual(mx.payment_method_options, { card: { installments: { enabled: true } } });
  assert.equal(installmentsOptions(req("1007", { currency: "MXN", installments: inst(1) }), "card").payment_method_options, undefined);
  assert.equal(installmentsOptions(req("1007", { currency: "MXN" }), "card").payment_method_options, undefined);
  assert.equal(installmentsOptions(req("1006", { currency: "BRL", installments: inst(6) }), "card").payment_method_options, undefined);
  assert.equal(installmentsOptions(req("1007", { currency: "MXN", installments: inst(6) }), "boleto").payment_method_options, undefined);
  assert.equal("payment_method_options" in checkoutSessionParams(req("1007", { currency: "MXN" }), "card"), false);
});

test("the plan the buyer chose, from the charge's payment_method_details.card.installments.plan", () => {
  const charge = (installments: unknown) => ({ id: "ch_1", object: "charge", payment_method_details: { type: "card", card: { brand: "visa", installments } } });
  assert.equal(installmentsChosen(charge({ plan: { count: 6, interval: "month", type: "fixed_count" } })), 6);
  assert.equal(installmentsChosen(charge({ plan: { count: 3, interval: "month", type: "fixed_count" } })), 3);
  // Paid at once on the hosted page: no installments, or no plan.
  assert.equal(installmentsChosen(charge(null)), 1);
  assert.equal(installmentsChosen(charge({ plan: null })), 1);
  // Not a fixed count of monthly payments: booked as paid at once.
  assert.equal(installmentsChosen(charge({ plan: { count: null, interval: null, type: "revolving" } })), 1);
  // Nothing readable: what we asked stands.
  assert.equal(installmentsChosen(charge({ plan: { count: null, interval: null, type: "fixed_count" } })), undefined);
  assert.equal(installmentsChosen("ch_1"), undefined);
  assert.equal(installmentsChosen(null), undefined);
  assert.equal(installmentsChosen({ id: "ch_1", payment_method_details: { type: "pix", pix: {} } }), undefined);
});
