// Recurring PIX mandates over real HTTP (decisions.md "Recurring PIX (mandates)"): created pending
// with our authorization page, authorized in the sandbox, charges scheduled (one per due date),
// sent by the mandate job inside their window (10 to 2 days before the due date) as ordinary PIX
// payments carrying mandateId, a failed send retried from the due date, nothing sent for a
// cancelled mandate, a variable mandate's ceiling, and the job run twice (or after a crash between
// claim and send) making one payment, and a charge paid twice refunded once. The job runs in this process on a future clock, scoped to
// the test's merchant (as the settlement and MED tests run theirs); the server's own ticker runs
// it on the real clock, where none of these due dates is yet in its window.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { api, assertEnvelope, newMerchant, waitFor, API_URL } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { day, noonOf } from "./mandates-fixtures.ts";
import { setRate } from "@/lib/money/rates";
import { runMandates } from "@/lib/mandates/send-due-charges";
import { chargePaymentId } from "@/lib/mandates/charge-payment-id";
import { applyProviderStatus } from "@/lib/outcomes/apply-provider-status";
import { DUPLICATE_REFUND_REASON } from "@/lib/mandates/refund-duplicates";
import { verifyLedger } from "@/lib/ledger/verify";
import { settleNow } from "./payments-fixtures.ts";

before(() => setRate("BRL", "5.00", "test"));
after(() => db().$disconnect());

const CUSTOMER = { name: "Ana Souza", email: "ana@example.com", documentId: "529.982.247-25" };

async function activeMandate(key: string, body: Record<string, unknown> = {}) {
  const made = await api("/mandates", { key, body: { amount: 49.9, period: "monthly", startDate: day(15), endDate: day(100), customer: CUSTOMER, description: "Plano Família", ...body } });
  assert.equal(made.status, 201, made.text);
  const ok = await api(`/mandates/${made.body.mandate.id}/simulate`, { key, body: { action: "authorize" } });
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.body.mandate.status, "active");
  return ok.body.mandate;
}
async function schedule(key: string, id: string, dueDate: string, amount?: number) {
  const r = await api(`/mandates/${id}/charges`, { key, body: { dueDate, ...(amount !== undefined ? { amount } : {}) } });
  assert.equal(r.status, 201, r.text);
  return r.body.charge;
}
/** Schedules a charge due on `due` and has the job send it (5 days before): the charge as sent. */
async function sentCharge(key: string, merchantId: string, mandateId: string, due: string) {
  await schedule(key, mandateId, due);
  assert.equal((await runMandates({ now: noonOf(due, -5), merchantId })).sent, 1);
  return (await charges(key, mandateId)).find((c) => c.dueDate === due);
}
const charges = async (key: string, id: string) => (await api(`/mandates/${id}/charges`, { key })).body.data as any[];
const mandatePayments = (mandateId: string) => db().transaction.findMany({ where: { mandateId }, orderBy: { createdAt: "asc" } });

