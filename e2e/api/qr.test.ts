// QR collection over real HTTP (decisions.md "QR collection"): the establishment (operator CLI),
// orders with a dynamic PIX BR Code (its CRC checked here by an independent CRC16-CCITT, bit by
// bit, its amount in field 54), the SVG, list/get by id or token, cancel and simulate with 409
// qr_order_not_pending and the state, paid by the same completion path as every payment (ledger,
// payment.completed carrying the order id), the QR expiry job, suspension (new orders refused,
// issued ones still complete), idempotency, scoping, and production through the simulated PSP
// (its notices, a cancel that leaves the charge with its provider, the job asking past the deadline).
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { api, assertEnvelope, newMerchant, tsx, waitFor, API_URL } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { registerEstablishment } from "@/lib/qr/establishments";
import { expireQrOrders } from "@/lib/qr/expire-orders";
import { JOBS } from "@/lib/jobs/registry";
import { setRate } from "@/lib/money/rates";
import type { CreatedMerchant } from "@/lib/merchants/create-merchant";

before(() => setRate("BRL", "5.40", "test"));
after(() => db().$disconnect());

/** CRC16-CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection), written apart from lib/payments/br-code.ts: bit by bit, MSB first. */
function crcCcitt(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, "utf8")) {
    for (let bit = 7; bit >= 0; bit--) {
      const top = ((crc >> 15) & 1) ^ ((byte >> bit) & 1);
      crc = (crc << 1) & 0xffff;
      if (top) crc ^= 0x1021;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}
// The check itself is checked: the standard check value of CRC-16/CCITT-FALSE over "123456789".
assert.equal(crcCcitt("123456789"), "29B1");
/** The top-level EMV fields of a BR Code: id -> value. */
function emvFields(code: string): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < code.length; ) {
    const id = code.slice(i, i + 2);
    const len = Number(code.slice(i + 2, i + 4));
    out.set(id, code.slice(i + 4, i + 4 + len));
    i += 4 + len;
  }
  return out;
}

async function establishment(opts: { tier?: "standard" | "premium" } = {}): Promise<CreatedMerchant> {
  const m = await newMerchant(opts);
  await registerEstablishment({ shopId: m.shopId, name: "Padaria Sol", city: "Sao Paulo", mcc: "5812" });
  return m;
}

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

