// Payment counts per hour, so the dashboard's overview costs the same for a merchant with a
// million payments as for a new one (issue 23, point 5). A trigger on `transactions`
// (migration 20261126214321_payment_rollups) appends a delta row for every counted change —
// a payment created, its status changed, paid or not, deleted — in the same transaction as the
// change, so the counts can never disagree with the payments and no two payments of a merchant
// wait for one counter row. The fold-payment-rollups job moves the deltas into
// `payment_hourly_rollups`; a reader adds what is not folded yet, in one statement (one snapshot).
import { db, sql } from "@/lib/platform/db";
import { sqlShared } from "@/lib/platform/shared-reads";
import type { Environment } from "@/lib/generated/prisma/enums";

/** One advisory lock for the fold: one folder at a time (two would upsert the same counters). */
const FOLD_LOCK = 0x6c70_726f; // "lpro"

export type HourlyOutcome = { hour: Date; status: string; payments: number; paidVolumeUsd: bigint };

/** Counts per UTC hour and status from `since` on (every shop): folded rollups plus unfolded deltas. */
export async function hourlyOutcomes(scope: { merchantId: string; environment: Environment }, since: Date): Promise<HourlyOutcome[]> {
  const rows = await sql<{ hour: Date; status: string; n: string; volume: string }>(
    `SELECT hour, status::text AS status, sum(payments)::bigint AS n, sum(paid_volume_usd)::bigint AS volume FROM (
        SELECT hour, status, payments, paid_volume_usd FROM payment_hourly_rollups
         WHERE merchant_id = $1 AND environment = $2::"Environment" AND hour >= $3
        UNION ALL
        SELECT hour, status, payments, paid_volume_usd FROM payment_rollup_deltas
         WHERE merchant_id = $1 AND environment = $2::"Environment" AND hour >= $3
      ) counted GROUP BY 1, 2 HAVING sum(payments) <> 0 OR sum(paid_volume_usd) <> 0`,
    [scope.merchantId, scope.environment, since],
  );
  return rows.map((r) => ({ hour: new Date(r.hour), status: r.status, payments: Number(r.n), paidVolumeUsd: BigInt(r.volume) }));
}

export type DailyOutcome = { day: string; status: string; payments: number; paidVolumeUsd: bigint };

/**
 * Counts per calendar day in `timeZone` (YYYY-MM-DD) and status from `since` on (every shop),
 * in one statement (one snapshot): in the merchant's own time zone, the daily rollups (30 rows a
 * status for 30 days, whatever the history); in any other zone, the hourly rollups summed into
 * that zone's days; plus the unfolded deltas either way. An hour belongs to the day it starts in.
 */
export async function dailyOutcomes(scope: { merchantId: string; environment: Environment }, since: Date, timeZone: string): Promise<DailyOutcome[]> {
  const rows = await sql<{ day: string; status: string; n: string; volume: string }>(
    `WITH own AS (SELECT EXISTS (SELECT 1 FROM merchants WHERE id = $1 AND rollup_time_zone(time_zone) = $4) AS daily)
     SELECT day::text AS day, status::text AS status, sum(payments)::bigint AS n, sum(paid_volume_usd)::bigint AS volume FROM (
        SELECT day, status, payments, paid_volume_usd FROM payment_daily_rollups
         WHERE (SELECT daily FROM own) AND merchant_id = $1 AND environment = $2::"Environment" AND time_zone = $4 AND day >= ($3::timestamptz AT TIME ZONE $4)::date
        UNION ALL
        SELECT (hour AT TIME ZONE $4)::date, status, payments, paid_volume_usd FROM payment_hourly_rollups
         WHERE NOT (SELECT daily FROM own) AND merchant_id = $1 AND environment = $2::"Environment" AND hour >= $3
        UNION ALL
        SELECT (hour AT TIME ZONE $4)::date, status, payments, paid_volume_usd FROM payment_rollup_deltas
         WHERE merchant_id = $1 AND environment = $2::"Environment" AND hour >= $3
      ) counted GROUP BY 1, 2 HAVING sum(payments) <> 0 OR sum(paid_volume_usd) <> 0`,
    [scope.merchantId, scope.environment, since, timeZone],
  );
  return rows.map((r) => ({ day: r.day, status: r.status, payments: Number(r.n), paidVolumeUsd: BigInt(r.volume) }));
}

