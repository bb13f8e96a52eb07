// Rolling reserve: each payment's reserve goes back to `available` when its hold (90 days) ends.
import { db } from "@/lib/db";
import { lockMerchantLedger, post } from "@/lib/ledger/post";

export async function releaseDueReserves(opts: { now?: Date; limit?: number } = {}): Promise<number> {
  const now = opts.now ?? new Date();
  const due = await db().transaction.findMany({
    where: { reserveReleaseAt: { lte: now }, reserveReleasedAt: null },
    select: { id: true },
    orderBy: { reserveReleaseAt: "asc" },
    take: opts.limit ?? 500,
  });
  let released = 0;
  for (const { id } of due) {
    const did = await db().$transaction(async (tx) => {
      const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM transactions WHERE id = ${id} AND reserve_released_at IS NULL FOR UPDATE SKIP LOCKED`;
      if (rows.length === 0) return false;
      const t = (await tx.transaction.findUnique({ where: { id } }))!;
      await lockMerchantLedger(tx, t.merchantId, t.environment);
      await post(tx, {
        merchantId: t.merchantId,
        environment: t.environment,
        kind: "reserve_release",
        transactionId: id,
        legs: [
          { account: "reserve", currency: "USD", amount: -t.reserveAmount },
          { account: "available", currency: "USD", amount: t.reserveAmount },
        ],
      });
      await tx.transaction.update({ where: { id }, data: { reserveReleasedAt: now } });
      return true;
    });
    if (did) released++;
  }
  return released;
}
