// A payout the bank returned after it was paid (REFUNDED after PAID, decisions.md "Money leaves
// at most once"): completed -> failed with failureReason "returned". Its money comes back from
// payouts_sent to the payout balance in the payout's currency, once: the payout row is locked
// and must still be completed, so a second REFUNDED (or a replay) finds it failed and changes
// nothing. payout.failed is emitted with the status change.
import { db } from "@/lib/db";
import { emitEvent } from "@/lib/events/emit";
import { JOB_EVENTS, wakeJobs } from "@/lib/jobs/wake";
import { lockMerchantLedger, post } from "@/lib/ledger/post";
import { presentPayout } from "@/lib/payouts/present";
import { lockPayout, type InTransaction, type PayoutTransition } from "@/lib/payouts/transitions";

export const RETURNED = "returned";

export async function returnPayout(id: string, opts: InTransaction = {}): Promise<PayoutTransition> {
  const r = await db().$transaction(async (tx) => {
    await opts.inTransaction?.(tx);
    const p = await lockPayout(tx, id);
    if (!p || p.status !== "completed") return { payout: p!, changed: false };
    const updated = await tx.payout.update({ where: { id }, data: { status: "failed", failedAt: new Date(), failureReason: RETURNED } });
    if (p.debited) {
      await lockMerchantLedger(tx, p.merchantId, p.environment);
      await post(tx, {
        merchantId: p.merchantId,
        environment: p.environment,
        kind: "payout_returned",
        legs: [
          { account: "payouts_sent", currency: p.currency, amount: -p.amount },
          { account: "payout_available", currency: p.currency, amount: p.amount },
        ],
      });
    }
    await emitEvent(tx, { merchantId: p.merchantId, environment: p.environment, type: "payout.failed", object: presentPayout(updated) });
    return { payout: updated, changed: true };
  });
  if (r.changed) wakeJobs(JOB_EVENTS.webhooksDue);
  return r;
}
