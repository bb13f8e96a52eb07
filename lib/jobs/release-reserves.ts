// Rolling reserve: each payment's reserve goes back to `available` when its hold (90 days) ends.
import { db } from "@/lib/db";
import { lockMerchantLedger, post } from "@/lib/ledger/post";
import { forEachDueTransaction } from "@/lib/jobs/each-due";

export async function releaseDueReserves(opts: { now?: Date; limit?: number } = {}): Promise<number> {
  const now = opts.now ?? new Date();
  const due = await db().transaction.findMany({
    where: { reserveReleaseAt: { lte: now }, reserveReleasedAt: null },
    select: { id: true },
    orderBy: { reserveReleaseAt: "asc" },
    take: opts.limit ?? 500,
  });
  return forEachDueTransaction(due.map((d) => d.id), "reserve_released_at IS NULL", async (tx, t) => {
    await lockMerchantLedger(tx, t.merchantId, t.environment);
    await post(tx, {
      merchantId: t.merchantId,
      environment: t.environment,
      kind: "reserve_release",
      transactionId: t.id,
      legs: [
        { account: "reserve", currency: "USD", amount: -t.reserveAmount },
        { account: "available", currency: "USD", amount: t.reserveAmount },
      ],
    });
    await tx.transaction.update({ where: { id: t.id }, data: { reserveReleasedAt: now } });
  });
}
