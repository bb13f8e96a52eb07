// Settlement: completed payments whose settlement date has come move their net from `pending`
// to `available` (minus whatever refunds or chargebacks already took out of pending).
import { db } from "@/lib/db";
import { settlement } from "@/lib/ledger/recipes";
import { forEachDueTransaction } from "@/lib/jobs/each-due";

export async function settleDueBalances(opts: { now?: Date; limit?: number } = {}): Promise<number> {
  const now = opts.now ?? new Date();
  const due = await db().transaction.findMany({
    where: { completedAt: { not: null }, settlementStatus: "pending", settleAt: { lte: now } },
    select: { id: true },
    orderBy: { settleAt: "asc" },
    take: opts.limit ?? 500,
  });
  return forEachDueTransaction(
    due.map((d) => d.id),
    { name: "settle", stillDue: "settlement_status = 'pending'", status: (t) => t.settlementStatus, from: ["pending"] },
    async (tx, t) => {
      await tx.transaction.update({ where: { id: t.id }, data: { settlementStatus: "settled" } });
      return { result: true, postings: [settlement(t)] };
    },
  );
}