test("cancel ends the order and its transaction; a payment racing it lands once; expiry by the QR job", async () => {
  const m = await establishment();
  const key = m.sandbox.secretKey;
  const o = (await api("/qr/orders", { key, body: { amount: 15, merchantOrderId: "c-1" } })).body.order;
  const cancelled = await api(`/qr/orders/${o.id}/cancel`, { key, body: {} });
  assert.equal(cancelled.status, 200, cancelled.text);
  assert.equal(cancelled.body.order.status, "cancelled");
  assert.equal((await api(`/payments/${o.transactionId}`, { key })).body.status, "expired");
  const again = await api(`/qr/orders/${o.token}/cancel`, { key, body: {} });
  assertEnvelope(again, "qr_order_not_pending", 409);
  assert.equal(again.body.error.details.status, "cancelled");
  assertEnvelope(await api(`/qr/orders/${o.id}/simulate`, { key, body: { action: "paid" } }), "qr_order_not_pending", 409);
  assertEnvelope(await api("/qr/orders/qro_nope/cancel", { key, body: {} }), "qr_order_not_found", 404);

  // Cancel and pay at once: exactly one wins, and the order agrees with its transaction.
  for (let i = 0; i < 5; i++) {
    const r = (await api("/qr/orders", { key, body: { amount: 9, merchantOrderId: `race-${i}` } })).body.order;
    const [c, p] = await Promise.all([api(`/qr/orders/${r.id}/cancel`, { key, body: {} }), api(`/qr/orders/${r.id}/simulate`, { key, body: { action: "paid" } })]);
    assert.deepEqual([c.status, p.status].sort(), [200, 409], `${c.text} ${p.text}`);
    const order = (await api(`/qr/orders/${r.id}`, { key })).body.order;
    const payment = (await api(`/payments/${r.transactionId}`, { key })).body;
    assert.equal(order.status === "paid" ? "completed" : "expired", payment.status);
  }

  // Past its deadline, the QR expiry job (declared in the job registry) ends the transaction,
  // and the order with it, with payment.failed; an order not yet due is left alone.
  const job = JOBS.find((j) => j.name === "expire-qr-orders");
  assert.ok(job, "expire-qr-orders is a registered job");
  const late = (await api("/qr/orders", { key, body: { amount: 11, merchantOrderId: "late", expiresInMinutes: 1 } })).body.order;
  const notDue = (await api("/qr/orders", { key, body: { amount: 12, merchantOrderId: "not-due", expiresInMinutes: 30 } })).body.order;
  const r = await expireQrOrders({ now: new Date(Date.now() + 2 * 60_000) });
  assert.ok(r.expired >= 1, JSON.stringify(r));
  assert.equal((await api(`/qr/orders/${late.id}`, { key })).body.order.status, "expired");
  assert.equal((await api(`/payments/${late.transactionId}`, { key })).body.status, "expired");
  assert.equal((await api(`/qr/orders/${notDue.id}`, { key })).body.order.status, "pending");
  const failed = await db().event.findMany({ where: { merchantId: m.merchantId, type: "payment.failed" } });
  assert.ok(failed.some((e) => (e.payload as any).data.object.qrOrderId === late.id));
  assertEnvelope(await api(`/qr/orders/${late.id}/cancel`, { key, body: {} }), "qr_order_not_pending", 409);
  assert.deepEqual((await api("/me/balance", { key })).body.ledgerWarnings, []);
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

test("production: through the simulated PSP; a cancel leaves the charge with its provider; the job asks past the deadline", async () => {
  const psp = process.env.PROVIDER_PAGOSUR_URL!;
  const control = async (chargeId: string, status: string, opts: Record<string, unknown>) => {
    const r = await fetch(`${psp}/_control/charges/${chargeId}/${status}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(opts) });
    assert.equal(r.status, 200);
  };
  const m = await establishment();
  const key = m.production.secretKey;
  assert.equal((await api("/qr/establishment", { key })).body.establishment.shopId, m.shopId);
  const make = async (merchantOrderId: string, extra: Record<string, unknown> = {}) => {
    const r = await api("/qr/orders", { key, body: { amount: 30, merchantOrderId, ...extra } });
    assert.equal(r.status, 201, r.text);
    const row = await db().transaction.findUniqueOrThrow({ where: { id: r.body.order.transactionId } });
    return { ...r.body.order, chargeId: row.providerRef as string, provider: row.provider };
  };
  const status = async (o: { id: string }) => (await api(`/qr/orders/${o.id}`, { key })).body.order.status;
  const payment = async (o: { transactionId: string }) => (await api(`/payments/${o.transactionId}`, { key })).body;

  // Paid by the provider's signed notice: the same completion path (ledger, payment.completed).
  const o = await make("prod-1");
  assert.equal(o.provider, "pagosur");
  assert.ok(o.chargeId);
  assert.equal(o.qrPayload.slice(-4), crcCcitt(o.qrPayload.slice(0, -4)));
  assert.equal(emvFields(o.qrPayload).get("54"), o.amountLocal.toFixed(2));
  assert.equal(o.amountLocal, 30);
  assertEnvelope(await api(`/qr/orders/${o.id}/simulate`, { key, body: { action: "paid" } }), "production_key_refused", 400);
  await control(o.chargeId, "paid", { notify: true });
  await waitFor(async () => (await status(o)) === "paid", "the order paid by the notice");
  assert.equal((await payment(o)).status, "completed");
  assert.equal((await payment(o)).qrOrderId, o.id);
  const ev = await waitFor(() => db().event.findFirst({ where: { merchantId: m.merchantId, environment: "production", type: "payment.completed" } }), "payment.completed");
  assert.equal((ev.payload as any).data.object.qrOrderId, o.id);
  assertEnvelope(await api(`/qr/orders/${o.id}/cancel`, { key, body: {} }), "qr_order_not_pending", 409);

  // Cancelled at the counter, but a payer who scanned before may still pay the provider's charge:
  // the transaction stays pending, and money that arrives is booked (the order reads paid).
  const c = await make("prod-cancel");
  const cancelled = await api(`/qr/orders/${c.id}/cancel`, { key, body: {} });
  assert.equal(cancelled.status, 200, cancelled.text);
  assert.equal(cancelled.body.order.status, "cancelled");
  assert.equal((await payment(c)).status, "pending");
  const again = await api(`/qr/orders/${c.id}/cancel`, { key, body: {} });
  assertEnvelope(again, "qr_order_not_pending", 409);
  assert.equal(again.body.error.details.status, "cancelled");
  await control(c.chargeId, "paid", { notify: true });
  await waitFor(async () => (await payment(c)).status === "completed", "the late payment booked");
  assert.equal(await status(c), "paid");
  // A cancelled charge that the provider then expires stays cancelled.
  const c2 = await make("prod-cancel-2");
  assert.equal((await api(`/qr/orders/${c2.id}/cancel`, { key, body: {} })).status, 200);
  await control(c2.chargeId, "expired", { notify: true });
  await waitFor(async () => (await payment(c2)).status === "expired", "the provider's expiry");
  assert.equal(await status(c2), "cancelled");

  // A suspended establishment refuses new orders in production too; an issued one still completes.
  const issued = await make("prod-issued");
  tsx(["scripts/cli.ts", "qr:suspend", "--shop", m.shopId], {});
  assertEnvelope(await api("/qr/orders", { key, body: { amount: 30, merchantOrderId: "prod-refused" } }), "qr_establishment_suspended", 403);
  await control(issued.chargeId, "paid", { notify: true });
  await waitFor(async () => (await status(issued)) === "paid", "the issued order paid while suspended");
  tsx(["scripts/cli.ts", "qr:reactivate", "--shop", m.shopId], {});
  assert.equal((await api("/qr/establishment", { key })).body.establishment.status, "active");

  // Past the deadline, the job asks the provider: still pending there is unknown, not failed, so
  // the order stays pending; the provider's answer (paid without a notice: the last-second payer,
  // or expired) then settles it, through the job or the payments' poll.
  const unpaid = await make("prod-unpaid", { expiresInMinutes: 1 });
  const lastSecond = await make("prod-last-second", { expiresInMinutes: 1 });
  const expiring = await make("prod-expiring", { expiresInMinutes: 1 });
  const at = Date.now() + 2 * 60_000;
  await expireQrOrders({ now: new Date(at) });
  assert.equal(await status(unpaid), "pending");
  assert.equal((await payment(unpaid)).status, "pending");
  await control(lastSecond.chargeId, "paid", { notify: false });
  await control(expiring.chargeId, "expired", { notify: false });
  // A minute later (past the 30 s lease the first look took), asked again.
  await expireQrOrders({ now: new Date(at + 60_000) });
  await waitFor(async () => (await status(lastSecond)) === "paid" && (await status(expiring)) === "expired", "the provider's answers applied");
  assert.equal((await payment(lastSecond)).status, "completed");
  assert.equal((await payment(expiring)).status, "expired");
  assert.equal(await status(unpaid), "pending");
  assert.deepEqual((await api("/me/balance", { key })).body.ledgerWarnings, []);
});
