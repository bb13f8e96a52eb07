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
