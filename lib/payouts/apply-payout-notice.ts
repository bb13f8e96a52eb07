// POST /providers/{provider}/payouts: a provider reports a payout's outcome, through the notice
// pipeline (verify, parse, record once, dispatch; the notice id commits with its effect). PAID
// completes; REJECTED fails the payout and reverses its debit; REFUNDED fails a payout still
// processing, and returns one already completed (the bank sent the money back after paying:
// credited back to the payout balance once, payout.failed with failureReason "returned"). A
// payout no longer in the status a notice moves changes nothing.
import { db } from "@/lib/platform/db";
import { log } from "@/lib/platform/log";
import { payoutNoticeBody } from "@/lib/payouts/schema";
import { completePayout, failPayout, lockPayout, returnPayout } from "@/lib/payouts/transitions";
import { receiveNotice } from "@/lib/providers/notice-pipeline";

/** A REFUNDED notice found the payout completed under the lock: it is a return, not a failure. */
class PaidMeanwhile extends Error {}

export async function applyPayoutNotice(provider: string, rawBody: string, signature: string | null) {
  return receiveNotice(provider, rawBody, signature, payoutNoticeBody, async (n, record) => {
    const p =
      (await db().payout.findFirst({ where: { provider, providerRef: n.payoutId }, select: { id: true, status: true } })) ??
      (n.reference ? await db().payout.findFirst({ where: { id: n.reference, provider }, select: { id: true, status: true } }) : null);
    if (!p) {
      log.warn({ provider, payoutId: n.payoutId, noticeId: n.noticeId }, "payout notice for an unknown payout");
      return false;
    }
    const opts = { inTransaction: record };
    const reason = n.reason ? `${n.status.toLowerCase()}: ${n.reason}` : n.status.toLowerCase();
    let changed: boolean;
    if (n.status === "PAID") changed = (await completePayout(p.id, opts)).changed;
    else if (n.status === "REFUNDED") {
      try {
        // Decided under the row lock: a PAID applied since our read makes this a return.
        const refundedFirst = {
          inTransaction: async (tx: Parameters<typeof record>[0]) => {
            await record(tx);
            if ((await lockPayout(tx, p.id))?.status === "completed") throw new PaidMeanwhile();
          },
        };
        changed = (await failPayout(p.id, reason, refundedFirst)).changed;
      } catch (err) {
        if (!(err instanceof PaidMeanwhile)) throw err;
        changed = (await returnPayout(p.id, opts)).changed;
      }
    } else changed = (await failPayout(p.id, reason, opts)).changed;
    if (!changed) log.info({ provider, payout: p.id, status: p.status, notice: n.status }, "payout notice changed nothing; acknowledged");
    return changed;
  });
}
