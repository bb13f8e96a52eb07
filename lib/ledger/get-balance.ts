// GET /me/balance. Every figure is read, never summed over history: the buckets are the
// ledger's running totals, the 90-day fee summary comes from the daily totals, the movements
// are the newest entries (by seq), and `ledgerWarnings` is the last result of the verification
// job (lib/jobs/verify-ledgers.ts), which recomputes the ledger from its entries.
import { db } from "@/lib/db";
import { toMajor } from "@/lib/money/amount";
import { DAILY_ACCOUNTS, MERCHANT_BUCKETS } from "@/lib/ledger/post";
import { RESERVE_BP, WITHDRAWAL_FEE_USD_MINOR } from "@/lib/payments/pricing";
import type { LedgerWarning } from "@/lib/ledger/verify";
import type { AuthContext } from "@/lib/auth/authenticate";

export type { LedgerWarning };

const usd = (m: bigint | null | undefined) => toMajor(m ?? 0n, "USD");
const FEE_DAYS = 90;

export async function getBalance(auth: AuthContext) {
  const { id: merchantId, tier, trustScore } = auth.merchant;
  const environment = auth.environment;
  // The last 90 days, today included, in whole UTC days (the daily totals' unit).
  const since = new Date(Date.now() - (FEE_DAYS - 1) * 86_400_000);
  since.setUTCHours(0, 0, 0, 0);
  // One snapshot for every figure: a refund committing mid-request must not make them disagree.
  const read = await db().$transaction(
    async (tx) =>
      [
        await tx.ledgerBalance.findMany({ where: { merchantId, environment, currency: "USD", account: { in: [...MERCHANT_BUCKETS] } }, select: { account: true, balance: true } }),
        await tx.ledgerDailyTotal.groupBy({ by: ["account"], where: { merchantId, environment, currency: "USD", account: { in: [...DAILY_ACCOUNTS] }, day: { gte: since } }, _sum: { amount: true } }),
        await tx.ledgerEntry.findMany({
          where: { merchantId, environment, account: { in: [...MERCHANT_BUCKETS] } },
          orderBy: { seq: "desc" },
          take: 20,
          include: { posting: { select: { kind: true, transactionId: true, claimId: true } } },
        }),
        await tx.$queryRaw<{ day: Date; amount: bigint }[]>`
          SELECT date_trunc('day', reserve_release_at) AS day, SUM(reserve_amount) AS amount FROM transactions
          WHERE merchant_id = ${merchantId} AND environment = ${environment}::"Environment"
            AND reserve_release_at IS NOT NULL AND reserve_released_at IS NULL AND reserve_amount > 0
          GROUP BY 1 ORDER BY 1 LIMIT 3`,
        await tx.ledgerVerification.findUnique({ where: { merchantId_environment: { merchantId, environment } }, select: { warnings: true } }),
      ] as const,
    { isolationLevel: "RepeatableRead" },
  );
  const [buckets, daily, movements, schedule, verification] = read;
  const bucket = (name: string) => buckets.find((b) => b.account === name)?.balance ?? 0n;
  const fee = (name: string) => daily.find((f) => f.account === name)?._sum.amount ?? 0n;
  const totalFees = fee("platform_fees") + fee("flat_fees") + fee("provider_fees") + fee("network_fees") + fee("chargeback_fees");
  // Every completion debits provider_clearing by the payment's USD amount, and nothing else touches it.
  const gross = -fee("provider_clearing");
  return {
    merchantId,
    currency: "USD" as const,
    balance: { available: usd(bucket("available")), pending: usd(bucket("pending")), frozen: usd(bucket("frozen")), reserve: usd(bucket("reserve")) },
    ledgerWarnings: (verification?.warnings as LedgerWarning[] | undefined) ?? [],
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
    movements: movements.map((m) => ({ id: m.id, type: m.posting.kind, amount: usd(m.amount), bucket: m.account, transactionId: m.posting.transactionId, claimId: m.posting.claimId, createdAt: m.createdAt.toISOString() })),
    reserveSchedule: schedule.map((s) => ({ releaseAt: new Date(s.day).toISOString(), amount: usd(BigInt(s.amount)) })),
  };
}