test("a monthly mandate: authorized, three charges each sent inside its window and paid, then completed", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const made = await api("/mandates", { key, body: { amount: 49.9, period: "monthly", startDate: day(15), endDate: day(85), customer: CUSTOMER, description: "Plano Família" } });
  assert.equal(made.status, 201, made.text);
  const pending = made.body.mandate;
  assert.match(pending.id, /^mdt_/);
  assert.equal(pending.status, "pending_authorization");
  assert.equal(pending.amount, 49.9);
  assert.equal(pending.maxAmount, null);
  assert.equal(pending.currency, "BRL");
  assert.match(pending.authorizationUrl, /\/pay\/mandate\/[A-Za-z0-9]{24}$/);
  const page = await fetch(pending.authorizationUrl.replace(/^https?:\/\/[^/]+/, API_URL));
  assert.equal(page.status, 200);
  assert.match(await page.text(), /Plano Família/);

  const authorized = await api(`/mandates/${pending.id}/simulate`, { key, body: { action: "authorize" } });
  assert.equal(authorized.status, 200, authorized.text);
  assert.equal(authorized.body.mandate.status, "active");
  assert.ok(authorized.body.mandate.authorizedAt);
  assertEnvelope(await api(`/mandates/${pending.id}/simulate`, { key, body: { action: "authorize" } }), "mandate_not_pending", 409);

  const due = [day(20), day(50), day(80)];
  for (const d of due) assert.equal((await schedule(key, pending.id, d)).status, "scheduled");
  // One charge per mandate and due date.
  assertEnvelope(await api(`/mandates/${pending.id}/charges`, { key, body: { dueDate: due[0] } }), "charge_already_scheduled", 409);
  // Too soon to be sent in its window; outside the mandate's dates.
  assertEnvelope(await api(`/mandates/${pending.id}/charges`, { key, body: { dueDate: day(1) } }), "invalid_request", 400);
  assertEnvelope(await api(`/mandates/${pending.id}/charges`, { key, body: { dueDate: day(90) } }), "invalid_request", 400);
  assertEnvelope(await api(`/mandates/${pending.id}/charges`, { key, body: { dueDate: day(30), amount: 10 } }), "amount_invalid", 400);

  for (const [i, d] of due.entries()) {
    // The day before the window opens: nothing is sent.
    assert.equal((await runMandates({ now: noonOf(d, -11), merchantId: m.merchantId })).claimed, 0);
    assert.equal((await charges(key, pending.id))[i].status, "scheduled");
    const run = await runMandates({ now: noonOf(d, -10), merchantId: m.merchantId });
    assert.equal(run.sent, 1, JSON.stringify(run));
    const c = (await charges(key, pending.id))[i];
    assert.equal(c.status, "sent");
    assert.equal(c.attempts, 1);
    assert.match(c.paymentId, /^tx_/);
    const p = await api(`/payments/${c.paymentId}`, { key });
    assert.equal(p.status, 200, p.text);
    assert.equal(p.body.mandateId, pending.id);
    assert.equal(p.body.status, "pending");
    assert.equal(p.body.paymentMethodId, "sbx_pix");
    assert.equal(p.body.amountLocal, 49.9);
    assert.equal((await api(`/payments/${c.paymentId}/simulate`, { key, body: { action: "paid" } })).status, 200);
    assert.equal((await charges(key, pending.id))[i].status, "paid");
  }
  const payments = await mandatePayments(pending.id);
  assert.equal(payments.length, 3);
  assert.ok(payments.every((p) => p.status === "completed"));
  // The payments are ordinary: payment.completed for each, on the ledger.
  assert.equal(await db().event.count({ where: { merchantId: m.merchantId, type: "payment.completed", objectId: { in: payments.map((p) => p.id) } } }), 3);

  assert.equal((await runMandates({ now: noonOf(day(85), 1), merchantId: m.merchantId })).completed, 1);
  const done = await api(`/mandates/${pending.id}`, { key });
  assert.equal(done.body.mandate.status, "completed");
  const events = await db().event.findMany({ where: { merchantId: m.merchantId, objectId: pending.id }, orderBy: { sequence: "asc" } });
  assert.deepEqual(events.map((e) => e.type), ["mandate.authorized"]);
  const listed = await api("/mandates?status=completed", { key });
  assert.deepEqual(listed.body.data.map((x: any) => x.id), [pending.id]);
  // Another merchant does not see it.
  const other = await newMerchant();
  assertEnvelope(await api(`/mandates/${pending.id}`, { key: other.sandbox.secretKey }), "mandate_not_found", 404);
});

test("a failed charge is retried from its due date, once, and paid", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const mandate = await activeMandate(key);
  const due = day(20);
  const first = await sentCharge(key, m.merchantId, mandate.id, due);
  assert.equal((await api(`/payments/${first.paymentId}/simulate`, { key, body: { action: "failed" } })).status, 200);
  assert.equal((await charges(key, mandate.id))[0].status, "retrying");
  // Before the due date a failed send waits.
  assert.equal((await runMandates({ now: noonOf(due, -1), merchantId: m.merchantId })).claimed, 0);
  assert.equal((await runMandates({ now: noonOf(due), merchantId: m.merchantId })).sent, 1);
  const retried = (await charges(key, mandate.id))[0];
  assert.equal(retried.status, "sent");
  assert.equal(retried.attempts, 2);
  assert.notEqual(retried.paymentId, first.paymentId);
  assert.deepEqual(retried.paymentIds, [first.paymentId, retried.paymentId]);
  assert.equal((await api(`/payments/${retried.paymentId}/simulate`, { key, body: { action: "paid" } })).status, 200);
  assert.equal((await charges(key, mandate.id))[0].status, "paid");
  assert.equal((await runMandates({ now: noonOf(due, 2), merchantId: m.merchantId })).claimed, 0);
  assert.deepEqual((await mandatePayments(mandate.id)).map((p) => p.status), ["failed", "completed"]);
});

