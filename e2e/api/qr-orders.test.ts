// QR collection over real HTTP (decisions.md "QR collection"): orders with a dynamic PIX BR Code
// (its CRC checked by an independent CRC16-CCITT, bit by bit, its amount in field 54), the SVG and
// the page, list/get by id or token, idempotency and scoping; paid by the same completion path as
// every payment (ledger, payment.completed carrying the order id), then 409 qr_order_not_pending with
// the state; suspension (new orders refused, issued ones still complete).
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { api, assertEnvelope, newMerchant, tsx, API_URL } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { seedRates, crcCcitt, emvFields, establishment } from "./qr-fixtures.ts";

before(seedRates);
after(() => db().$disconnect());

test("an order carries a dynamic BR Code with the right CRC and amount, an SVG and a page; get by id or token; list", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  assertEnvelope(await api("/qr/establishment", { key }), "qr_establishment_not_found", 404);
  assertEnvelope(await api("/qr/orders", { key, body: { amount: 10, merchantOrderId: "a-1" } }), "qr_establishment_not_found", 404);
  // The operator registers the shop with the CLI.
  const line = tsx(["scripts/cli.ts", "qr:register", "--shop", m.shopId, "--name", "Padaria Sol", "--city", "Sao Paulo", "--mcc", "5812", "--json"], {});
  assert.equal(JSON.parse(line).status, "active");
  const est = await api("/qr/establishment", { key });
  assert.equal(est.status, 200, est.text);
  assert.deepEqual({ ...est.body.establishment, id: undefined, createdAt: undefined }, { id: undefined, createdAt: undefined, shopId: m.shopId, name: "Padaria Sol", city: "Sao Paulo", mcc: "5812", status: "active" });

  const made = await api("/qr/orders", { key, body: { amount: 25.5, merchantOrderId: "table-7", description: "2 coffees" } });
  assert.equal(made.status, 201, made.text);
  const o = made.body.order;
  assert.match(o.id, /^qro_/);
  assert.match(o.token, /^[A-Za-z0-9]{24}$/);
  assert.equal(o.status, "pending");
  assert.equal(o.rail, "pix");
  assert.equal(o.currency, "BRL");
  assert.equal(o.currencyLocal, "BRL");
  assert.equal(o.paidAt, null);
  const minutes = (Date.parse(o.expiresAt) - Date.parse(o.createdAt)) / 60_000;
  assert.equal(minutes, 15);
  // The BR Code: CRC over everything up to and including "6304", amount in 54, our txid.
  const code: string = o.qrPayload;
  assert.equal(code.slice(-4), crcCcitt(code.slice(0, -4)));
  assert.ok(code.slice(-8, -4) === "6304");
  const f = emvFields(code);
  assert.equal(f.get("00"), "01");
  assert.equal(f.get("01"), "12");
  assert.equal(f.get("53"), "986");
  assert.equal(f.get("54"), o.amountLocal.toFixed(2));
  assert.equal(f.get("52"), "5812");
  assert.equal(f.get("59"), "PADARIA SOL");
  assert.equal(f.get("60"), "SAO PAULO");
  assert.ok(f.get("62")!.includes(o.id.replace(/^qro_/, "").slice(0, 25)));
  assert.equal(o.qrImageUrl, `${o.pageUrl}/qr.svg`);
  const svg = await fetch(`${API_URL}/qr/${o.token}/qr.svg`);
  assert.equal(svg.status, 200);
  assert.match(svg.headers.get("content-type") ?? "", /^image\/svg\+xml/);
  assert.match(await svg.text(), /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.equal((await fetch(`${API_URL}/qr/${"x".repeat(24)}/qr.svg`)).status, 404);

  // The transaction behind it names the order, in GET and in the list.
  const tx = await api(`/payments/${o.transactionId}`, { key });
  assert.equal(tx.body.status, "pending");
  assert.equal(tx.body.amountLocal, o.amountLocal);
  assert.equal(tx.body.merchantOrderId, "table-7");
  assert.equal(tx.body.qrOrderId, o.id);
  assert.equal((await api("/payments?merchantOrderId=table-7", { key })).body.data[0].qrOrderId, o.id);
  // The counter page's public status.
  assert.deepEqual(await (await fetch(`${API_URL}/qr/${o.token}/status`)).json(), { status: "pending", live: true });
  assert.equal((await fetch(`${API_URL}/qr/${"x".repeat(24)}/status`)).status, 404);
  const page = await fetch(`${API_URL}/qr/${o.token}?locale=pt-BR`);
  assert.equal(page.status, 200);
  assert.ok((await page.text()).includes(o.qrPayload), "the counter page carries the copy-and-paste code");

  assert.deepEqual((await api(`/qr/orders/${o.id}`, { key })).body.order, o);
  assert.deepEqual((await api(`/qr/orders/${o.token}`, { key })).body.order, o);
  const second = await api("/qr/orders", { key, body: { amount: 3, merchantOrderId: "table-8", currency: "USD", expiresInMinutes: 60 } });
  assert.equal(second.status, 201, second.text);
  assert.equal(second.body.order.currency, "USD");
  const list = await api("/qr/orders", { key });
  assert.deepEqual(list.body.data.map((x: any) => x.id), [second.body.order.id, o.id]);
  assert.deepEqual((await api("/qr/orders?merchantOrderId=table-7", { key })).body.data.map((x: any) => x.id), [o.id]);
  assert.deepEqual((await api(`/qr/orders?limit=1&startingAfter=${second.body.order.id}`, { key })).body.data.map((x: any) => x.id), [o.id]);
  // Another merchant, and the production environment, do not see them.
  const other = await establishment();
  assertEnvelope(await api(`/qr/orders/${o.id}`, { key: other.sandbox.secretKey }), "qr_order_not_found", 404);
  assertEnvelope(await api(`/qr/orders/${o.token}`, { key: other.sandbox.secretKey }), "qr_order_not_found", 404);
  assertEnvelope(await api(`/qr/orders/${o.id}`, { key: m.production.secretKey }), "qr_order_not_found", 404);
  assert.deepEqual((await api("/qr/orders", { key: m.production.secretKey })).body.data, []);
  assertEnvelope(await api("/qr/orders/qro_nope", { key }), "qr_order_not_found", 404);
  assertEnvelope(await api("/qr/orders/qro_nope/simulate", { key, body: { action: "paid" } }), "qr_order_not_found", 404);
  assertEnvelope(await api(`/qr/orders/${o.id}/simulate`, { key: other.sandbox.secretKey, body: { action: "paid" } }), "qr_order_not_found", 404);
  assertEnvelope(await api(`/qr/orders/${o.id}/cancel`, { key: other.sandbox.secretKey, body: {} }), "qr_order_not_found", 404);
  // An unregistered shop, in production as well.
  assertEnvelope(await api("/qr/establishment", { key: (await newMerchant()).production.secretKey }), "qr_establishment_not_found", 404);
  // Bad input.
  assertEnvelope(await api("/qr/orders", { key, body: { amount: "ten", merchantOrderId: "x" } }), "amount_invalid", 400);
  assertEnvelope(await api("/qr/orders", { key, body: { amount: 10 } }), "missing_field", 400);
  assertEnvelope(await api("/qr/orders", { key, body: { amount: 10, merchantOrderId: "x", expiresInMinutes: 2000 } }), "invalid_request", 400);
  assertEnvelope(await api("/qr/orders", { key, body: { amount: 10, merchantOrderId: "x", country: "MX" } }), "unsupported_country", 422);
  assertEnvelope(await api("/qr/orders", { key, body: { amount: 10, merchantOrderId: "x", status: "paid" }, method: "PUT" }), "method_not_allowed", 405);
});

