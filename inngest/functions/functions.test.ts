// Each Inngest function through @inngest/test: it calls its job for real (against the test
// database), sleeps until a scheduled action is due, and asks for a retry when work remains.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { InngestTestEngine } from "@inngest/test";
import { functions, functionOf } from "@/inngest/functions";
import { JOBS } from "@/lib/jobs/registry";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { createPayment } from "@/lib/payments/create-payment";
import { authenticate } from "@/lib/platform/auth/authenticate";
import { db } from "@/lib/platform/db";

after(() => db().$disconnect());

const runScheduledActionsFn = functionOf("run-scheduled-actions");
const deliverWebhooksFn = functionOf("deliver-webhooks");
const reconcilePendingFn = functionOf("reconcile-pending");
const verifyLedgersFn = functionOf("verify-ledgers");

const opts = (fn: unknown) => (fn as { opts: { id: string; retries?: number; triggers?: unknown[] } }).opts;

test("one Inngest function per registered job, with its retries, cron and wake signals", () => {
  assert.equal(functions.length, JOBS.length);
  assert.equal(new Set(JOBS.map((j) => j.name)).size, JOBS.length, "job names are unique");
  for (const [i, job] of JOBS.entries()) {
    assert.equal(opts(functions[i]).id, job.name);
    assert.equal(opts(functions[i]).retries, job.retries);
    assert.deepEqual(opts(functions[i]).triggers, [...(job.wakeOn ?? []).map((event) => ({ event })), { cron: job.cron }]);
  }
  // Each payment has its own next check: the sweep runs every minute and claims what is due.
  assert.deepEqual(opts(reconcilePendingFn).triggers, [{ cron: "* * * * *" }]);
  assert.ok((opts(runScheduledActionsFn).triggers ?? []).some((t: any) => t.event === "app/scheduled-action.created"));
});

test("run-scheduled-actions sleeps until the action is due, then runs the due actions", async () => {
  const m = await createMerchant({ name: "Inngest", tier: "premium" });
  const auth = await authenticate(`Bearer ${m.sandbox.secretKey}`, null, { permission: "collect" });
  const payment = await createPayment(auth, { amount: 10, paymentMethodId: "sbx_card" }, { simulate: "paid" });
  const action = await db().scheduledAction.findFirstOrThrow({ where: { transactionId: payment.transactionId } });
  const dueAt = action.dueAt;
  // The sleep is mocked (as @inngest/test requires); when it "ends", the action is due.
  const t = new InngestTestEngine({ function: runScheduledActionsFn });
  const { ctx, result } = await t.execute({
    events: [{ name: "app/scheduled-action.created", data: { id: action.id, dueAt: dueAt.toISOString() } }],
    steps: [{ id: "wait-until-due", handler: async () => void (await db().scheduledAction.update({ where: { id: action.id }, data: { dueAt: new Date(Date.now() - 1000) } })) }],
  });
  const sleep = (ctx.step.sleepUntil as any).mock.calls[0];
  assert.equal(sleep[0], "wait-until-due");
  assert.equal(new Date(sleep[1]).getTime(), dueAt.getTime());
  assert.ok((result as { done: number }).done >= 1);
  assert.equal((await db().transaction.findUniqueOrThrow({ where: { id: payment.transactionId } })).status, "completed");
});

test("run-scheduled-actions as a cron sweep does not sleep", async () => {
  const t = new InngestTestEngine({ function: runScheduledActionsFn });
  const { ctx, result } = await t.execute({ events: [{ name: "inngest/scheduled.timer", data: {} }] });
  assert.equal((ctx.step.sleepUntil as any).mock.calls.length, 0);
  assert.equal(typeof (result as { done: number }).done, "number");
});

test("deliver-webhooks fans out, delivers, and asks to run again at once when a run stopped with work left", async () => {
  const t = new InngestTestEngine({ function: deliverWebhooksFn });
  const normal = await t.execute();
  const r = normal.result as { "fan-out-events": number; "deliver-due": { attempted: number } };
  assert.equal(typeof r["fan-out-events"], "number");
  assert.equal(typeof r["deliver-due"].attempted, "number");
  assert.deepEqual((normal.ctx.step.run as any).mock.calls.map((c: unknown[]) => c[0]), ["fan-out-events", "deliver-due"]);

  // A fresh engine: step state is per engine run history.
  const full = await new InngestTestEngine({ function: deliverWebhooksFn }).execute({ steps: [{ id: "deliver-due", handler: () => ({ attempted: 200, succeeded: 0, more: true }) }] });
  assert.equal((full.error as Error | undefined)?.name, "RetryAfterError");
});

test("reconcile-pending polls providers; each sweep job runs its step", async () => {
  const rec = await new InngestTestEngine({ function: reconcilePendingFn }).execute();
  assert.deepEqual(Object.keys(rec.result as object).sort(), ["batches", "changed", "checked", "firstChecks", "maxFirstCheckLagMs", "maxLagMs", "more"]);
  for (const name of ["settle-balances", "release-reserves", "dispatch-payouts", "check-payout-status", "expire-checkout-sessions", "sweep-provisioning-accounts"]) {
    const r = await new InngestTestEngine({ function: functionOf(name) }).execute();
    assert.equal(r.error, undefined, name);
    assert.deepEqual((r.ctx.step.run as any).mock.calls.map((c: unknown[]) => c[0]), JOBS.find((j) => j.name === name)!.steps.map((s) => s.name), name);
  }
});

test("verify-ledgers recomputes the ledgers with new entries and reports what it checked", async () => {
  const m = await createMerchant({ name: "Inngest ledger", tier: "premium" });
  const auth = await authenticate(`Bearer ${m.sandbox.secretKey}`, null, { permission: "collect" });
  const payment = await createPayment(auth, { amount: 10, paymentMethodId: "sbx_card" }, {});
  const { completePayment } = await import("@/lib/payments/transitions");
  await completePayment(payment.transactionId);
  const { result } = await new InngestTestEngine({ function: verifyLedgersFn }).execute();
  const mine = (result as { merchantId: string; warnings: unknown[] }[]).find((c) => c.merchantId === m.merchantId);
  assert.ok(mine, "the merchant's ledger was checked");
  assert.deepEqual(mine.warnings, []);
  assert.equal(opts(verifyLedgersFn).retries, 3);
});