test("a mandate the payer cancelled sends nothing more", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const mandate = await activeMandate(key);
  await schedule(key, mandate.id, day(20));
  await schedule(key, mandate.id, day(50));
  assert.equal((await runMandates({ now: noonOf(day(20), -5), merchantId: m.merchantId })).sent, 1);
  const cancelled = await api(`/mandates/${mandate.id}/simulate`, { key, body: { action: "cancel_by_payer" } });
  assert.equal(cancelled.status, 200, cancelled.text);
  assert.equal(cancelled.body.mandate.status, "cancelled");
  assert.equal(cancelled.body.mandate.cancelledBy, "payer");
  assertEnvelope(await api(`/mandates/${mandate.id}/cancel`, { key, body: {} }), "mandate_not_active", 409);
  assertEnvelope(await api(`/mandates/${mandate.id}/charges`, { key, body: { dueDate: day(60) } }), "mandate_not_active", 409);
  const [sent, later] = await charges(key, mandate.id);
  assert.equal(later.status, "cancelled");
  // The charge already with its provider fails: it is not tried again.
  assert.equal((await api(`/payments/${sent.paymentId}/simulate`, { key, body: { action: "failed" } })).status, 200);
  for (const at of [noonOf(day(20)), noonOf(day(21)), noonOf(day(50), -5)]) assert.equal((await runMandates({ now: at, merchantId: m.merchantId })).claimed, 0);
  assert.deepEqual((await charges(key, mandate.id)).map((c) => c.status), ["cancelled", "cancelled"]);
  assert.equal((await mandatePayments(mandate.id)).length, 1);
  const events = await db().event.findMany({ where: { merchantId: m.merchantId, objectId: mandate.id }, orderBy: { sequence: "asc" } });
  assert.deepEqual(events.map((e) => e.type), ["mandate.authorized", "mandate.cancelled"]);
  assert.equal((events[1]!.payload as any).data.previousStatus, "active");
});

test("the merchant's cancel; a mandate not authorized by its start date expires", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const active = await activeMandate(key);
  const byMerchant = await api(`/mandates/${active.id}/cancel`, { key, body: {} });
  assert.equal(byMerchant.status, 200, byMerchant.text);
  assert.equal(byMerchant.body.mandate.cancelledBy, "merchant");
  const made = await api("/mandates", { key, body: { amount: 10, period: "weekly", startDate: day(3), customer: CUSTOMER, description: "Cesta semanal" } });
  assert.equal(made.status, 201, made.text);
  await schedule(key, made.body.mandate.id, day(5));
  assert.equal((await runMandates({ now: noonOf(day(3)), merchantId: m.merchantId })).expired, 0, "the start date itself still counts");
  assert.equal((await runMandates({ now: noonOf(day(4)), merchantId: m.merchantId })).expired, 1);
  const expired = await api(`/mandates/${made.body.mandate.id}`, { key });
  assert.equal(expired.body.mandate.status, "expired");
  assert.equal((await charges(key, made.body.mandate.id))[0].status, "cancelled");
  assert.equal(await db().event.count({ where: { objectId: made.body.mandate.id, type: "mandate.expired" } }), 1);
  // Bad input is the documented codes, never a 500.
  assertEnvelope(await api("/mandates", { key, body: { amount: 10, maxAmount: 20, period: "weekly", startDate: day(3), customer: CUSTOMER, description: "x" } }), "invalid_request", 400);
  assertEnvelope(await api("/mandates", { key, body: { amount: 10, period: "daily", startDate: day(3), customer: CUSTOMER, description: "x" } }), "invalid_request", 400);
  assertEnvelope(await api("/mandates", { key, body: { amount: 10, period: "weekly", startDate: "2026-02-30", customer: CUSTOMER, description: "x" } }), "invalid_request", 400);
  assertEnvelope(await api("/mandates", { key, body: { amount: 10, period: "weekly", startDate: day(3), customer: { ...CUSTOMER, documentId: "111.111.111-11" }, description: "x" } }), "invalid_request", 400);
  assertEnvelope(await api("/mandates", { key, body: { amount: -1, period: "weekly", startDate: day(3), customer: CUSTOMER, description: "x" } }), "amount_invalid", 400);
  assertEnvelope(await api(`/mandates/${active.id}/simulate`, { key: m.production.secretKey, body: { action: "authorize" } }), "production_key_refused", 400);
});

test("a variable mandate refuses a charge above its ceiling and sends the amount each charge names", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const mandate = await activeMandate(key, { amount: undefined, maxAmount: 150 });
  assert.equal(mandate.maxAmount, 150);
  assert.equal(mandate.amount, null);
  const over = await api(`/mandates/${mandate.id}/charges`, { key, body: { dueDate: day(20), amount: 150.01 } });
  assertEnvelope(over, "amount_above_mandate_maximum", 422);
  assert.equal(over.body.error.details.maxAmount, 150);
  assertEnvelope(await api(`/mandates/${mandate.id}/charges`, { key, body: { dueDate: day(20) } }), "invalid_request", 400);
  const c = await schedule(key, mandate.id, day(20), 120.5);
  assert.equal(c.amount, 120.5);
  assert.equal((await runMandates({ now: noonOf(day(20), -3), merchantId: m.merchantId })).sent, 1);
  const [p] = await mandatePayments(mandate.id);
  assert.equal(p!.amountLocal, 12050n);
});

