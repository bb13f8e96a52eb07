// The daily batch: at 00:00 UTC each merchant and environment with a settlement destination gets
// a batch of the previous day(s), once (a batch per period start is unique; runs on several
// instances at once close it once). Skipped below 50 USD available.
import { db } from "@/lib/platform/db";
import { closeSettlement } from "@/lib/settlements/close-settlement";

const startOfUtcDay = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));

export async function closeDueSettlements(opts: { now?: Date } = {}): Promise<{ closed: number; skipped: number }> {
  const periodTo = startOfUtcDay(opts.now ?? new Date());
  // Destinations whose last batch ended before today's midnight (or that never had one).
  const due = await db().$queryRaw<{ merchant_id: string; environment: "sandbox" | "production"; tier: "starter" | "standard" | "premium" }[]>`
    SELECT d.merchant_id, d.environment::text AS environment, m.tier::text AS tier
    FROM settlement_destinations d JOIN merchants m ON m.id = d.merchant_id
    WHERE m.status = 'active' AND NOT EXISTS (
      SELECT 1 FROM settlements s WHERE s.merchant_id = d.merchant_id AND s.environment = d.environment AND s.period_to >= ${periodTo})`;
  let closed = 0;
  let skipped = 0;
  for (const d of due) {
    const r = await closeSettlement({ merchant: { id: d.merchant_id, tier: d.tier }, environment: d.environment }, { periodTo });
    if (r.settlement) closed++;
    else skipped++;
  }
  return { closed, skipped };
}
