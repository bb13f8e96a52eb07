// GET /me/balance: every figure is derived from ledger entries (nothing is a stored counter),
// plus invariant checks that become `ledgerWarnings`.
import { db, type Tx } from "@/lib/db";
import { toMajor } from "@/lib/money/amount";
import { MERCHANT_BUCKETS } from "@/lib/ledger/post";
import { RESERVE_BP, WITHDRAWAL_FEE_USD_MINOR } from "@/lib/payments/pricing";
import type { AuthContext } from "@/lib/auth/authenticate";
import type { Environment } from "@/lib/generated/prisma/enums";

const usd = (m: bigint | null | undefined) => toMajor(m ?? 0n, "USD");

export type LedgerWarning = { code: string; message: string };

/** Invariants of one merchant's ledger in one environment; empty in a healthy system. */
/** Reads inside `tx`, which must be a snapshot (REPEATABLE READ) for the checks to agree. */
export async function ledgerWarnings(tx: Tx, merchantId: string, environment: Environment): Promise<LedgerWarning[]> {
  const warnings: LedgerWarning[] = [];
  const unbalanced = await tx.$queryRaw<{ posting_id: string; currency: string; total: bigint }[]>`
    SELECT posting_id, currency, SUM(amount) AS total FROM ledger_entries
    WHERE merchant_id = ${merchantId} AND environment = ${environment}::"Environment"
    GROUP BY posting_id, currency HAVING SUM(amount) <> 0 LIMIT 5`;
  for (const u of unbalanced) warnings.push({ code: "unbalanced_posting", message: `Posting ${u.posting_id} is off by ${u.total} minor units of ${u.currency}.` });

  const frozen = await tx.ledgerEntry.aggregate({ where: { merchantId, environment, account: "frozen", currency: "USD" }, _sum: { amount: true } });
  const openClaims = await tx.claim.aggregate({ where: { merchantId, environment, status: { in: ["pending", "open"] } }, _sum: { amountUsd: true } });
  const reserve = await tx.ledgerEntry.aggregate({ where: { merchantId, environment, account: "reserve", currency: "USD" }, _sum: { amount: true } });
  const heldReserves = await tx.transaction.aggregate({ where: { merchantId, environment, completedAt: { not: null }, reserveReleasedAt: null }, _sum: { reserveAmount: true } });
  if ((frozen._sum.amount ?? 0n) !== (openClaims._sum.amountUsd ?? 0n)) {
    warnings.push({ code: "frozen_mismatch", message: `Frozen balance ${usd(frozen._sum.amount)} differs from open claims ${usd(openClaims._sum.amountUsd)}.` });
  }
  if ((reserve._sum.amount ?? 0n) !== (heldReserves._sum.reserveAmount ?? 0n)) {
    warnings.push({ code: "reserve_mismatch", message: `Reserve balance ${usd(reserve._sum.amount)} differs from unreleased reserves ${usd(heldReserves._sum.reserveAmount)}.` });
  }
  return warnings;
}

export async function getBalance(auth: AuthContext) {
  const { id: merchantId, tier, trustScore } = auth.merchant;
  const environment = auth.environment;
  const since = new Date(Date.now() - 90 * 86_400_000);
  // One snapshot for every figure: a refund committing mid-request must not make the buckets and
  // the invariant checks disagree.
  const read = await db().$transaction(async (tx) => [
    await tx.ledgerEntry.groupBy({ by: ["account"], where: { merchantId, environment, currency: "USD", account: { in: [...MERCHANT_BUCKETS] } }, _sum: { amount: true } }),
    await tx.ledgerEntry.groupBy({
      by: ["account"],
      where: { merchantId, environment, currency: "USD", account: { in: ["platform_fees", "flat_fees", "provider_fees", "network_fees", "chargeback_fees"] }, createdAt: { gte: since } },
      _sum: { amount: true },
    }),
    await tx.transaction.aggregate({ where: { merchantId, environment, completedAt: { gte: since } }, _sum: { amountUsd: true } }),
    await tx.ledgerEntry.findMany({
      where: { merchantId, environment, account: { in: [...MERCHANT_BUCKETS] } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: 20,
      include: { posting: { select: { kind: true, transactionId: true, claimId: true } } },
    }),
    await tx.$queryRaw<{ day: Date; amount: bigint }[]>`
      SELECT date_trunc('day', reserve_release_at) AS day, SUM(reserve_amount) AS amount FROM transactions
      WHERE merchant_id = ${merchantId} AND environment = ${environment}::"Environment"
        AND reserve_release_at IS NOT NULL AND reserve_released_at IS NULL AND reserve_amount > 0
      GROUP BY 1 ORDER BY 1 LIMIT 3`,
    await ledgerWarnings(tx, merchantId, environment),
  ] as const, { isolationLevel: "RepeatableRead" });
  const [buckets, fees, volume, movements, schedule, warnings] = read;
  const bucket = (name: string) => buckets.find((b) => b.account === name)?._sum.amount ?? 0n;
  const fee = (name: string) => fees.find((f) => f.account === name)?._sum.amount ?? 0n;
  const totalFees = fee("platform_fees") + fee("flat_fees") + fee("provider_fees") + fee("network_fees") + fee("chargeback_fees");
  const gross = volume._sum.amountUsd ?? 0n;
  return {
    merchantId,
    currency: "USD" as const,
    balance: { available: usd(bucket("available")), pending: usd(bucket("pending")), frozen: usd(bucket("frozen")), reserve: usd(bucket("reserve")) },
    ledgerWarnings: warnings,
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
