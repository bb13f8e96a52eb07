// Contract checks against Stripe's own published OpenAPI document (github:stripe/openapi, the
// subset pinned in ./openapi/spec3.subset.json with its tag): every request our transformers
// build is a request the reference accepts (no field it lacks), and every answer our simulator
// gives has what the reference requires, in its status words.
//
// The pin is stripe/openapi v127 (API version 2020-08-27), the newest spec3.json this build
// environment could obtain whole; PIX came to Stripe later, so its two words (the payment method
// type `pix` and next_action.pix_display_qr_code) are checked against the `stripe` library's
// own types instead, which are generated from the current document (node_modules/stripe/OPENAPI_VERSION).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { readFileSync } from "node:fs";
import Stripe from "stripe";
import { checkoutSessionParams, paymentIntentParams, refundParams, referenceQuery } from "@/lib/providers/stripe/transformers";
import { pinned, queryFindings, requestFindings, responseFindings } from "@/lib/providers/stripe/openapi/validate";
import type { ChargeRequest } from "@/lib/providers/types";
import { startStripeSimulator } from "../../../scripts/psp/stripe/simulator.ts";
import * as objects from "../../../scripts/psp/stripe/objects.ts";

const req = (rail: string, currency = "BRL"): ChargeRequest => ({ transactionId: "tx_contract", rail: { paymentMethodId: rail } as ChargeRequest["rail"], amountLocalMinor: 5000n, currency, buyer: { name: "Ana Souza", email: "ana@example.com", phone: "+5511999999999" }, notifyUrl: "https://pay.example.com/api/v1/providers/{provider}/notifications" });
const stripeTypes = (file: string) => readFileSync(new URL(`../../../node_modules/stripe/cjs/resources/${file}`, import.meta.url), "utf8");

test("the pin names where it comes from", () => {
  assert.equal(pinned.info["x-pinned-from"].repository, "github:stripe/openapi");
  assert.match(pinned.info["x-pinned-from"].tag, /^v\d+$/);
  assert.equal(pinned.info.version, "2020-08-27");
});

test("OXXO PaymentIntent, card and boleto Checkout Sessions and refunds: every parameter is in the reference", () => {
  assert.deepEqual(requestFindings("/v1/payment_intents", paymentIntentParams(req("1004", "MXN"), "oxxo")), []);
  assert.deepEqual(requestFindings("/v1/checkout/sessions", checkoutSessionParams(req("1006"), "card")), []);
  assert.deepEqual(requestFindings("/v1/checkout/sessions", checkoutSessionParams(req("1002"), "boleto")), []);
  assert.deepEqual(requestFindings("/v1/refunds", refundParams("pi_1", 100n, "clm_1")), []);
});

test("a field the reference does not have fails, top-level or nested, and so does a word outside an enum", () => {
  const oxxo = paymentIntentParams(req("1004", "MXN"), "oxxo");
  assert.deepEqual(requestFindings("/v1/payment_intents", { ...oxxo, reference: "tx_contract" }), ["body.reference: not a parameter of the reference"]);
  assert.deepEqual(requestFindings("/v1/payment_intents", { ...oxxo, payment_method_data: { ...oxxo.payment_method_data, billing_details: { ...oxxo.payment_method_data.billing_details, document: "123" } } }), ["body.payment_method_data.billing_details.document: not a parameter of the reference"]);
  const card = checkoutSessionParams(req("1006"), "card");
  assert.equal(requestFindings("/v1/checkout/sessions", { ...card, mode: "charge" }).length, 1);
  assert.deepEqual(requestFindings("/v1/refunds", { ...refundParams("pi_1", 100n, "clm_1"), claim: "clm_1" }), ["body.claim: not a parameter of the reference"]);
});

test("PIX: the same PaymentIntent shape; its type word postdates the pin and is in the library's generated types", () => {
  const findings = requestFindings("/v1/payment_intents", paymentIntentParams(req("1001"), "pix"));
  assert.equal(findings.length, 1);
  assert.match(findings[0]!, /^body\.payment_method_data\.type: "pix" is not one of /);
  assert.match(stripeTypes("PaymentIntents.d.ts"), /'pix'/);
  const pixAction = /interface PixDisplayQrCode \{([\s\S]*?)\n {8}\}/.exec(stripeTypes("PaymentIntents.d.ts"))?.[1] ?? "";
  for (const field of ["data?: string", "hosted_instructions_url?: string", "expires_at?: number"]) assert.ok(pixAction.includes(field), field);
});

