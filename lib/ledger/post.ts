// Double-entry postings. Every movement of money is one posting whose entries sum to zero per
// currency, written inside the caller's database transaction (with the state change it belongs to).
import { newId } from "@/lib/ids";
import type { Tx } from "@/lib/db";
import type { Environment } from "@/lib/generated/prisma/enums";

/** The merchant's balance buckets (section 2.4). */
export const MERCHANT_BUCKETS = ["available", "pending", "reserve", "frozen"] as const;
export type Bucket = (typeof MERCHANT_BUCKETS)[number];
/** Counter accounts: where the other side of a merchant movement lives. */
export type CounterAccount =
  | "provider_clearing"
  | "platform_fees"
  | "flat_fees"
  | "provider_fees"
  | "network_fees"
  | "refunds_payable"
  | "chargebacks_payable"
  | "chargeback_fees";
/**
 * The payout environment (lib/payouts): per-currency balances kept apart from the pay-in buckets,
 * and their counter accounts. `payout_available` is spendable; `payout_in_flight` holds what
 * processing payouts took (back to available if they fail, out to `payouts_sent` when paid).
 */
export const PAYOUT_BUCKETS = ["payout_available", "payout_in_flight"] as const;
export type PayoutBucket = (typeof PAYOUT_BUCKETS)[number];
export type PayoutCounterAccount = "payouts_sent" | "fx_clearing" | "swap_fees" | "sandbox_funding";
export type Account = Bucket | CounterAccount | PayoutBucket | PayoutCounterAccount;

export type Leg = { account: Account; currency: string; amount: bigint };

export type PostingKind =
  | "payment_completed"
  | "settlement"
  | "reserve_release"
  | "refund_freeze"
  | "refund_resolved"
  | "refund_rejected"
  | "refund_immediate"
  | "chargeback_freeze"
  | "chargeback_won"
  | "chargeback_lost"
  | "adjustment"
  | "deposit_credited"
  | "payout_transfer"
  | "payout_swap"
  | "payout_sandbox_funding"
  | "payout_debit"
  | "payout_completed"
  | "payout_reversed"
  | "payout_returned";

export class UnbalancedPostingError extends Error {}

export async function post(
  tx: Tx,
  p: { merchantId: string; environment: Environment; kind: PostingKind; transactionId?: string | null; claimId?: string | null; legs: Leg[] },
): Promise<string> {
  const legs = p.legs.filter((l) => l.amount !== 0n);
  const sums = new Map<string, bigint>();
  for (const l of legs) sums.set(l.currency, (sums.get(l.currency) ?? 0n) + l.amount);
  for (const [currency, sum] of sums) {
    if (sum !== 0n) throw new UnbalancedPostingError(`posting ${p.kind} does not balance in ${currency}: ${sum}`);
  }
  const postingId = newId("posting");
  await tx.ledgerPosting.create({ data: { id: postingId, merchantId: p.merchantId, environment: p.environment, kind: p.kind, transactionId: p.transactionId ?? null, claimId: p.claimId ?? null } });
  if (legs.length) {
    await tx.ledgerEntry.createMany({
      data: legs.map((l) => ({ id: newId("ledgerEntry"), postingId, merchantId: p.merchantId, environment: p.environment, account: l.account, currency: l.currency, amount: l.amount })),
    });
  }
  return postingId;
}

/** Current merchant bucket totals in USD, read inside `tx` (for checks before moving money). */
export async function bucketTotals(tx: Tx, merchantId: string, environment: Environment): Promise<Record<Bucket, bigint>> {
  const rows = await tx.ledgerEntry.groupBy({
    by: ["account"],
    where: { merchantId, environment, currency: "USD", account: { in: [...MERCHANT_BUCKETS] } },
    _sum: { amount: true },
  });
  const out: Record<Bucket, bigint> = { available: 0n, pending: 0n, reserve: 0n, frozen: 0n };
  for (const r of rows) out[r.account as Bucket] = r._sum.amount ?? 0n;
  return out;
}

/**
 * Serialises money movements of one merchant and environment: two concurrent refunds must not
 * both see the same available balance. Held until the surrounding transaction ends.
 */
export async function lockMerchantLedger(tx: Tx, merchantId: string, environment: Environment) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`ledger:${merchantId}:${environment}`}))`;
}
