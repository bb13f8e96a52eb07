// The daily batch: at 00:00 UTC each merchant and environment with a settlement destination gets
// a batch of the previous day(s), once (a batch per period start is unique; runs on several
// instances at once close it once). Skipped below 50 USD available.
// Each merchant's close is its own transaction and its own outcome: one that fails (a deadlock
// its retries did not get past, a bad row) is logged and counted, and the merchants after it are
// closed all the same. It stays due, so the next run (every minute) tries it again.
import { Prisma } from "@/lib/generated/prisma/client";
import { db } from "@/lib/platform/db";
import { log } from "@/lib/platform/log";
import { closeSettlement } from "@/lib/settlements/close-settlement";

const startOfUtcDay = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));

/**
 * `merchantIds`: only those merchants (a test that moves time forward for its own merchants,
 * without closing every other merchant's batch of that day).
 */
export async function closeDueSettlements(opts: { now?: Date; merchantIds?: string[] } = {}): Promise<{ closed: number; skipped: number; failed: number }> {
  const periodTo = startOfUtcDay(opts.now ?? new Date());
  // Destinations whose last batch ended before today's midnight (or that never had one), in a
  // fixed order, so every run goes through them alike.
  const due = await db().$queryRaw<{ merchant_id: string; environment: "sandbox" | "production"; tier: "starter" | "standard" | "premium" }[]>`
    SELECT d.merchant_id, d.environment::text AS environment, m.tier::text AS tier
    FROM settlement_destinations d JOIN merchants m ON m.id = d.merchant_id
    WHERE m.status = 'active' ${opts.merchantIds ? Prisma.sql`AND d.merchant_id = ANY(${opts.merchantIds}::text[])` : Prisma.empty} AND NOT EXISTS (
      SELECT 1 FROM settlements s WHERE s.merchant_id = d.merchant_id AND s.environment = d.environment AND s.period_to >= ${periodTo})
    ORDER BY d.merchant_id, d.environment`;
  let closed = 0;
  let skipped = 0;
  let failed = 0;
  for (const d of due) {
    try {
      const r = await closeSettlement({ merchant: { id: d.merchant_id, tier: d.tier }, environment: d.environment }, { periodTo });
      if (r.settlement) closed++;
      else skipped++;
    } catch (err) {
      failed++;
      log.error({ merchantId: d.merchant_id, environment: d.environment, err: err instanceof Error ? { message: err.message, stack: err.stack } : String(err) }, "settlement batch not closed; the next run tries again");
    }
  }
  return { closed, skipped, failed };
}
