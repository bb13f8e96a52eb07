// The hourly payment rollups against the test database: after any mix of creations, status
// changes, payments turning paid, moves between hours and deletions, the overview's counts read
// from rollups + deltas equal a scan of the payments themselves, before and after folding; two
// folds at once count every delta once; days follow the merchant's time zone.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { db, sql } from "@/lib/platform/db";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { insertTransaction } from "@/lib/payments/store";
import { railById } from "@/lib/rails/rails";
import { newId } from "@/lib/platform/ids";
import { countPayments, dailyOutcomes, foldAllPaymentRollups, foldPaymentRollups, hourlyOutcomes } from "@/lib/payments/rollups";
import { dailySeries, overview } from "@/lib/dashboard/queries";
import { listPayments } from "@/lib/payments/list-payments";
import { copyTransactions } from "@/lib/test-fixtures/copy-transactions";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

after(() => db().$disconnect());

const HOUR = 3_600_000;

async function merchantWithTemplate(name: string) {
  const m = await createMerchant({ name });
  const rail = railById("1004")!;
  const id = newId("transaction");
  const at = new Date();
  await db().$transaction((tx) =>
    insertTransaction(
      {
        id, merchantId: m.merchantId, shopId: m.shopId, environment: "sandbox", status: "pending", amountUsd: 2500n, amountLocal: 45500n, currencyLocal: "MXN",
        inputCurrency: null, inputAmount: null, paymentMethodId: rail.paymentMethodId, method: rail.method, railName: rail.name, country: rail.countryIso3,
        feePlatform: 90n, feeProvider: 63n, feeNetwork: 50n, reserveAmount: 0n, settlementDelay: rail.settlementDelay, provider: "pagosur", providerRef: null,
        paymentFormUrl: null, instructions: null, hostedCheckout: false, returnUrl: null, merchantOrderId: null, qrOrderId: null, tag1: null, tag2: null, tag3: null,
        userName: "Ana Ruiz", userEmail: "ana@example.com", userPhone: "+525512345678", userIp: null, expiresAt: at, createdAt: at, attempts: [],
        settlementStatus: "pending", settleAt: null, refundedLocal: 0n, pendingDebited: 0n, reserveReleaseAt: null, reserveReleasedAt: null, completedAt: null,
      },
      "18.2",
      tx,
    ),
  );
  const auth = { merchant: { id: m.merchantId }, environment: "sandbox" } as unknown as AuthContext;
  return { ...m, templateId: id, auth };
}

/** n copies of the template created `hoursAgo` hours ago, with amount `usd` (minor units). */
async function copies(templateId: string, n: number, hoursAgo: number, usd: number): Promise<string[]> {
  const ids = Array.from({ length: n }, () => newId("transaction"));
  const over: Record<string, string> = { id: "n.id", created_at: "$2::timestamptz", updated_at: "$2::timestamptz", amount_usd: "$3::bigint", merchant_order_id: "n.id" };
  await copyTransactions(templateId, over, "unnest($4::text[]) AS n(id)", [new Date(Date.now() - hoursAgo * HOUR), usd, ids]);
  return ids;
}

/** What the overview counted before the rollups: a scan of the merchant's payments. */
async function scanned(merchantId: string, since: Date) {
  const rows = await sql<{ hour: Date; status: string; n: string; volume: string | null }>(
    `SELECT date_trunc('hour', created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS hour, status::text AS status, count(*) AS n,
            coalesce(sum(amount_usd) FILTER (WHERE completed_at IS NOT NULL), 0) AS volume
       FROM transactions WHERE merchant_id = $1 AND environment = 'sandbox' AND created_at >= $2 GROUP BY 1, 2`,
    [merchantId, since],
  );
  return rows.map((r) => `${new Date(r.hour).toISOString()} ${r.status} ${r.n} ${r.volume}`).sort();
}
async function rolled(merchantId: string, since: Date) {
  return (await hourlyOutcomes({ merchantId, environment: "sandbox" }, since)).map((r) => `${r.hour.toISOString()} ${r.status} ${r.payments} ${r.paidVolumeUsd}`).sort();
}