test("the job run twice at once, again, and after a crash between claim and send makes one payment per send", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const mandate = await activeMandate(key);
  const due = day(20);
  const charge = await schedule(key, mandate.id, due);
  const now = noonOf(due, -4);
  const runs = await Promise.all([runMandates({ now, merchantId: m.merchantId }), runMandates({ now, merchantId: m.merchantId })]);
  assert.equal(runs.reduce((n, r) => n + r.claimed, 0), 1, JSON.stringify(runs));
  assert.equal((await runMandates({ now, merchantId: m.merchantId })).claimed, 0);
  assert.equal((await mandatePayments(mandate.id)).length, 1);
  const sent = (await charges(key, mandate.id))[0];
  assert.equal(sent.paymentId, chargePaymentId(mandate.id, due, 1), "the payment id is derived from mandate, due date and attempt");

  // A crash after the claim committed and the payment was made, before the charge was marked sent:
  // the lease runs out and the next run adopts the payment instead of making another.
  await db().mandateCharge.update({ where: { id: charge.id }, data: { status: "sending", leaseUntil: new Date(now.getTime() - 1) } });
  const adopted = await runMandates({ now, merchantId: m.merchantId });
  assert.equal(adopted.claimed, 1);
  assert.equal(adopted.sent, 0);
  assert.equal((await charges(key, mandate.id))[0].status, "sent");
  assert.equal((await mandatePayments(mandate.id)).length, 1);

  // A crash after the claim, before any payment was made: the next run makes it, under the claimed id.
  const second = await schedule(key, mandate.id, day(50));
  await db().mandateCharge.update({ where: { id: second.id }, data: { status: "sending", attempts: 1, paymentId: chargePaymentId(mandate.id, day(50), 1), paymentIds: [chargePaymentId(mandate.id, day(50), 1)], leaseUntil: new Date(now.getTime() + 60_000) } });
  assert.equal((await runMandates({ now, merchantId: m.merchantId })).claimed, 0, "a live lease is left alone");
  const later = new Date(now.getTime() + 10 * 60_000);
  const resumed = await runMandates({ now: later, merchantId: m.merchantId });
  assert.equal(resumed.sent, 1, JSON.stringify(resumed));
  const after = (await charges(key, mandate.id))[1];
  assert.equal(after.status, "sent");
  assert.equal(after.attempts, 1);
  assert.deepEqual(after.paymentIds, [chargePaymentId(mandate.id, day(50), 1)]);
  assert.equal((await mandatePayments(mandate.id)).length, 2);
});

test("a charge paid twice (an earlier send's money arriving after the retry was paid) has the later payment refunded in full", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const mandate = await activeMandate(key);
  const due = day(20);
  const first = await sentCharge(key, m.merchantId, mandate.id, due);
  assert.equal((await api(`/payments/${first.paymentId}/simulate`, { key, body: { action: "expired" } })).status, 200);
  assert.equal((await runMandates({ now: noonOf(due), merchantId: m.merchantId })).sent, 1);
  const retried = (await charges(key, mandate.id))[0];
  assert.equal((await api(`/payments/${retried.paymentId}/simulate`, { key, body: { action: "paid" } })).status, 200);
  // The first send's PAID arrives late, as a provider's notice or status check brings it (decisions.md "Late payments").
  assert.ok(await applyProviderStatus(first.paymentId, "paid"));
  assert.deepEqual((await mandatePayments(mandate.id)).map((p) => p.status), ["completed", "completed"]);
  assert.equal((await charges(key, mandate.id))[0].status, "paid");
  // Refunded from the shop's available balance: until the payments settle the refund is refused
  // (balance_insufficient) and asked again at each run.
  assert.equal((await runMandates({ now: noonOf(due, 1), merchantId: m.merchantId })).duplicatesRefunded, 0);
  for (const p of [first.paymentId, retried.paymentId]) await settleNow(p);
  const run = await runMandates({ now: noonOf(due, 1), merchantId: m.merchantId });
  assert.equal(run.duplicatesRefunded, 1);
  assert.equal((await runMandates({ now: noonOf(due, 1), merchantId: m.merchantId })).duplicatesRefunded, 0, "asked once");
  const claims = await db().claim.findMany({ where: { transactionId: { in: [first.paymentId, retried.paymentId] } } });
  assert.equal(claims.length, 1);
  assert.equal(claims[0]!.transactionId, first.paymentId, "the payment that completed second is the one refunded");
  assert.equal(claims[0]!.reason, DUPLICATE_REFUND_REASON);
  assert.equal(claims[0]!.amountLocal, 4990n);
  await waitFor(async () => (await db().claim.findUniqueOrThrow({ where: { id: claims[0]!.id } })).status === "resolved", "the sandbox refund confirmed");
  assert.deepEqual((await verifyLedger(m.merchantId, "sandbox")).warnings, []);
});
