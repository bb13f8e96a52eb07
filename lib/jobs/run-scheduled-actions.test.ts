// The refund job against the test database: a thrown error (here the payment's provider is not
// configured, so asking it throws before any answer) is not an attempt. It is retried with a
// growing wait for as long as it keeps failing, and the refund is never given up on (that would
// leave the claim pending with its money frozen and nobody asking the provider). Within its first
// hour nobody is told (claims-refund-stuck.test.ts shows the hour and after). The waits are
// counted from the job's own clock (`now`).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { db } from "@/lib/platform/db";
import { newId } from "@/lib/platform/ids";
import { newClaimId } from "@/lib/claims/transitions";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { refundRetryMs, runScheduledActions } from "@/lib/jobs/run-scheduled-actions";

const left: { actionId?: string; claimId?: string } = {};
after(async () => {
  // The refund step stays retryable for ever: finished here, so the server of the API tests
  // (same database in a whole `npm test`) never picks it up.
  if (left.actionId) await db().scheduledAction.update({ where: { id: left.actionId }, data: { state: "done", doneAt: new Date() } });
  if (left.claimId) await db().claim.update({ where: { id: left.claimId }, data: { status: "rejected", resolvedAt: new Date() } });
  await db().$disconnect();
});

test("a provider refund whose step throws keeps its attempts and is retried with back-off, past the attempt limit", async () => {
  const m = await createMerchant({ name: "Refund job errors" });
  const transactionId = newId("transaction");
  await db().transaction.create({
    data: {
      id: transactionId, merchantId: m.merchantId, shopId: m.shopId, environment: "production", status: "completed", amountUsd: 1000n, amountLocal: 5000n,
      currencyLocal: "BRL", paymentMethodId: "pm_test", method: "pix", railName: "PIX", country: "BR", feePlatform: 0n, feeProvider: 0n, feeNetwork: 0n,
      reserveAmount: 0n, settlementDelay: "T+1", provider: "NOT_CONFIGURED", providerRef: "ref-1", expiresAt: new Date(Date.now() + 3_600_000),
    },
  });
  const claimId = newClaimId();
  await db().claim.create({ data: { id: claimId, merchantId: m.merchantId, environment: "production", transactionId, kind: "user_dispute", status: "pending", amountLocal: 5000n, amountUsd: 1000n, currency: "BRL", history: [] } });
  const actionId = newId("scheduledAction");
  await db().scheduledAction.create({ data: { id: actionId, kind: "claim_resolution", claimId, transactionId, action: "provider_refund", dueAt: new Date() } });
  Object.assign(left, { actionId, claimId });

  // Twelve runs, each when the action is due again: more than the ten attempts any action gets.
  const waits: number[] = [];
  for (let i = 1; i <= 12; i++) {
    const row = await db().scheduledAction.findUniqueOrThrow({ where: { id: actionId } });
    const now = new Date(Math.max(row.dueAt.getTime(), Date.now()) + 1);
    const r = await runScheduledActions({ merchantId: m.merchantId, now });
    assert.deepEqual(r, { done: 0, failed: 1 }, `run ${i}`);
    const after = await db().scheduledAction.findUniqueOrThrow({ where: { id: actionId } });
    assert.equal(after.state, "pending", `run ${i}: still pending, not given up`);
    assert.equal(after.attempts, 0, `run ${i}: a thrown error is not an attempt`);
    assert.equal(after.errors, i);
    assert.match(after.lastError ?? "", /not configured/);
    assert.equal((await db().claim.findUniqueOrThrow({ where: { id: claimId } })).attentionAt, null, `run ${i}: within the hour, nobody is told`);
    waits.push(after.dueAt.getTime() - now.getTime());
  }
  // The waits grow (1 s, 2 s, 4 s, …) up to the cap.
  for (let i = 0; i < waits.length; i++) {
    assert.equal(waits[i], refundRetryMs(i + 1), `wait ${i + 1}`);
  }
  assert.ok(waits[11]! > waits[0]! * 100);
  assert.equal(refundRetryMs(40), 300_000);
  assert.equal((await db().claim.findUniqueOrThrow({ where: { id: claimId } })).status, "pending");
});
