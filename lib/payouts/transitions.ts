// A payout's moves out of processing (API reference 3.3), and its return after it was paid.
// Each is an operation of the money kernel (lib/ledger/transition.ts): it locks the payout row
// and the merchant's ledger, accepts only the statuses it declares, and writes the status, the
// posting (only for a payout that really debited) and the event together. Applying the same
// outcome twice changes nothing the second time, so a duplicated failure notice reverses the
// debit once.
import type { Tx } from "@/lib/platform/db";
import { payoutCompleted, payoutReturn, payoutReversed, type Posting } from "@/lib/ledger/recipes";
import { lockRow, transition, transitionIn, type Operation } from "@/lib/ledger/transition";
import { presentPayout } from "@/lib/payouts/present";
import type { Payout, Prisma } from "@/lib/generated/prisma/client";

export type PayoutTransition = { payout: Payout; changed: boolean };
/** Runs first in the transition's transaction (a provider notice records its id there). */
export type InTransaction = { inTransaction?: (tx: Tx) => Promise<void> };

export async function lockPayout(tx: Tx, id: string): Promise<Payout | null> {
  return lockRow(tx, "payouts", id, () => tx.payout.findUnique({ where: { id } }));
}

/**
 * A payout leaves `from` for `data.status`: its money moves by `recipe` (when it was debited)
 * and the event is written, all with the status change.
 */
function payoutOp(id: string, from: Payout["status"][], end: { data: Prisma.PayoutUpdateInput; recipe: (p: Payout) => Posting; event: "payout.completed" | "payout.failed" }, opts: InTransaction = {}): Operation<Payout, Payout> {
  return {
    name: `payout:${String(end.data.status)}`,
    before: opts.inTransaction,
    load: (tx) => lockPayout(tx, id),
    ledger: (p) => ({ merchantId: p.merchantId, environment: p.environment, shopId: p.shopId }),
    status: (p) => p.status,
    from,
    apply: async (tx, p) => {
      const updated = await tx.payout.update({ where: { id: p.id }, data: end.data });
      return { result: updated, postings: p.debited ? [end.recipe(p)] : [], events: [{ type: end.event, object: presentPayout(updated) }] };
    },
  };
}

const completeOp = (id: string, at = new Date(), opts: InTransaction = {}) => payoutOp(id, ["processing"], { data: { status: "completed", completedAt: at }, recipe: payoutCompleted, event: "payout.completed" }, opts);

const answer = (r: { changed: boolean; row: Payout | null; result?: Payout }): PayoutTransition => ({ payout: (r.changed ? r.result : r.row)!, changed: r.changed });

/** In `tx`: processing -> completed (the in-flight money leaves for good). The caller wakes the webhook job after commit. */
export async function completePayoutIn(tx: Tx, p: Payout, at = new Date()): Promise<Payout> {
  const r = await transitionIn(tx, completeOp(p.id, at));
  return (r.changed ? r.result : r.row) ?? p;
}

export async function completePayout(id: string, opts: InTransaction = {}): Promise<PayoutTransition> {
  return answer(await transition(completeOp(id, new Date(), opts)));
}

/** processing -> failed: a real debit goes back to the available balance, exactly once. */
export async function failPayout(id: string, reason: string, opts: InTransaction = {}): Promise<PayoutTransition> {
  return answer(await transition(payoutOp(id, ["processing"], { data: { status: "failed", failedAt: new Date(), failureReason: reason.slice(0, 200) }, recipe: payoutReversed, event: "payout.failed" }, opts)));
}

export const RETURNED = "returned";

/**
 * completed -> failed with `failureReason: returned` (the bank returned a payout it had paid,
 * decisions.md): the money comes back to the available balance, once; payout.failed.
 */
export async function returnPayout(id: string, opts: InTransaction = {}): Promise<PayoutTransition> {
  return answer(await transition(payoutOp(id, ["completed"], { data: { status: "failed", failedAt: new Date(), failureReason: RETURNED }, recipe: payoutReturn, event: "payout.failed" }, opts)));
}
