// Every feature tryable on a merchant's first day in the sandbox (issue 24, point 3), over real
// HTTP: "settle now" moves pending funds to available through the daily job's recipe (the same
// ledger postings, a second press changes nothing, production refuses), so a settlement batch
// closes the same day; the owner's sandbox QR registration charges in the sandbox only (in
// production the error names the operator command, and the operator's registration counts in
// both).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { API_URL, api, assertEnvelope, newMerchant } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { registerEstablishment, registerSandboxEstablishment } from "@/lib/qr/establishments";

after(() => db().$disconnect());

const TRON = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const customer = { firstName: "Ana", lastName: "Souza", email: "ana@example.com", phone: "+55 11 98765-4321" };

test("settle now: completed payments' pending net becomes available through the settlement recipe; once; then a batch closes today", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  assert.equal((await api("/me/settlement-destination", { key, method: "PUT", body: { asset: "USDT", network: "TRON", address: TRON } })).status, 200);
  const paid: string[] = [];
  for (const amount of [60, 45]) {
    const p = await api("/payments", { key, body: { amount, paymentMethodId: "sbx_card" } });
    assert.equal(p.status, 200, p.text);
    assert.equal((await api(`/payments/${p.body.transactionId}/simulate`, { key, body: { action: "paid" } })).status, 200);
    paid.push(p.body.transactionId);
  }
  const open = (await api("/payments", { key, body: { amount: 10, paymentMethodId: "sbx_card" } })).body.transactionId as string;

  const before = (await api("/me/balance", { key })).body.balance;
  assert.ok(before.pending > 0 && before.available === 0, JSON.stringify(before));

  const res = await api("/me/balance/settle-now", { key, body: {} });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.settled, 2);
  assert.equal(res.body.balance.balance.pending, 0);
  assert.equal(res.body.balance.balance.available, before.pending);
  assert.equal(res.body.balance.balance.reserve, before.reserve, "the reserve stays held");
  assert.deepEqual(res.body.balance.ledgerWarnings, []);

  // The daily job's recipe: one `settlement` posting per payment, the payment marked settled.
  const txs = await db().transaction.findMany({ where: { id: { in: [...paid, open] } }, select: { id: true, settlementStatus: true } });
  assert.deepEqual(Object.fromEntries(txs.map((t) => [t.id, t.settlementStatus])), { [paid[0]!]: "settled", [paid[1]!]: "settled", [open]: "pending" });
  assert.equal(await db().ledgerPosting.count({ where: { transactionId: { in: paid }, kind: "settlement" } }), 2);

  const again = await api("/me/balance/settle-now", { key, body: {} });
  assert.equal(again.status, 200);
  assert.equal(again.body.settled, 0);
  assert.equal(again.body.balance.balance.available, before.pending);

  // Day one: a settlement batch closes with what settle now made available.
  const run = await api("/settlements/run", { key, body: {} });
  assert.equal(run.status, 200, run.text);
  assert.equal(run.body.settlement?.grossUsd, before.pending);

  // Production refuses with the documented code, before anything moves.
  assertEnvelope(await api("/me/balance/settle-now", { key: m.production.secretKey, body: {} }), "production_key_refused", 400);
  assertEnvelope(await api("/me/balance/settle-now", { key: m.sandbox.publishableKey, body: {} }), "key_kind_not_allowed", 403);
});

test("settle now belongs to the key's merchant: another merchant's pending funds stay pending", async () => {
  const a = await newMerchant();
  const b = await newMerchant();
  const p = await api("/payments", { key: b.sandbox.secretKey, body: { amount: 30, paymentMethodId: "sbx_card" } });
  assert.equal((await api(`/payments/${p.body.transactionId}/simulate`, { key: b.sandbox.secretKey, body: { action: "paid" } })).status, 200);
  assert.equal((await api("/me/balance/settle-now", { key: a.sandbox.secretKey, body: {} })).body.settled, 0);
  assert.equal((await db().transaction.findUniqueOrThrow({ where: { id: p.body.transactionId } })).settlementStatus, "pending");
});

test("QR: the owner's sandbox registration charges in the sandbox only; production names the operator command; the operator's counts in both", async () => {
  const m = await newMerchant();
  const sandbox = m.sandbox.secretKey;
  const live = m.production.secretKey;
  const none = await api("/qr/establishment", { key: live });
  assertEnvelope(none, "qr_establishment_not_found", 404);
  assert.match(none.body.error.message, new RegExp(`npm run qr:register -- --shop ${m.shopId}`));
  assert.doesNotMatch(none.body.error.message, /Ask support/);

  const shop = await db().shop.findUniqueOrThrow({ where: { id: m.shopId }, select: { id: true, name: true, status: true } });
  await registerSandboxEstablishment({ merchant: { id: m.merchantId } as never, shop }, { name: "Padaria Sol", city: "Sao Paulo", mcc: "5812" });
  assert.equal((await api("/qr/establishment", { key: sandbox })).status, 200);
  const order = await api("/qr/orders", { key: sandbox, body: { amount: 12.5, merchantOrderId: "mesa-1" } });
  assert.equal(order.status, 201, order.text);
  assertEnvelope(await api("/qr/establishment", { key: live }), "qr_establishment_not_found", 404);
  assertEnvelope(await api("/qr/orders", { key: live, body: { amount: 12.5, merchantOrderId: "mesa-2" } }), "qr_establishment_not_found", 404);

  await registerEstablishment({ shopId: m.shopId, name: "Padaria Sol", city: "Sao Paulo", mcc: "5812" });
  assert.equal((await api("/qr/establishment", { key: live })).status, 200);
  // A later sandbox registration does not take production away again.
  await registerSandboxEstablishment({ merchant: { id: m.merchantId } as never, shop }, { name: "Padaria Sol II", city: "Sao Paulo", mcc: "5812" });
  assert.equal((await api("/qr/establishment", { key: live })).status, 200);
});

test("buyer pages carry a favicon, served as an image; the sandbox selector keeps to its test rails", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const s = await api("/checkout/sessions", { key, body: { amount: 150, currency: "BRL", country: "BR", customer } });
  assert.equal(s.status, 200, s.text);
  const page = await (await fetch(`${API_URL}/checkout/${s.body.sessionId}?locale=pt-BR`)).text();
  const icon = page.match(/<link rel="icon" href="([^"]+)"/);
  assert.ok(icon, "a favicon link");
  const svg = await fetch(new URL(icon[1]!, API_URL));
  assert.equal(svg.status, 200);
  assert.match(svg.headers.get("content-type") ?? "", /image\/svg\+xml/);
  // Brazil's sandbox has one test rail (PIX) today; sandbox boleto and card rails are still to come.
  assert.doesNotMatch(page, /value="100[0-9]"/);
});
