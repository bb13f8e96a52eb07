// Late payments (decisions.md "Late payments"): a provider's PAID for a payment we already failed
// or expired is money the buyer paid. It completes through the same recipe (ledger, settlement),
// with lateCompletion and previousStatus on payment.completed; a cancelled QR order reads paid;
// a paid attempt the cascade had left behind becomes the route (refunds go to it).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { api, newMerchant, waitFor } from "./helpers.ts";
import { buyerEmail, paymentRow, psp, type Psp } from "./psp.ts";
import { db } from "@/lib/platform/db";
import { setRate } from "@/lib/money/rates";
import { registerEstablishment } from "@/lib/qr/establishments";

const email = () => buyerEmail("late");
const oxxo = (buyer: string) => ({ amount: 20, paymentMethodId: "1004", userName: "Ana Ruiz", userEmail: buyer, userPhone: "+525512345678", documentId: "GODE561231GR8" });
const row = paymentRow;
const eventsOf = (id: string, type: string) => db().event.findMany({ where: { type, objectId: id }, orderBy: { sequence: "asc" } });

before(async () => {
  for (const [quote, rate] of [["BRL", "5.40"], ["MXN", "18.20"]] as const) await setRate(quote, rate, "test");
});
after(() => db().$disconnect());

test("a voucher paid after its provider expired it completes late: same recipe, lateCompletion and previousStatus on payment.completed", async () => {
  const m = await newMerchant({ tier: "standard" });
  const key = m.production.secretKey;
  const r = await api("/payments", { key, body: oxxo(email()) });
  assert.equal(r.status, 200, r.text);
  const id = r.body.transactionId;
  const { provider, providerRef: charge } = await row(id);
  const at = provider as Psp;
  // The expiry notice first (answered), then the buyer's payment at the till.
  await psp(at, `/_control/charges/${charge}/paid`, { expiresFirst: true });
  await waitFor(async () => (await row(id)).status === "completed", "the late payment completed", 15_000);

  const got = await api(`/payments/${id}`, { key });
  assert.equal(got.body.status, "completed");
  assert.equal(got.body.lateCompletion, true);
  assert.ok(got.body.timestamps.completed);
  // The list presents the payment as GET /payments/{id} does (it read fewer columns and lost the flag).
  const listed = await api(`/payments?limit=5`, { key });
  assert.deepEqual(listed.body.data.find((p: { id: string }) => p.id === id), got.body);
  const t = await row(id);
  assert.equal(t.nextCheckAt, null, "no longer on the reconciliation schedule");
  assert.ok(t.settleAt, "settles like any completion");
  assert.equal(await db().ledgerPosting.count({ where: { transactionId: id, kind: "payment_completed" } }), 1);
  const [failed] = await eventsOf(id, "payment.failed");
  assert.equal((failed!.payload as any).data.object.status, "expired");
  const completed = await eventsOf(id, "payment.completed");
  assert.equal(completed.length, 1, "no new event type, one payment.completed");
  const data = (completed[0]!.payload as any).data;
  assert.deepEqual([data.lateCompletion, data.previousStatus, data.object.status, data.object.lateCompletion, data.sequence], [true, "expired", "completed", true, 2]);
  const balance = await api("/me/balance", { key });
  assert.deepEqual(balance.body.ledgerWarnings ?? [], []);

  // The same PAID again (a duplicate notice) changes nothing.
  await psp(at, `/_control/charges/${charge}/paid`, {});
  await waitFor(async () => (await psp(at, `/_control/charges/${charge}`)).deliveries.filter((d: any) => d.status === "paid").length === 2, "the second paid notice answered");
  assert.equal(await db().ledgerPosting.count({ where: { transactionId: id, kind: "payment_completed" } }), 1);
});

