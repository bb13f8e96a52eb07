// Rolling reserve: each payment's reserve goes back to `available` when its hold (90 days) ends.
import { db } from "@/lib/platform/db";
import { reserveRelease } from "@/lib/ledger/recipes";
import { forEachDueTransaction } from "@/lib/ledger/each-due";

/** `merchantId` limits the run to one merchant's payments (tests that move their own clock). */
export async function releaseDueReserves(opts: { now?: Date; limit?: number; merchantId?: string } = {}): Promise<number> {
  const now = opts.now ?? new Date();
  const due = await db().transaction.findMany({
    where: { reserveReleaseAt: { lte: now }, reserveReleasedAt: null, ...(opts.merchantId ? { merchantId: opts.merchantId } : {}) },
    select: { id: true },
    orderBy: { reserveReleaseAt: "asc" },
    take: opts.limit ?? 500,
  });
  return forEachDueTransaction(
    due.map((d) => d.id),
    { name: "releaseReserve", stillDue: "reserve_released_at IS NULL", status: (t) => (t.reserveReleasedAt ? "released" : "held"), from: ["held"] },
    async (tx, t) => {
      await tx.transaction.update({ where: { id: t.id }, data: { reserveReleasedAt: now } });
      return { result: true, postings: [reserveRelease(t)] };
    },
  );
}