test("rollups + deltas equal a scan of the payments after creations, status changes, paid, moves and deletions, before and after folding", async () => {
  const m = await merchantWithTemplate("Rollups");
  const since = new Date(Date.now() - 40 * 86_400_000);
  const recent = await copies(m.templateId, 30, 1, 1_000);
  const older = await copies(m.templateId, 20, 50, 700);
  assert.deepEqual(await rolled(m.merchantId, since), await scanned(m.merchantId, since), "after inserts");

  await sql(`UPDATE transactions SET status = 'completed', completed_at = now() WHERE id = ANY($1::text[])`, [recent.slice(0, 12)]);
  await sql(`UPDATE transactions SET status = 'failed' WHERE id = ANY($1::text[])`, [recent.slice(12, 20)]);
  await sql(`UPDATE transactions SET status = 'refunded' WHERE id = ANY($1::text[])`, [recent.slice(0, 3)]); // paid, then refunded: still paid volume
  await sql(`UPDATE transactions SET status = 'completed', completed_at = now() WHERE id = ANY($1::text[])`, [older.slice(0, 5)]);
  // An update that counts nothing (a reconciliation schedule) leaves no delta.
  const before = (await sql<{ n: string }>(`SELECT count(*) AS n FROM payment_rollup_deltas`))[0]!.n;
  await sql(`UPDATE transactions SET next_check_at = now() WHERE id = ANY($1::text[])`, [older]);
  assert.equal((await sql<{ n: string }>(`SELECT count(*) AS n FROM payment_rollup_deltas`))[0]!.n, before);
  assert.deepEqual(await rolled(m.merchantId, since), await scanned(m.merchantId, since), "after status changes");

  await foldAllPaymentRollups();
  assert.deepEqual(await rolled(m.merchantId, since), await scanned(m.merchantId, since), "after a fold");

  // A payment moved to another hour (a correction), one deleted, more changes after the fold.
  await sql(`UPDATE transactions SET created_at = created_at - interval '3 hours' WHERE id = $1`, [recent[25]]);
  await sql(`DELETE FROM transactions WHERE id = $1`, [recent[26]]);
  await sql(`UPDATE transactions SET status = 'expired' WHERE id = ANY($1::text[])`, [older.slice(10, 15)]);
  assert.deepEqual(await rolled(m.merchantId, since), await scanned(m.merchantId, since), "after more changes, half folded");
  await foldAllPaymentRollups();
  assert.deepEqual(await rolled(m.merchantId, since), await scanned(m.merchantId, since), "after a second fold");


  // The overview's 30 days, from the rollups: 12 + 5 paid (3 of them refunded since), 8 failed
  // and 5 expired (both count against the rate).
  const series = await dailySeries(m.auth);
  const sum = (k: "succeeded" | "failed" | "pending") => series.reduce((s, d) => s + d[k], 0);
  const [scan] = await sql<{ paid: string; volume: string }>(
    `SELECT count(*) FILTER (WHERE completed_at IS NOT NULL) AS paid, coalesce(sum(amount_usd) FILTER (WHERE completed_at IS NOT NULL), 0) AS volume FROM transactions WHERE merchant_id = $1`,
    [m.merchantId],
  );
  assert.equal(sum("failed"), 13);
  assert.equal(sum("succeeded"), 17);
  assert.equal(series.reduce((s, d) => s + d.volume, 0), Number(scan!.volume) / 100);
  assert.equal(Number(scan!.paid), 17);

  // The overview's recent payments are the list's first page, read without its total.
  const auth = { ...m.auth, merchant: await db().merchant.findUniqueOrThrow({ where: { id: m.merchantId } }) } as AuthContext;
  const view = await overview(auth);
  assert.deepEqual(view.recent, (await listPayments(auth, { limit: 8 } as Parameters<typeof listPayments>[1])).data);
  assert.equal(view.recent.length, 8);

  // GET /payments' total without other filters: merchant-wide, per shop, per status.
  const exact = async (extra: string, values: unknown[]) => Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM transactions WHERE merchant_id = $1 AND environment = 'sandbox' ${extra}`, [m.merchantId, ...values]))[0]!.n);
  await sql(`UPDATE transactions SET status = 'completed', completed_at = now() WHERE id = ANY($1::text[])`, [older.slice(15, 18)]); // unfolded again
  assert.equal(await countPayments({ merchantId: m.merchantId, environment: "sandbox" }), await exact("", []));
  assert.equal(await countPayments({ merchantId: m.merchantId, environment: "sandbox", shopId: m.shopId }), await exact("AND shop_id = $2", [m.shopId]));
  assert.equal(await countPayments({ merchantId: m.merchantId, environment: "sandbox", shopId: "shp_other" }), 0);
  for (const status of ["pending", "completed", "failed", "refunded", "expired"]) {
    assert.equal(await countPayments({ merchantId: m.merchantId, environment: "sandbox", status }), await exact("AND status = $2::\"TransactionStatus\"", [status]), status);
  }
  assert.equal(await countPayments({ merchantId: m.merchantId, environment: "production" }), 0);

  // The all-time totals follow the hourly rows, whoever writes them: the fold, and a deletion.
  await foldAllPaymentRollups();
  assert.deepEqual(await totals(m.merchantId), await hourlySums(m.merchantId));
  assert.ok((await totals(m.merchantId)).length > 1);
  await sql(`DELETE FROM payment_hourly_rollups WHERE merchant_id = $1 AND status = 'failed'`, [m.merchantId]);
  assert.deepEqual(await totals(m.merchantId), await hourlySums(m.merchantId));
});

test("two folds at once count every delta exactly once", async () => {
  const m = await merchantWithTemplate("Rollups concurrent");
  const since = new Date(Date.now() - 2 * 86_400_000);
  for (let i = 0; i < 5; i++) await copies(m.templateId, 40, i, 100 + i);
  const results = await Promise.all([foldPaymentRollups(50), foldPaymentRollups(50), foldPaymentRollups(50)]);
  assert.ok(results.some((r) => r.folded > 0));
  await foldAllPaymentRollups();
  assert.deepEqual(await rolled(m.merchantId, since), await scanned(m.merchantId, since));
  const [left] = await sql<{ n: string }>(`SELECT count(*) AS n FROM payment_rollup_deltas WHERE merchant_id = $1`, [m.merchantId]);
  assert.equal(Number(left!.n), 0);
  assert.deepEqual(await totals(m.merchantId), await hourlySums(m.merchantId));
});

/** payment_totals of a merchant, per shop, environment and status (zeros left out). */
async function totals(merchantId: string) {
  const rows = await sql<{ k: string }>(`SELECT shop_id || ' ' || environment || ' ' || status || ' ' || payments AS k FROM payment_totals WHERE merchant_id = $1 AND payments <> 0 ORDER BY 1`, [merchantId]);
  return rows.map((r) => r.k);
}

/** The same from the hourly rollups: what the totals must say. */
async function hourlySums(merchantId: string) {
  const rows = await sql<{ k: string }>(
    `SELECT shop_id || ' ' || environment || ' ' || status || ' ' || sum(payments) AS k FROM payment_hourly_rollups WHERE merchant_id = $1 GROUP BY shop_id, environment, status HAVING sum(payments) <> 0 ORDER BY 1`,
    [merchantId],
  );
  return rows.map((r) => r.k);
}

test("days are the merchant's calendar days: 02:00 UTC is still yesterday in Mexico City", async () => {
  const m = await merchantWithTemplate("Rollups time zone");
  // An hour that is 02:00 UTC on a recent day: 20:00 of the day before in Mexico City (UTC-6).
  const at = new Date();
  at.setUTCDate(at.getUTCDate() - 2);
  at.setUTCHours(2, 30, 0, 0);
  const [id] = await copies(m.templateId, 1, 0, 4_200);
  await sql(`UPDATE transactions SET created_at = $2, status = 'completed', completed_at = $2 WHERE id = $1`, [id, at]);
  const utcDay = at.toISOString().slice(0, 10);
  const mxDay = new Date(at.getTime() - 6 * 3_600_000).toISOString().slice(0, 10);
  const utc = await dailySeries(m.auth, 30);
  const mx = await dailySeries(m.auth, 30, "America/Mexico_City");
  assert.equal(utc.find((d) => d.day === utcDay)?.volume, 42);
  assert.equal(mx.find((d) => d.day === mxDay)?.volume, 42);
  assert.equal(mx.find((d) => d.day === utcDay)?.volume ?? 0, 0);
});

/** The days of a scan of the merchant's payments in `timeZone`: what the daily rollups must say. */
async function scannedDays(merchantId: string, since: Date, timeZone: string) {
  const rows = await sql<{ day: string; status: string; n: string; volume: string | null }>(
    `SELECT (date_trunc('hour', created_at) AT TIME ZONE $3)::date::text AS day, status::text AS status, count(*) AS n,
            coalesce(sum(amount_usd) FILTER (WHERE completed_at IS NOT NULL), 0) AS volume
       FROM transactions WHERE merchant_id = $1 AND environment = 'sandbox' AND created_at >= $2 GROUP BY 1, 2`,
    [merchantId, since, timeZone],
  );
  return rows.map((r) => `${r.day} ${r.status} ${r.n} ${r.volume}`).sort();
}
async function rolledDays(merchantId: string, since: Date, timeZone: string) {
  return (await dailyOutcomes({ merchantId, environment: "sandbox" }, since, timeZone)).map((r) => `${r.day} ${r.status} ${r.payments} ${r.paidVolumeUsd}`).sort();
}

test("daily rollups in the merchant's time zone equal a scan by local day, before and after folds; another zone reads the hours; a new zone rebuilds the days", async () => {
  const m = await merchantWithTemplate("Rollups days");
  await sql(`UPDATE merchants SET time_zone = 'America/Sao_Paulo' WHERE id = $1`, [m.merchantId]);
  // Whole days (the first, partial one read from days is past `since`: compare from a day boundary on).
  const since = new Date(Date.now() - 40 * 86_400_000);
  const from = new Date(since.getTime() + 86_400_000);
  const spread = [1, 2, 3, 5, 8, 20, 22, 26, 30, 47, 70, 200];
  for (const [i, h] of spread.entries()) await copies(m.templateId, 2 + i, h, 300 + i);
  const paid = await copies(m.templateId, 4, 25, 900);
  await sql(`UPDATE transactions SET status = 'completed', completed_at = now() WHERE id = ANY($1)`, [paid]);
  const days = async (tz: string) => (await rolledDays(m.merchantId, since, tz)).filter((r) => r.slice(0, 10) >= from.toISOString().slice(0, 10));
  const truth = async (tz: string) => (await scannedDays(m.merchantId, since, tz)).filter((r) => r.slice(0, 10) >= from.toISOString().slice(0, 10));
  assert.deepEqual(await days("America/Sao_Paulo"), await truth("America/Sao_Paulo"), "deltas only");
  await foldAllPaymentRollups();
  const [folded] = await sql<{ n: string }>(`SELECT count(*) AS n FROM payment_daily_rollups WHERE merchant_id = $1 AND time_zone = 'America/Sao_Paulo'`, [m.merchantId]);
  assert.ok(Number(folded!.n) > 0, "the fold wrote days in the merchant's zone");
  assert.deepEqual(await days("America/Sao_Paulo"), await truth("America/Sao_Paulo"), "daily rollups");
  await copies(m.templateId, 3, 4, 111);
  assert.deepEqual(await days("America/Sao_Paulo"), await truth("America/Sao_Paulo"), "daily rollups + new deltas");
  // Another zone than the merchant's: summed from the hourly rollups.
  assert.deepEqual(await days("America/Mexico_City"), await truth("America/Mexico_City"), "another zone");
  // The merchant moves: its days are rebuilt in the new zone at once (the trigger), the old ones gone.
  await foldAllPaymentRollups();
  await sql(`UPDATE merchants SET time_zone = 'America/Mexico_City' WHERE id = $1`, [m.merchantId]);
  const zones = await sql<{ tz: string }>(`SELECT DISTINCT time_zone AS tz FROM payment_daily_rollups WHERE merchant_id = $1`, [m.merchantId]);
  assert.deepEqual(zones.map((z) => z.tz), ["America/Mexico_City"]);
  assert.deepEqual(await days("America/Mexico_City"), await truth("America/Mexico_City"), "rebuilt in the new zone");
});

test("a time zone PostgreSQL does not know never stops the fold: that merchant's days come from the hours", async () => {
  const m = await merchantWithTemplate("Rollups odd zone");
  const other = await merchantWithTemplate("Rollups next to it");
  await sql(`UPDATE merchants SET time_zone = 'Mars/Olympus_Mons' WHERE id = $1`, [m.merchantId]);
  await copies(m.templateId, 2, 3, 500);
  await copies(other.templateId, 2, 3, 500);
  await foldAllPaymentRollups();
  const [left] = await sql<{ n: string }>(`SELECT count(*) AS n FROM payment_rollup_deltas WHERE merchant_id = ANY($1)`, [[m.merchantId, other.merchantId]]);
  assert.equal(Number(left!.n), 0, "both merchants' deltas were folded");
  const since = new Date(Date.now() - 2 * 86_400_000);
  assert.deepEqual(await rolledDays(m.merchantId, since, "UTC"), await scannedDays(m.merchantId, since, "UTC"));
});
