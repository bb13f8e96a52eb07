// A refund claim whose payment's provider is no longer configured here (its configuration removed
// after the payment was made): the refund step cannot even ask. It is retried with back-off and
// never given up (the money stays frozen; the provider may still be asked once configured again),
// and once it has failed for an hour an operator is told, as a stuck withdrawal is: an error log,
// `attention_at` on the claim, the lp_claims_need_attention gauge in /metrics and the operator
// CLI's claims:attention list. From then on it is tried once an hour, not every 5 minutes. The
// job's clock is its `now`: no test waits an hour.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { api, newMerchant, tsx, waitFor, API_URL } from "./helpers.ts";
import { buyerEmail, paymentRow, psp } from "./psp.ts";
import { db } from "@/lib/platform/db";
import { setRate } from "@/lib/money/rates";
import { settleDueBalances } from "@/lib/settlements/settle-balances";
import { runScheduledActions } from "@/lib/jobs/run-scheduled-actions";
import { resolveRefund } from "@/lib/claims/resolve-refund";

const left: string[] = [];
after(async () => {
  // Nothing is left for the server's job: the claims are rejected (their freeze released).
  for (const id of left) await resolveRefund(id, "rejected");
  await db().scheduledAction.updateMany({ where: { claimId: { in: left }, state: { not: "done" } }, data: { state: "done", doneAt: new Date() } });
  await db().$disconnect();
});

const HOUR = 3_600_000;
const MINUTE = 60_000;

test("a refund whose provider is no longer configured is retried, raised to an operator after an hour (gauge, CLI list) and then tried hourly, never given up", async () => {
  await setRate("MXN", "18.20", "test");
  const m = await newMerchant();
  const key = m.production.secretKey;
  const pay = await api("/payments", { key, body: { amount: 25, paymentMethodId: "1003", userName: "Juan Pérez", userEmail: buyerEmail("stuck"), documentId: "GODE561231GR8" } });
  assert.equal(pay.status, 200, pay.text);
  const tx = pay.body.transactionId as string;
  await psp("pagosur", `/_control/charges/${(await paymentRow(tx)).providerRef}/paid`, {});
  await waitFor(async () => (await paymentRow(tx)).status === "completed", "the payment completed by its notice");
  await settleDueBalances({ now: new Date(Date.now() + 3 * 86_400_000), merchantId: m.merchantId });
  // Since the payment, its provider left this instance's configuration.
  await db().transaction.update({ where: { id: tx }, data: { provider: "retiredpay" } });

  const refund = await api(`/payments/${tx}/refund`, { key, body: { amount: 10, reason: "requested_by_customer" } });
  assert.equal(refund.status, 200, refund.text);
  const claimId = refund.body.refundId as string;
  left.push(claimId);
  const action = () => db().scheduledAction.findFirstOrThrow({ where: { claimId } });
  const claim = () => db().claim.findUniqueOrThrow({ where: { id: claimId } });
  // The server's job tries it at once and a few times more, each failing before any answer; once
  // its wait is seconds long, the test drives the job with its own clock.
  await waitFor(async () => (await action()).errors >= 3, "the refund step tried and retried", 30_000);
  const created = (await action()).createdAt.getTime();
  assert.match((await action()).lastError ?? "", /not configured/);

  // Before the hour: retried with the usual back-off (at most 5 minutes), nobody told yet.
  const early = new Date(created + HOUR - 10 * MINUTE);
  assert.deepEqual(await runScheduledActions({ merchantId: m.merchantId, now: early }), { done: 0, failed: 1 });
  let a = await action();
  assert.equal((await claim()).attentionAt, null, "not raised within the hour");
  assert.ok(a.dueAt.getTime() - early.getTime() <= 5 * MINUTE, `the usual back-off (${a.dueAt.getTime() - early.getTime()} ms)`);

  // Past the hour: raised to an operator; still pending, its money still frozen, not given up.
  const late = new Date(created + HOUR + 10 * MINUTE);
  assert.deepEqual(await runScheduledActions({ merchantId: m.merchantId, now: late }), { done: 0, failed: 1 });
  const raised = await claim();
  assert.equal(raised.attentionAt?.getTime(), late.getTime(), "raised to an operator");
  assert.equal(raised.status, "pending");
  assert.equal((await api(`/claims/${claimId}`, { key })).body.claim.status, "pending", "the merchant still sees it pending");
  a = await action();
  assert.deepEqual([a.state, a.attempts], ["pending", 0], "never given up");
  assert.ok(a.dueAt.getTime() - late.getTime() >= HOUR, `tried again in an hour, not 5 minutes (${a.dueAt.getTime() - late.getTime()} ms)`);

  const metrics = await fetch(`${API_URL}/metrics`, { headers: { authorization: `Bearer ${process.env.METRICS_TOKEN}` } }).then((r) => r.text());
  assert.ok(Number(/^lp_claims_need_attention (\d+)/m.exec(metrics)?.[1]) >= 1, "lp_claims_need_attention");
  const listed = JSON.parse(tsx(["scripts/cli.ts", "claims:attention", "--json"], {})) as { claims: Array<{ id: string; provider: string; merchantId: string; attentionAt: string; lastError: string | null }> };
  const mine = listed.claims.find((c) => c.id === claimId);
  assert.ok(mine, "listed for the operator");
  assert.deepEqual([mine.provider, mine.merchantId, mine.attentionAt], ["retiredpay", m.merchantId, late.toISOString()]);
  assert.match(mine.lastError ?? "", /not configured/);

  // Hourly from now on: nothing half an hour later, one more try after the hour, raised once.
  assert.deepEqual(await runScheduledActions({ merchantId: m.merchantId, now: new Date(late.getTime() + 30 * MINUTE) }), { done: 0, failed: 0 });
  const next = new Date(a.dueAt.getTime() + 1);
  assert.deepEqual(await runScheduledActions({ merchantId: m.merchantId, now: next }), { done: 0, failed: 1 });
  assert.ok((await action()).dueAt.getTime() - next.getTime() >= HOUR);
  assert.equal((await claim()).attentionAt?.getTime(), late.getTime(), "raised once");
});