test("meses sin intereses: the session's installment switch postdates the pin and is in the library's generated types, as is the plan on the charge", () => {
  const msi: ChargeRequest = { ...req("1007", "MXN"), installments: { count: 6, totalMinor: 5000n, paidBy: "merchant" } };
  // v127 names no `card` options on a session; everything else of the request is the pin's.
  assert.deepEqual(requestFindings("/v1/checkout/sessions", checkoutSessionParams(msi, "card")), ["body.payment_method_options.card: not a parameter of the reference"]);
  const sessions = stripeTypes("Checkout/Sessions.d.ts");
  const create = /interface SessionCreateParams \{[\s\S]*?\n {4}\}\n {4}namespace SessionCreateParams \{([\s\S]*)/.exec(sessions)?.[1] ?? "";
  assert.match(create, /interface Card \{[\s\S]*?installments\?: Card\.Installments;/);
  assert.match(create, /interface Installments \{\s*\/\*\*[\s\S]*?Setting to true enables installments for this Checkout Session\.[\s\S]*?\*\/\s*enabled\?: boolean;/);
  const charges = stripeTypes("Charges.d.ts");
  assert.match(charges, /installments: Card\.Installments \| null;/);
  assert.match(charges, /interface Installments \{\s*\/\*\*\s*\* Installment plan selected for the payment\.\s*\*\/\s*plan: Installments\.Plan \| null;/);
  const plan = /namespace Installments \{\s*interface Plan \{([\s\S]*?)\n {16}\}/.exec(charges)?.[1] ?? "";
  for (const field of ["count: number | null;", "interval: 'month' | null;", "type: Plan.Type;"]) assert.ok(plan.includes(field), field);
  assert.match(charges, /type Type = 'bonus' \| 'fixed_count' \| 'revolving'/);
});

test("the lookups' query parameters are the list and search endpoints' own", () => {
  assert.deepEqual(queryFindings("/v1/payment_intents/search", { query: referenceQuery("tx_1"), limit: 10 }), []);
  assert.deepEqual(queryFindings("/v1/payment_intents", { created: { gte: 1700000000 }, limit: 100, starting_after: "pi_1" }), []);
  // Sessions' `created` filter came after the pin: the pin lacks it, the library's generated types have it.
  assert.deepEqual(queryFindings("/v1/checkout/sessions", { created: { gte: 1700000000 }, limit: 100 }), ["query.created: not a parameter of the reference"]);
  assert.match(/interface SessionListParams extends PaginationParams \{[\s\S]*?\n {4}\}/.exec(stripeTypes("Checkout/Sessions.d.ts"))?.[0] ?? "", /created\?: RangeQueryParam \| number;/);
  assert.deepEqual(queryFindings("/v1/checkout/sessions", { payment_intent: "pi_1", limit: 1 }), []);
  assert.deepEqual(queryFindings("/v1/refunds", { limit: 100, starting_after: "re_1" }), []);
  assert.deepEqual(queryFindings("/v1/payment_intents/{intent}", { expand: ["latest_charge"] }), []);
  assert.deepEqual(queryFindings("/v1/refunds", { reference: "clm_1" }), ["query.reference: not a parameter of the reference"]);
});

// The simulator, started here and called through the `stripe` library as the connector calls it.
let sim: { url: string; stop: () => Promise<void> };
let hook: http.Server;
const events: any[] = [];
let stripe: Stripe;
before(async () => {
  hook = http.createServer((r, res) => {
    let b = "";
    r.on("data", (c) => (b += c)).on("end", () => (events.push(JSON.parse(b)), res.end("{}")));
  });
  await new Promise<void>((ok) => hook.listen(0, "127.0.0.1", () => ok()));
  sim = await startStripeSimulator({ secret: "sk_test_contract123", noticeSecret: "whsec_contract123", noticeUrl: `http://127.0.0.1:${(hook.address() as { port: number }).port}/` });
  const u = new URL(sim.url);
  stripe = new Stripe("sk_test_contract123", { host: u.hostname, port: u.port, protocol: "http", maxNetworkRetries: 0 });
});
after(async () => {
  await sim.stop();
  hook.close();
});

const control = (path: string, body: unknown = {}) => fetch(`${sim.url}/_control${path}`, { method: "POST", body: JSON.stringify(body) }).then((r) => r.json());

test("the simulator's PaymentIntents, Checkout Sessions, refunds, lists, balance and events conform to the reference", async () => {
  const oxxo = await stripe.paymentIntents.create(paymentIntentParams(req("1004", "MXN"), "oxxo") as Stripe.PaymentIntentCreateParams, { idempotencyKey: "tx_c1" });
  assert.deepEqual(responseFindings({ path: "/v1/payment_intents", method: "post" }, oxxo), []);
  assert.equal(oxxo.status, "requires_action");
  const pix = await stripe.paymentIntents.create(paymentIntentParams(req("1001"), "pix") as Stripe.PaymentIntentCreateParams, { idempotencyKey: "tx_c2" });
  assert.deepEqual(responseFindings({ path: "/v1/payment_intents", method: "post" }, pix), []);
  const cs = await stripe.checkout.sessions.create(checkoutSessionParams(req("1006"), "card") as Stripe.Checkout.SessionCreateParams, { idempotencyKey: "tx_c3" });
  assert.deepEqual(responseFindings({ path: "/v1/checkout/sessions", method: "post" }, cs), []);
  await control(`/charges/${pix.id}/pay`);
  await control(`/charges/${cs.id}/pay`);
  await control(`/charges/${oxxo.id}/expire`);
  assert.deepEqual(responseFindings({ path: "/v1/payment_intents/{intent}", method: "get" }, await stripe.paymentIntents.retrieve(pix.id, { expand: ["latest_charge"] })), []);
  assert.deepEqual(responseFindings({ path: "/v1/payment_intents/{intent}", method: "get" }, await stripe.paymentIntents.retrieve(oxxo.id)), []);
  assert.deepEqual(responseFindings({ path: "/v1/checkout/sessions/{session}", method: "get" }, await stripe.checkout.sessions.retrieve(cs.id, { expand: ["payment_intent.latest_charge"] })), []);
  const refund = await stripe.refunds.create(refundParams(pix.id, 1000n, "clm_c1"), { idempotencyKey: "clm_c1" });
  assert.deepEqual(responseFindings({ path: "/v1/refunds", method: "post" }, refund), []);
  for (const [path, page] of [
    ["/v1/payment_intents", await stripe.paymentIntents.list({ limit: 100 })],
    ["/v1/checkout/sessions", await stripe.checkout.sessions.list({ limit: 100 })],
    ["/v1/refunds", await stripe.refunds.list({ limit: 100 })],
    ["/v1/payment_intents/search", await stripe.paymentIntents.search({ query: referenceQuery("tx_contract") })],
  ] as const)
    assert.deepEqual(responseFindings({ path, method: "get" }, page), [], path);
  assert.deepEqual(responseFindings({ path: "/v1/balance", method: "get" }, await stripe.balance.retrieve()), []);
  assert.ok(events.length >= 4);
  for (const ev of events) {
    assert.deepEqual(responseFindings({ schema: "event" }, ev), [], ev.type);
    const schema = { payment_intent: "payment_intent", "checkout.session": "checkout.session", refund: "refund", charge: "charge", dispute: "dispute" }[ev.data.object.object as string];
    assert.ok(schema, ev.data.object.object);
    assert.deepEqual(responseFindings({ schema }, ev.data.object), [], ev.type);
  }
});

test("the simulator's errors have the reference's error shape, and a status word outside an enum is caught", async () => {
  const unauthorized = await fetch(`${sim.url}/v1/balance`, { headers: { authorization: "Bearer sk_test_wrong" } });
  assert.equal(unauthorized.status, 401);
  assert.deepEqual(responseFindings({ schema: "error" }, await unauthorized.json()), []);
  assert.deepEqual(responseFindings({ schema: "error" }, objects.errorBody({ type: "card_error", code: "card_declined", decline_code: "insufficient_funds", message: "Declined" })), []);
  assert.equal(responseFindings({ schema: "error" }, objects.errorBody({ type: "decline_error", message: "x" })).length, 1);
  const pi = objects.paymentIntent({ amount: 1, currency: "brl", type: "pix", metadata: {}, billing: {} });
  assert.deepEqual(responseFindings({ schema: "payment_intent" }, { ...objects.wire(pi) as object, status: "paid" }).length, 1);
  const { id: _id, ...noId } = objects.wire(pi) as Record<string, unknown>;
  assert.deepEqual(responseFindings({ schema: "payment_intent" }, noId), ["answer.id: required, missing"]);
});
