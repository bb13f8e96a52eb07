// Settlement: completed payments whose settlement date has come move their net from `pending`
// to `available` (minus whatever refunds or chargebacks already took out of pending).
import { db } from "@/lib/db";
import { lockMerchantLedger, post } from "@/lib/ledger/post";

export async function settleDueBalances(opts: { now?: Date; limit?: number } = {}): Promise<number> {
  const now = opts.now ?? new Date();
  const due = await db().transaction.findMany({
    where: { completedAt: { not: null }, settlementStatus: "pending", settleAt: { lte: now } },
    select: { id: true },
    orderBy: { settleAt: "asc" },
    take: opts.limit ?? 500,
  });
  let settled = 0;
  for (const { id } of due) {
    const did = await db().$transaction(async (tx) => {
      const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM transactions WHERE id = ${id} AND settlement_status = 'pending' FOR UPDATE SKIP LOCKED`;
      if (rows.length === 0) return false;
      const t = (await tx.transaction.findUnique({ where: { id } }))!;
      const amount = t.amountUsd - t.feePlatform - t.feeProvider - t.feeNetwork - t.reserveAmount - t.pendingDebited;
      await lockMerchantLedger(tx, t.merchantId, t.environment);
      await post(tx, {
        merchantId: t.merchantId,
        environment: t.environment,
        kind: "settlement",
        transactionId: id,
        legs: [
          { account: "pending", currency: "USD", amount: -amount },
          { account: "available", currency: "USD", amount },
        ],
      });
      await tx.transaction.update({ where: { id }, data: { settlementStatus: "settled" } });
      return true;
    });
    if (did) settled++;
  }
  return settled;
}