test("a notice after a provider answer that said failed: the payment completes late from failed", async () => {
  const m = await newMerchant();
  const key = m.production.secretKey;
  const r = await api("/payments", { key, body: { amount: 25, paymentMethodId: "1003", userName: "Juan Pérez", userEmail: email(), documentId: "GODE561231GR8" } });
  const id = r.body.transactionId;
  const charge = (await row(id)).providerRef!;
  await psp("pagosur", `/_control/charges/${charge}/failed`, {});
  await waitFor(async () => (await row(id)).status === "failed", "failed by the provider's notice");
  await psp("pagosur", `/_control/charges/${charge}/paid`, {});
  await waitFor(async () => (await row(id)).status === "completed", "completed by the later paid notice");
  const [ev] = await eventsOf(id, "payment.completed");
  assert.deepEqual([(ev!.payload as any).data.previousStatus, (ev!.payload as any).data.lateCompletion], ["failed", true]);
});

test("a PAID for a cancelled QR order that its provider had expired completes its transaction; the order shows paid", async () => {
  const m = await newMerchant({ tier: "premium" });
  await registerEstablishment({ shopId: m.shopId, name: "Padaria Sol", city: "Sao Paulo", mcc: "5812" });
  const key = m.production.secretKey;
  const made = await api("/qr/orders", { key, body: { amount: 30, merchantOrderId: `late-${randomUUID().slice(0, 6)}` } });
  assert.equal(made.status, 201, made.text);
  const o = made.body.order;
  const charge = (await row(o.transactionId)).providerRef!;
  assert.equal((await api(`/qr/orders/${o.id}/cancel`, { key, body: {} })).body.order.status, "cancelled");
  await psp("pagosur", `/_control/charges/${charge}/expired`, {});
  await waitFor(async () => (await row(o.transactionId)).status === "expired", "the provider's expiry");
  assert.equal((await api(`/qr/orders/${o.id}`, { key })).body.order.status, "cancelled");

  await psp("pagosur", `/_control/charges/${charge}/paid`, {});
  await waitFor(async () => (await row(o.transactionId)).status === "completed", "the late payment booked");
  const order = (await api(`/qr/orders/${o.id}`, { key })).body.order;
  assert.equal(order.status, "paid");
  assert.ok(order.paidAt);
  const [ev] = await eventsOf(o.transactionId, "payment.completed");
  assert.deepEqual([(ev!.payload as any).data.previousStatus, (ev!.payload as any).data.lateCompletion, (ev!.payload as any).data.object.qrOrderId], ["expired", true, o.id]);
});

test("a late PAID from a cascade attempt left behind moves the route to the provider that was paid; the refund goes to it", async () => {
  const m = await newMerchant({ tier: "premium" });
  const key = m.production.secretKey;
  const buyer = email();
  // pagosur makes the charge but its answer is lost: the cascade moves on to andespay.
  await psp("pagosur", "/_control/behaviour", { mode: "succeed_then_timeout", forEmail: buyer, times: 1 });
  const r = await api("/payments", { key, body: { amount: 25, paymentMethodId: "1003", userName: "Juan Pérez", userEmail: buyer, documentId: "GODE561231GR8" } });
  assert.equal(r.status, 200, r.text);
  const id = r.body.transactionId;
  const kept = await row(id);
  assert.equal(kept.provider, "andespay");
  // andespay's charge expires; then the buyer's payment arrives at pagosur's abandoned charge.
  await psp("andespay", `/_control/charges/${kept.providerRef}/expired`, {});
  await waitFor(async () => (await row(id)).status === "expired", "expired by the kept provider");
  const abandoned = await psp("pagosur", `/_control/charges/${id}`);
  await psp("pagosur", `/_control/charges/${abandoned.id}/paid`, {});
  await waitFor(async () => (await row(id)).status === "completed", "completed by the abandoned attempt's paid notice");
  const done = await row(id);
  assert.deepEqual([done.provider, done.providerRef, done.lateCompletion], ["pagosur", abandoned.id, true]);
  assert.equal((await api(`/payments/${id}`, { key })).body.provider, "pagosur");

  const refund = await api(`/payments/${id}/refund`, { key, body: { amount: 5 } });
  assert.ok(refund.status < 300, refund.text);
  await waitFor(async () => (await psp("pagosur", `/_control/charges/${abandoned.id}`)).refunds.length === 1, "the refund reached pagosur, which holds the money");
  assert.equal((await psp("andespay", `/_control/charges/${kept.providerRef}`)).refunds.length, 0);
});