/**
 * Moves up to `limit` deltas, oldest first, into the rollups, in one transaction: a delta is
 * either still a delta or already counted, never both nor neither. Returns how many it moved;
 * `busy` when another instance was folding at that moment (and this call moved nothing).
 */
export async function foldPaymentRollups(limit = 50_000): Promise<{ folded: number; busy: boolean }> {
  return db().$transaction(async (tx) => {
    const [lock] = await tx.$queryRaw<{ ok: boolean }[]>`SELECT pg_try_advisory_xact_lock(${FOLD_LOCK}) AS ok`;
    if (!lock?.ok) return { folded: 0, busy: true };
    const [moved] = await tx.$queryRaw<{ n: bigint }[]>`
      WITH moved AS (
        DELETE FROM payment_rollup_deltas WHERE id IN (SELECT id FROM payment_rollup_deltas ORDER BY id LIMIT ${limit})
        RETURNING merchant_id, shop_id, environment, hour, status, payments, paid_volume_usd),
      summed AS (
        SELECT merchant_id, shop_id, environment, hour, status, sum(payments)::bigint AS payments, sum(paid_volume_usd)::bigint AS paid_volume_usd, count(*) AS deltas
          FROM moved GROUP BY 1, 2, 3, 4, 5),
      upserted AS (
        INSERT INTO payment_hourly_rollups AS r (merchant_id, shop_id, environment, hour, status, payments, paid_volume_usd)
        SELECT merchant_id, shop_id, environment, hour, status, payments, paid_volume_usd FROM summed
        ON CONFLICT (merchant_id, environment, hour, status, shop_id)
        DO UPDATE SET payments = r.payments + excluded.payments, paid_volume_usd = r.paid_volume_usd + excluded.paid_volume_usd),
      zones AS (
        SELECT m.id, rollup_time_zone(m.time_zone) AS tz FROM merchants m WHERE m.id IN (SELECT DISTINCT merchant_id FROM summed)),
      daily AS (
        INSERT INTO payment_daily_rollups AS d (merchant_id, shop_id, environment, time_zone, day, status, payments, paid_volume_usd)
        SELECT s.merchant_id, s.shop_id, s.environment, z.tz, (s.hour AT TIME ZONE z.tz)::date, s.status, sum(s.payments), sum(s.paid_volume_usd)
          FROM summed s JOIN zones z ON z.id = s.merchant_id WHERE z.tz IS NOT NULL
         GROUP BY 1, 2, 3, 4, 5, 6
        ON CONFLICT (merchant_id, environment, time_zone, day, status, shop_id)
        DO UPDATE SET payments = d.payments + excluded.payments, paid_volume_usd = d.paid_volume_usd + excluded.paid_volume_usd)
      SELECT coalesce((SELECT sum(deltas) FROM summed), 0)::bigint AS n`;
    return { folded: Number(moved?.n ?? 0), busy: false };
  });
}

/**
 * How many payments a merchant (or one of its shops) has in an environment, optionally of one
 * status: the total of GET /payments without other filters, exact (the deltas are written with
 * the payments) and without counting the payments themselves.
 */
export async function countPayments(scope: { merchantId: string; environment: Environment; shopId?: string; status?: string }): Promise<number> {
  const values: unknown[] = [scope.merchantId, scope.environment];
  let where = `merchant_id = $1 AND environment = $2::"Environment"`;
  if (scope.shopId) where += ` AND shop_id = $${values.push(scope.shopId)}`;
  if (scope.status) where += ` AND status = $${values.push(scope.status)}::"TransactionStatus"`;
  // payment_totals: a row per shop and status, whatever the history (it summed every hourly row
  // of the merchant before: 6,483 rows for a million payments).
  // Shared with the same total's concurrent runs not yet sent (lib/platform/shared-reads.ts): a small
  // merchant's list counts on every request.
  const [row] = await sqlShared<{ n: string | null }>(
    `SELECT (SELECT coalesce(sum(payments), 0) FROM payment_totals WHERE ${where})
          + (SELECT coalesce(sum(payments), 0) FROM payment_rollup_deltas WHERE ${where}) AS n`,
    values,
  );
  return Number(row?.n ?? 0);
}

/** Folds until no delta is left (benchmarks and tests; the job folds a batch a run). */
export async function foldAllPaymentRollups(): Promise<void> {
  for (;;) {
    const r = await foldPaymentRollups();
    if (r.busy) await new Promise((resolve) => setTimeout(resolve, 50));
    else if (r.folded === 0) return;
  }
}