test("paid through the sandbox: the same completion path as every payment; then 409 with its state", async () => {
  const m = await establishment();
  const key = m.sandbox.secretKey;
  const o = (await api("/qr/orders", { key, body: { amount: 40, merchantOrderId: "till-1" }, headers: { "idempotency-key": "qr-till-1" } })).body.order;
  // A retry with the key is the same order, not a second one.
  const again = await api("/qr/orders", { key, body: { amount: 40, merchantOrderId: "till-1" }, headers: { "idempotency-key": "qr-till-1" } });
  assert.equal(again.body.order.id, o.id);
  assert.equal(await db().qrOrder.count({ where: { merchantId: m.merchantId } }), 1);

  const paid = await api(`/qr/orders/${o.id}/simulate`, { key, body: { action: "paid" } });
  assert.equal(paid.status, 200, paid.text);
  assert.equal(paid.body.order.status, "paid");
  assert.ok(paid.body.order.paidAt);
  assert.equal((await api(`/payments/${o.transactionId}`, { key })).body.status, "completed");
  const completed = await db().event.findMany({ where: { merchantId: m.merchantId, type: "payment.completed" } });
  assert.equal(completed.length, 1);
  const data = (completed[0]!.payload as any).data;
  assert.equal(data.object.id, o.transactionId);
  assert.equal(data.object.qrOrderId, o.id);
  assert.equal(data.object.merchantOrderId, "till-1");
  assert.equal(data.previousStatus, "pending");
  assert.equal(typeof data.sequence, "number");
  assert.deepEqual(await (await fetch(`${API_URL}/qr/${o.token}/status`)).json(), { status: "paid", live: false });
  const bal = (await api("/me/balance", { key })).body;
  assert.ok(bal.balance.pending > 0);
  assert.deepEqual(bal.ledgerWarnings, []);

  const cancel = await api(`/qr/orders/${o.id}/cancel`, { key, body: {} });
  assertEnvelope(cancel, "qr_order_not_pending", 409);
  assert.equal(cancel.body.error.details.status, "paid");
  assertEnvelope(await api(`/qr/orders/${o.id}/simulate`, { key, body: { action: "expired" } }), "qr_order_not_pending", 409);
  assertEnvelope(await api(`/qr/orders/${o.id}/simulate`, { key: m.production.secretKey, body: { action: "paid" } }), "production_key_refused", 400);
  // Paying the transaction itself (as a provider's notice would) is the same path.
  const o2 = (await api("/qr/orders", { key, body: { amount: 12, merchantOrderId: "till-2" } })).body.order;
  assert.equal((await api(`/payments/${o2.transactionId}/simulate`, { key, body: { action: "paid" } })).status, 200);
  assert.equal((await api(`/qr/orders/${o2.id}`, { key })).body.order.status, "paid");
});
test("a suspended establishment refuses new orders while an issued one still completes", async () => {
  const m = await establishment();
  const key = m.sandbox.secretKey;
  const issued = (await api("/qr/orders", { key, body: { amount: 20, merchantOrderId: "before" } })).body.order;
  const line = tsx(["scripts/cli.ts", "qr:suspend", "--shop", m.shopId, "--json"], {});
  assert.equal(JSON.parse(line).status, "suspended");
  assertEnvelope(await api("/qr/orders", { key, body: { amount: 20, merchantOrderId: "after" } }), "qr_establishment_suspended", 403);
  assert.equal((await api("/qr/establishment", { key })).body.establishment.status, "suspended");
  const paid = await api(`/qr/orders/${issued.id}/simulate`, { key, body: { action: "paid" } });
  assert.equal(paid.body.order.status, "paid");
  tsx(["scripts/cli.ts", "qr:suspend", "--shop", m.shopId, "--reactivate"], {});
  assert.equal((await api("/qr/orders", { key, body: { amount: 20, merchantOrderId: "again" } })).status, 201);
});
