// The Stripe simulator keeps Stripe's promises the connector relies on: Bearer keys, form bodies in
// bracket notation, Idempotency-Key (same key and body: the first answer again; same key, other
// body: 400 idempotency_error), and the connector's checkCredentials against it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startStripeSimulator } from "./simulator.ts";
import { parseForm } from "./form.ts";
import { StripeConnector } from "../../../lib/providers/stripe/connector.ts";
import type { ProviderConfig } from "../../../lib/providers/registry.ts";

const SECRET = "sk_test_simulator_unit_1";
let sim: { url: string; stop: () => Promise<void> };
before(async () => {
  sim = await startStripeSimulator({ secret: SECRET, noticeSecret: "whsec_simulator_unit_1", noticeUrl: "http://127.0.0.1:9/" });
});
after(() => sim.stop());

const cfg = (over: Partial<ProviderConfig> = {}): ProviderConfig => ({ code: "stripe", kind: "real", baseUrl: sim.url, secret: SECRET, noticeSecret: null, timeoutMs: 1500, rails: null, ...over });
const form = "amount=5000&currency=mxn&confirm=true&payment_method_types[0]=oxxo&payment_method_data[type]=oxxo&payment_method_data[billing_details][name]=Ana&payment_method_data[billing_details][email]=ana%40example.com&metadata[reference]=tx_sim_1";
const post = (body: string, headers: Record<string, string> = {}) => fetch(`${sim.url}/v1/payment_intents`, { method: "POST", headers: { authorization: `Bearer ${SECRET}`, "content-type": "application/x-www-form-urlencoded", ...headers }, body });

test("bracket notation parses to the nested object it encodes", () => {
  assert.deepEqual(parseForm("a[b][0]=x&a[b][1]=y&c[]=1&c[]=2&d=3"), { a: { b: ["x", "y"] }, c: ["1", "2"], d: "3" });
});

test("no key or a wrong key: 401 with Stripe's error body", async () => {
  const none = await fetch(`${sim.url}/v1/balance`);
  assert.equal(none.status, 401);
  assert.equal((await none.json()).error.type, "invalid_request_error");
  assert.equal((await fetch(`${sim.url}/v1/balance`, { headers: { authorization: "Bearer sk_test_wrong" } })).status, 401);
});

test("Idempotency-Key: the same request answers the same object; other parameters under the key are refused", async () => {
  const first = await (await post(form, { "idempotency-key": "tx_sim_1" })).json();
  assert.match(first.id, /^pi_/);
  assert.equal(first.next_action.type, "oxxo_display_details");
  const again = await post(form, { "idempotency-key": "tx_sim_1" });
  assert.equal(again.headers.get("idempotent-replayed"), "true");
  assert.equal((await again.json()).id, first.id);
  const other = await post(form.replace("amount=5000", "amount=5001"), { "idempotency-key": "tx_sim_1" });
  assert.equal(other.status, 400);
  assert.equal((await other.json()).error.type, "idempotency_error");
  // Without a key, a second request is a second PaymentIntent.
  assert.notEqual((await (await post(form)).json()).id, (await (await post(form)).json()).id);
});

test("checkCredentials: ok with the key, credentials_refused without it, unreachable with nobody listening", async () => {
  assert.deepEqual(await new StripeConnector(cfg()).checkCredentials(), { kind: "ok" });
  assert.deepEqual(await new StripeConnector(cfg({ secret: "sk_test_not_the_key" })).checkCredentials(), { kind: "credentials_refused", detail: "credentials_refused" });
  assert.equal((await new StripeConnector(cfg({ baseUrl: "http://127.0.0.1:9" })).checkCredentials()).kind, "unreachable");
});

test("payouts and CLABEs are not Stripe's here: refused as unsupported, never attempted", async () => {
  const c = new StripeConnector(cfg());
  assert.deepEqual(await c.payout({} as never), { kind: "refused", reason: "unsupported_by_provider" });
  assert.deepEqual(await c.provisionClabe(), { kind: "refused", reason: "unsupported_by_provider" });
  assert.deepEqual(await c.payoutStatus(), { kind: "not_found" });
});

test("meses sin intereses: a session with installments enabled takes the buyer's plan, which its charge carries", async () => {
  const c = new StripeConnector(cfg());
  const session = (over: string) => fetch(`${sim.url}/v1/checkout/sessions`, { method: "POST", headers: { authorization: `Bearer ${SECRET}`, "content-type": "application/x-www-form-urlencoded" }, body: `mode=payment&payment_method_types[0]=card&line_items[0][quantity]=1&line_items[0][price_data][currency]=mxn&line_items[0][price_data][unit_amount]=300000&line_items[0][price_data][product_data][name]=x&success_url=http%3A%2F%2Fx%2F&client_reference_id=tx_msi&payment_intent_data[metadata][reference]=tx_msi&payment_intent_data[metadata][via]=checkout_session${over}` }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
  const pay = (id: string, body: unknown) => fetch(`${sim.url}/_control/charges/${id}/pay`, { method: "POST", body: JSON.stringify(body) });
  assert.equal((await session("&payment_method_options[card][installments][enabled]=yes")).status, 400);
  const plain = (await session("")).body;
  assert.equal((await pay(plain.id, { installments: 6 })).status, 400, "no plan without installments enabled");
  const msi = (await session("&payment_method_options[card][installments][enabled]=true")).body;
  assert.deepEqual(msi.payment_method_options, { card: { installments: { enabled: true } } });
  assert.equal((await pay(msi.id, { installments: 5 })).status, 400, "5 months is not a plan the page offers");
  assert.equal((await pay(msi.id, { installments: 9 })).status, 200);
  const read = await c.readCharge(msi.id);
  assert.equal(read.kind === "found" && read.installmentsCount, 9);
  const pi = await (await fetch(`${sim.url}/v1/checkout/sessions/${msi.id}?expand[]=payment_intent.latest_charge`, { headers: { authorization: `Bearer ${SECRET}` } })).json();
  assert.deepEqual(pi.payment_intent.latest_charge.payment_method_details.card.installments, { plan: { count: 9, interval: "month", type: "fixed_count" } });
  assert.deepEqual(pi.payment_intent.payment_method_options.card.installments.plan, { count: 9, interval: "month", type: "fixed_count" });
  // Paid at once on the page: the charge has no installments, read as a count of 1.
  const once = (await session("&payment_method_options[card][installments][enabled]=true")).body;
  assert.equal((await pay(once.id, {})).status, 200);
  const readOnce = await c.readCharge(once.id);
  assert.equal(readOnce.kind === "found" && readOnce.installmentsCount, 1);
});
