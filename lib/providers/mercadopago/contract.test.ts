// The Mercado Pago simulator (scripts/psp/mercadopago/) against MP's published examples
// (./fixtures/): every field of a documented answer is in the simulator's answer to the same
// call, so a connector tested against the simulator reads what MP sends. And the connector
// against the simulator over loopback HTTP: the calls it makes and how it reads them.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startMercadoPagoSimulator } from "../../../scripts/psp/mercadopago/simulator.ts";
import { MercadoPagoConnector } from "@/lib/providers/mercadopago/connector";
import { railById } from "@/lib/rails/rails";
import { assertCarries } from "@/lib/providers/mercadopago/fixtures";

const SECRET = "TEST-1234567890123456-120203-contract";
let sim: { url: string; stop: () => Promise<void> };
let mp: MercadoPagoConnector;
before(async () => {
  sim = await startMercadoPagoSimulator({ secret: SECRET, noticeSecret: "webhook-secret-signature-0123456789", noticeUrl: "http://127.0.0.1:9/unused" });
  mp = new MercadoPagoConnector({ code: "mercadopago", kind: "real", baseUrl: sim.url, secret: SECRET, noticeSecret: "webhook-secret-signature-0123456789", timeoutMs: 2000, rails: null });
});
after(() => sim.stop());

const call = async (method: string, path: string, body?: unknown, key = `k-${Math.random()}`) => {
  const r = await fetch(`${sim.url}${path}`, { method, headers: { authorization: `Bearer ${SECRET}`, "content-type": "application/json", "x-idempotency-key": key }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: r.status, body: (await r.json()) as any };
};
const payer = { email: "maria@example.com", first_name: "Maria", last_name: "Silva", identification: { type: "CPF", number: "19119119100" } };

test("the simulator's answers carry every field of MP's documented answers", async () => {
  const pix = await call("POST", "/v1/payments", { transaction_amount: 100, description: "x", payment_method_id: "pix", external_reference: "tx_1", payer });
  assert.equal(pix.status, 201);
  assertCarries(pix.body, "payments-create.pix.response");
  const boleto = await call("POST", "/v1/payments", { transaction_amount: 100, description: "x", payment_method_id: "bolbradesco", payer });
  assertCarries(boleto.body, "payments-create.boleto.response");
  const spei = await call("POST", "/v1/payments", { transaction_amount: 5000, description: "x", payment_method_id: "clabe", payer: { email: "j@example.com", entity_type: "individual" } });
  assertCarries(spei.body, "payments-create.spei.response");
  assertCarries((await call("GET", `/v1/payments/${pix.body.id}`)).body, "payments-get.response");
  assertCarries((await call("GET", "/v1/payments/search?external_reference=tx_1")).body, "payments-search.response");
  const pref = await call("POST", "/checkout/preferences", { items: [{ title: "Dummy Item", description: "Multicolor Item", quantity: 1, currency_id: "BRL", unit_price: 10.0 }] });
  assertCarries(pref.body, "preferences-create.response");
  await fetch(`${sim.url}/_control/payments/${pix.body.id}/approve`, { method: "POST", body: JSON.stringify({ notify: false }) });
  const refund = await call("POST", `/v1/payments/${pix.body.id}/refunds`, { amount: 10.5 });
  assert.equal(refund.status, 201);
  assertCarries(refund.body, "refunds-create.response");
});

test("MP's wire rules in the simulator: Bearer token, X-Idempotency-Key, MP's error shape", async () => {
  const r = await fetch(`${sim.url}/v1/payments/1`, { headers: { authorization: "Bearer TEST-wrong" } });
  assert.equal(r.status, 401);
  assert.deepEqual(Object.keys((await r.json()) as object).sort(), ["cause", "error", "message", "status"]);
  const noKey = await fetch(`${sim.url}/v1/payments`, { method: "POST", headers: { authorization: `Bearer ${SECRET}` }, body: JSON.stringify({ transaction_amount: 1, payment_method_id: "pix", payer }) });
  assert.equal(noKey.status, 400);
  const once = await call("POST", "/v1/payments", { transaction_amount: 1, payment_method_id: "pix", payer }, "same-key");
  const twice = await call("POST", "/v1/payments", { transaction_amount: 1, payment_method_id: "pix", payer }, "same-key");
  assert.equal(twice.body.id, once.body.id, "the same key: the same payment");
});

test("the connector over HTTP: a charge on each rail, its read-back and lookup by our reference, credentials", async () => {
  assert.deepEqual(await mp.checkCredentials(), { kind: "ok" });
  const refused = new MercadoPagoConnector({ code: "mercadopago", kind: "real", baseUrl: sim.url, secret: "TEST-not-this-one", noticeSecret: null, timeoutMs: 2000, rails: null });
  assert.deepEqual(await refused.checkCredentials(), { kind: "credentials_refused", detail: "http_401" });
  const req = (id: string) => ({ transactionId: `tx_c_${id}`, rail: railById(id)!, amountLocalMinor: 12_550n, currency: railById(id)!.currency, buyer: { name: "Maria Silva", email: "m@example.com", documentId: "19119119100" }, notifyUrl: "http://127.0.0.1:9/api/v1/providers/{provider}/notifications" });
  for (const id of ["1001", "1002", "1003", "1004"]) {
    const out = await mp.createCharge(req(id));
    assert.equal(out.kind, "accepted", id);
    const back = await mp.readCharge((out as any).providerRef);
    assert.deepEqual(back, { kind: "found", providerRef: (out as any).providerRef, reference: `tx_c_${id}`, status: "pending", amountMinor: 12_550n, currency: railById(id)!.currency });
    assert.deepEqual(await mp.chargeByReference(`tx_c_${id}`), { kind: "found", providerRef: (out as any).providerRef, status: "pending" });
  }
  const card = await mp.createCharge(req("1006"));
  assert.equal(card.kind, "accepted");
  assert.equal(await mp.getStatus((card as any).providerRef), "pending", "a preference nobody has paid");
  assert.deepEqual(await mp.chargeByReference("tx_never_sent"), { kind: "not_found" });
  assert.deepEqual(await mp.provisionClabe(), { kind: "refused", reason: "unsupported_by_provider" });
  assert.deepEqual(await mp.payout(), { kind: "refused", reason: "unsupported_by_provider" });
});
