// GET /me/balance. Every figure is read, never summed over history: the buckets are the
// ledger's running totals, the 90-day fee summary comes from the daily totals, the movements
// are the newest entries (by seq; the newest 20 of each bucket on the (account, seq) index, then
// merged, so long runs of payout-account entries are never walked), and `ledgerWarnings` is the last result of the verification
// job (lib/ledger/verify-ledgers.ts), which recomputes the ledger from its entries. The balance is
// the merchant's (one per merchant and environment); a shop-bound key's movements leave out
// those another shop's operations posted (the posting's shop; decisions.md, Shops).
import { sql } from "@/lib/platform/db";
import { toMajor } from "@/lib/money/amount";
import { DAILY_ACCOUNTS, MERCHANT_BUCKETS } from "@/lib/ledger/post";
import { RESERVE_BP, WITHDRAWAL_FEE_USD_MINOR } from "@/lib/pricing/fees";
import type { LedgerWarning } from "@/lib/ledger/verify";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

export type { LedgerWarning };

const usd = (m: bigint | null | undefined) => toMajor(m ?? 0n, "USD");
const FEE_DAYS = 90;

type BalanceRow = {
  buckets: { account: string; balance: string }[];
  daily: { account: string; amount: string }[];
  movements: { id: string; account: string; amount: string; created_at: string; kind: string; transaction_id: string | null; claim_id: string | null }[];
  schedule: { day: string; amount: string }[];
  warnings: LedgerWarning[] | null;
};

/**
 * A merchant's reserves not yet released, as the partial index of the reserve schedule has them
 * (migration reserve_schedule_index): only those rows are read, never the released past.
 */
const HELD = `merchant_id = $1 AND environment = $2::"Environment" AND reserve_release_at IS NOT NULL AND reserve_released_at IS NULL AND reserve_amount > 0`;

/**
 * Every figure in one statement (one snapshot, one round trip): the buckets' running totals, the
 * daily totals of the fee window, the newest 20 bucket entries (by seq, per bucket on its index), the
 * reserve schedule (its first three days found one index probe each, then each day's sum: a day of
 * reserves is read, not the 90 days held), and the verification job's last warnings.
 */
const BALANCE_SQL = `SELECT
  (SELECT COALESCE(json_agg(json_build_object('account', account, 'balance', balance::text)), '[]'::json) FROM ledger_balances
    WHERE merchant_id = $1 AND environment = $2::"Environment" AND currency = 'USD' AND account = ANY($3::text[])) AS buckets,
  (SELECT COALESCE(json_agg(json_build_object('account', account, 'amount', amount::text)), '[]'::json) FROM (
    SELECT account, SUM(amount) AS amount FROM ledger_daily_totals
    WHERE merchant_id = $1 AND environment = $2::"Environment" AND currency = 'USD' AND account = ANY($4::text[]) AND day >= $5::date GROUP BY account) d) AS daily,
  (SELECT COALESCE(json_agg(m ORDER BY m.seq DESC), '[]'::json) FROM (
    SELECT e.* FROM unnest($3::text[]) AS b(account) CROSS JOIN LATERAL (
      SELECT e.id, e.account, e.amount::text AS amount, e.created_at, e.seq, p.kind, p.transaction_id, p.claim_id
      FROM ledger_entries e JOIN ledger_postings p ON p.id = e.posting_id
      WHERE e.merchant_id = $1 AND e.environment = $2::"Environment" AND e.account = b.account
        AND ($6::text IS NULL OR p.shop_id IS NULL OR p.shop_id = $6)
      ORDER BY e.seq DESC LIMIT 20) e
    ORDER BY e.seq DESC LIMIT 20) m) AS movements,
  (WITH RECURSIVE days(day) AS (
      (SELECT date_trunc('day', reserve_release_at) FROM transactions WHERE ${HELD} ORDER BY reserve_release_at LIMIT 1)
      UNION ALL
      SELECT (SELECT date_trunc('day', t.reserve_release_at) FROM transactions t WHERE ${HELD} AND t.reserve_release_at >= days.day + interval '1 day' ORDER BY t.reserve_release_at LIMIT 1)
        FROM days WHERE days.day IS NOT NULL)
    SELECT COALESCE(json_agg(s ORDER BY s.day), '[]'::json) FROM (
      SELECT day, (SELECT SUM(reserve_amount) FROM transactions WHERE ${HELD} AND reserve_release_at >= day AND reserve_release_at < day + interval '1 day')::text AS amount
        FROM days WHERE day IS NOT NULL LIMIT 3) s) AS schedule,
  (SELECT warnings FROM ledger_verifications WHERE merchant_id = $1 AND environment = $2::"Environment") AS warnings`;

export async function getBalance(auth: AuthContext) {
  const { id: merchantId, tier, trustScore } = auth.merchant;
  const environment = auth.environment;
  // The last 90 days, today included, in whole UTC days (the daily totals' unit).
  const since = new Date(Date.now() - (FEE_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  const [row] = await sql<BalanceRow>(BALANCE_SQL, [merchantId, environment, [...MERCHANT_BUCKETS], [...DAILY_ACCOUNTS], since, auth.shop?.id ?? null]);
  const { buckets, daily, movements, schedule, warnings } = row!;
  const bucket = (name: string) => BigInt(buckets.find((b) => b.account === name)?.balance ?? 0);
  const fee = (name: string) => BigInt(daily.find((f) => f.account === name)?.amount ?? 0);
  const totalFees = fee("platform_fees") + fee("flat_fees") + fee("provider_fees") + fee("network_fees") + fee("chargeback_fees");
  // Every completion debits provider_clearing by the payment's USD amount, and nothing else touches it.
  const gross = -fee("provider_clearing");
  return {
    merchantId,
    currency: "USD" as const,
    balance: { available: usd(bucket("available")), pending: usd(bucket("pending")), frozen: usd(bucket("frozen")), reserve: usd(bucket("reserve")) },
    ledgerWarnings: warnings ?? [],
    tier,
    trustScore,
    rollingReservePct: Number(RESERVE_BP[tier]) / 100,
    withdrawalFeeUsd: usd(WITHDRAWAL_FEE_USD_MINOR[tier]),
    feeSummary: {
      grossVolume: usd(gross),
      platformFees: usd(fee("platform_fees")),
      flatFees: usd(fee("flat_fees")),
      chargebackFees: usd(fee("chargeback_fees")),
      totalFees: usd(totalFees),
      netBalance: usd(gross - totalFees),
    },
    movements: movements.map((m) => ({ id: m.id, type: m.kind, amount: usd(BigInt(m.amount)), bucket: m.account, transactionId: m.transaction_id, claimId: m.claim_id, createdAt: new Date(m.created_at).toISOString() })),
    reserveSchedule: schedule.map((s) => ({ releaseAt: new Date(s.day).toISOString(), amount: usd(BigInt(s.amount)) })),
  };
}
