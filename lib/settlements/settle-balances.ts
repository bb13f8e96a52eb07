// Settlement: completed payments whose settlement date has come move their net from `pending`
// to `available` (minus whatever refunds or chargebacks already took out of pending).
import { db } from "@/lib/platform/db";
import { settlement } from "@/lib/ledger/recipes";
import { forEachDueTransaction } from "@/lib/ledger/each-due";

/**
 * `merchantId`: only that merchant's due payments (an operator catching one merchant up, or a test
 * that moves time forward for its own merchant without settling 500 of everyone else's first).
 */
export async function settleDueBalances(opts: { now?: Date; limit?: number; merchantId?: string } = {}): Promise<number> {
  const now = opts.now ?? new Date();
  const due = await db().transaction.findMany({
    where: { completedAt: { not: null }, settlementStatus: "pending", settleAt: { lte: now }, ...(opts.merchantId ? { merchantId: opts.merchantId } : {}) },
    select: { id: true },
    orderBy: { settleAt: "asc" },
    take: opts.limit ?? 500,
  });
  return settleTransactions(due.map((d) => d.id));
}

/**
 * The one settlement recipe, for the daily job and the sandbox's "settle now"
 * (lib/settlements/settle-now.ts): each still-pending payment, locked, moves its net through the
 * money kernel. Returns how many moved.
 */
export function settleTransactions(ids: string[]): Promise<number> {
  return forEachDueTransaction(
    ids,
    { name: "settle", stillDue: "settlement_status = 'pending'", status: (t) => t.settlementStatus, from: ["pending"] },
    async (tx, t) => {
      await tx.transaction.update({ where: { id: t.id }, data: { settlementStatus: "settled" } });
      return { result: true, postings: [settlement(t)] };
    },
  );
}
