// QR orders that end without a sandbox payment, over real HTTP (decisions.md "QR collection"):
// cancel (a payment racing it lands once), the QR expiry job, and production through the simulated
// PSP (its notices, a cancel that leaves the charge with its provider, the job asking past the
// deadline). One file: both tests run the expiry job at a moment ahead of the clock.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { api, assertEnvelope, tsx, waitFor } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { expireQrOrders } from "@/lib/qr/expire-orders";
import { JOBS } from "@/lib/jobs/registry";
import { seedRates, crcCcitt, emvFields, establishment } from "./qr-fixtures.ts";

before(seedRates);
after(() => db().$disconnect());

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
