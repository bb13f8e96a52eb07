// A pending refund claim reaches its end: resolved (the frozen amount leaves; the payment is
// refunded once everything is; payment.refunded + claim.resolved) or rejected (freeze released).
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { JOB_EVENTS, wakeJobs } from "@/lib/jobs/wake";
import { emitEvent } from "@/lib/events/emit";
import { lockMerchantLedger, post } from "@/lib/ledger/post";
import { lockTransaction } from "@/lib/payments/transitions";
import { presentTransaction } from "@/lib/payments/present";
import { presentClaim, type ClaimHistory } from "@/lib/claims/present";
import type { Claim } from "@/lib/generated/prisma/client";

export async function resolveRefund(claimId: string, outcome: "resolved" | "rejected"): Promise<{ claim: Claim; changed: boolean }> {
  const result = await db().$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM claims WHERE id = ${claimId} FOR UPDATE`;
    const c = await tx.claim.findUnique({ where: { id: claimId } });
    if (!c || c.kind !== "user_dispute") throw new AppError("claim_not_found", "No such refund claim.");
    if (c.status !== "pending") return { claim: c, changed: false };
    const t = (await lockTransaction(tx, c.transactionId))!;
    await lockMerchantLedger(tx, c.merchantId, c.environment);
    const at = new Date();
    await post(tx, {
      merchantId: c.merchantId,
      environment: c.environment,
      kind: outcome === "resolved" ? "refund_resolved" : "refund_rejected",
      transactionId: c.transactionId,
      claimId,
      legs: [
        { account: "frozen", currency: "USD", amount: -c.amountUsd },
        outcome === "resolved" ? { account: "refunds_payable", currency: "USD", amount: c.amountUsd } : { account: "available", currency: "USD", amount: c.amountUsd },
      ],
    });
    const claim = await tx.claim.update({ where: { id: claimId }, data: { status: outcome, resolvedAt: at, history: [...(c.history as ClaimHistory), { status: outcome, at: at.toISOString() }] } });
    if (outcome === "resolved") {
      const refundedLocal = t.refundedLocal + c.amountLocal;
      const updated = await tx.transaction.update({ where: { id: t.id }, data: { refundedLocal, ...(refundedLocal >= t.amountLocal ? { status: "refunded" } : {}) } });
      await emitEvent(tx, { merchantId: c.merchantId, environment: c.environment, type: "payment.refunded", object: presentTransaction(updated) });
    }
    await emitEvent(tx, { merchantId: c.merchantId, environment: c.environment, type: "claim.resolved", object: presentClaim(claim) });
    return { claim, changed: true };
  });
  if (result.changed) wakeJobs(JOB_EVENTS.webhooksDue);
  return result;
}
