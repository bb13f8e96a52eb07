// A payout's moves out of processing (API reference 3.3). Each runs in one database transaction
// that locks the payout row, checks it is still processing, and writes the status, the ledger
// posting (only for a payout that really debited) and the event together. Applying the same
// outcome twice changes nothing the second time, so a duplicated failure notice reverses the
// debit once.
import { db, type Tx } from "@/lib/db";
import { emitEvent } from "@/lib/events/emit";
import { JOB_EVENTS, wakeJobs } from "@/lib/jobs/wake";
import { lockMerchantLedger, post } from "@/lib/ledger/post";
import { presentPayout } from "@/lib/payouts/present";
import type { Payout, Prisma } from "@/lib/generated/prisma/client";

export type PayoutTransition = { payout: Payout; changed: boolean };

export async function lockPayout(tx: Tx, id: string): Promise<Payout | null> {
  await tx.$queryRaw`SELECT id FROM payouts WHERE id = ${id} FOR UPDATE`;
  return tx.payout.findUnique({ where: { id } });
}

/**
 * In `tx`: a processing payout ends. Its in-flight money (when it was debited) moves to `to` —
 * out for good when paid, back to the available balance when it failed — and the event is
 * written, all with the status change.
 */
async function closePayout(tx: Tx, p: Payout, end: { data: Prisma.PayoutUpdateInput; kind: "payout_completed" | "payout_reversed"; to: "payouts_sent" | "payout_available"; event: "payout.completed" | "payout.failed" }): Promise<Payout> {
  const updated = await tx.payout.update({ where: { id: p.id }, data: end.data });
  if (p.debited) {
    await lockMerchantLedger(tx, p.merchantId, p.environment);
    await post(tx, {
      merchantId: p.merchantId,
      environment: p.environment,
      kind: end.kind,
      legs: [
        { account: "payout_in_flight", currency: p.currency, amount: -p.amount },
        { account: end.to, currency: p.currency, amount: p.amount },
      ],
    });
  }
  await emitEvent(tx, { merchantId: p.merchantId, environment: p.environment, type: end.event, object: presentPayout(updated) });
  return updated;
}

/** In `tx`: processing -> completed (the in-flight money leaves for good). */
export async function completePayoutIn(tx: Tx, p: Payout, at = new Date()): Promise<Payout> {
  return closePayout(tx, p, { data: { status: "completed", completedAt: at }, kind: "payout_completed", to: "payouts_sent", event: "payout.completed" });
}

function afterCommit(r: PayoutTransition): PayoutTransition {
  if (r.changed) wakeJobs(JOB_EVENTS.webhooksDue);
  return r;
}

/** Runs first in the transition's transaction (a provider notice records its id there, once). */
export type InTransaction = { inTransaction?: (tx: Tx) => Promise<void> };

export async function completePayout(id: string, opts: InTransaction = {}): Promise<PayoutTransition> {
  return afterCommit(
    await db().$transaction(async (tx) => {
      await opts.inTransaction?.(tx);
      const p = await lockPayout(tx, id);
      if (!p || p.status !== "processing") return { payout: p!, changed: false };
      return { payout: await completePayoutIn(tx, p), changed: true };
    }),
  );
}

/** processing -> failed: a real debit goes back to the available balance, exactly once. */
export async function failPayout(id: string, reason: string, opts: InTransaction = {}): Promise<PayoutTransition> {
  return afterCommit(
    await db().$transaction(async (tx) => {
      await opts.inTransaction?.(tx);
      const p = await lockPayout(tx, id);
      if (!p || p.status !== "processing") return { payout: p!, changed: false };
      const updated = await closePayout(tx, p, { data: { status: "failed", failedAt: new Date(), failureReason: reason.slice(0, 200) }, kind: "payout_reversed", to: "payout_available", event: "payout.failed" });
      return { payout: updated, changed: true };
    }),
  );
}
