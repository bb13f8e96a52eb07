// Settlement: completed payments whose settlement date has come move their net from `pending`
// to `available` (minus whatever refunds or chargebacks already took out of pending).
import { db } from "@/lib/db";
import { lockMerchantLedger, post } from "@/lib/ledger/post";
import { forEachDueTransaction } from "@/lib/jobs/each-due";

export async function settleDueBalances(opts: { now?: Date; limit?: number } = {}): Promise<number> {
  const now = opts.now ?? new Date();
  const due = await db().transaction.findMany({
    where: { completedAt: { not: null }, settlementStatus: "pending", settleAt: { lte: now } },
    select: { id: true },
    orderBy: { settleAt: "asc" },
    take: opts.limit ?? 500,
  });
  return forEachDueTransaction(due.map((d) => d.id), "settlement_status = 'pending'", async (tx, t) => {
    const amount = t.amountUsd - t.feePlatform - t.feeProvider - t.feeNetwork - t.reserveAmount - t.pendingDebited;
    await lockMerchantLedger(tx, t.merchantId, t.environment);
    await post(tx, {
      merchantId: t.merchantId,
      environment: t.environment,
      kind: "settlement",
      transactionId: t.id,
      legs: [
        { account: "pending", currency: "USD", amount: -amount },
        { account: "available", currency: "USD", amount },
      ],
    });
    await tx.transaction.update({ where: { id: t.id }, data: { settlementStatus: "settled" } });
  });
}
