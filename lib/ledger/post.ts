// Double-entry postings. Every movement of money is one posting whose entries sum to zero per
// currency, written inside the caller's database transaction (with the state change it belongs
// to), together with the running total of every account it touches. Only the kernel
// (lib/ledger/transition.ts) calls `post`, with legs from a recipe (lib/ledger/recipes.ts).
import { newId } from "@/lib/platform/ids";
import type { Tx } from "@/lib/platform/db";
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
  | "financing_fees"
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
/**
 * Crypto money leaving or entering (settlement batches, withdrawals, top-ups): `in_transit` holds
 * what a closed settlement or a processing withdrawal took from `available` (fee included) until
 * the custody provider pays it (out to `crypto_sent` and `withdrawal_fees`) or fails (back to
 * `available`); `crypto_received` is the other side of a top-up credited to the payout balance.
 * Not part of the balance's four buckets (the contract's shape), but checked like them.
 */
export type CryptoAccount = "in_transit" | "crypto_sent" | "withdrawal_fees" | "crypto_received";
export type Account = Bucket | CounterAccount | PayoutBucket | PayoutCounterAccount | CryptoAccount;

/**
 * Accounts whose running total may never go below zero: a posting that would take one there is
 * a bug (the use cases check balances first) and rolls back. `available` may go negative (a lost
 * chargeback's fee, a sandbox refund in full).
 */
export const NON_NEGATIVE: ReadonlySet<string> = new Set<Account>(["pending", "reserve", "frozen", "payout_available", "payout_in_flight", "in_transit"]);
/** Accounts with per-day totals too (the balance's 90-day fee summary and gross volume). */
export const DAILY_ACCOUNTS = ["provider_clearing", "platform_fees", "flat_fees", "provider_fees", "network_fees", "chargeback_fees"] as const;

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
  | "med_freeze"
  | "med_released"
  | "med_returned"
  | "adjustment"
  | "deposit_credited"
  | "payout_transfer"
  | "payout_swap"
  | "payout_sandbox_funding"
  | "payout_debit"
  | "payout_completed"
  | "payout_reversed"
  | "payout_returned"
  | "settlement_closed"
  | "settlement_paid"
  | "settlement_failed"
  | "withdrawal_requested"
  | "withdrawal_completed"
  | "withdrawal_failed"
  | "topup_credited";

export class UnbalancedPostingError extends Error {}
export class LedgerInvariantError extends Error {}

/** The legs that move something, after checking they balance per currency (the cheap check before writing). */
export function balancedLegs(kind: string, legs: Leg[]): Leg[] {
  const moving = legs.filter((l) => l.amount !== 0n);
  const sums = new Map<string, bigint>();
  for (const l of moving) sums.set(l.currency, (sums.get(l.currency) ?? 0n) + l.amount);
  for (const [currency, sum] of sums) {
    if (sum !== 0n) throw new UnbalancedPostingError(`posting ${kind} does not balance in ${currency}: ${sum}`);
  }
  return moving;
}

/** Net change per account and currency of a set of legs. */
export function netByAccount(legs: Leg[]): Map<string, bigint> {
  const net = new Map<string, bigint>();
  for (const l of legs) net.set(`${l.account}|${l.currency}`, (net.get(`${l.account}|${l.currency}`) ?? 0n) + l.amount);
  return net;
}

/** The cheap check after writing: an account that must not go negative went negative on a decrease. */
export function negativeAfter(legs: Leg[], totals: { account: string; currency: string; balance: bigint }[]): string | null {
  const net = netByAccount(legs);
  for (const t of totals) {
    if (NON_NEGATIVE.has(t.account) && t.balance < 0n && (net.get(`${t.account}|${t.currency}`) ?? 0n) < 0n) return `${t.account} ${t.currency} would be ${t.balance}`;
  }
  return null;
}

export type PostingInput = { merchantId: string; environment: Environment; shopId: string | null; kind: PostingKind; transactionId?: string | null; claimId?: string | null; legs: Leg[] };

/**
 * Writes the posting, its entries, the running totals and the daily totals in one statement.
 * The caller holds the merchant's ledger lock (lockMerchantLedger), so the totals it returns are
 * exactly the balances after this posting.
 */
export async function post(tx: Tx, p: PostingInput): Promise<string> {
  const legs = balancedLegs(p.kind, p.legs);
  const postingId = newId("posting");
  if (legs.length === 0) {
    await tx.$executeRaw`INSERT INTO ledger_postings (id, merchant_id, environment, kind, transaction_id, claim_id, shop_id, created_at)
      VALUES (${postingId}, ${p.merchantId}, ${p.environment}::"Environment", ${p.kind}, ${p.transactionId ?? null}, ${p.claimId ?? null}, ${p.shopId}, now())`;
    return postingId;
  }
  const ids = legs.map(() => newId("ledgerEntry"));
  const totals = await tx.$queryRawUnsafe<{ account: string; currency: string; balance: bigint }[]>(
    `WITH posting AS (
       INSERT INTO ledger_postings (id, merchant_id, environment, kind, transaction_id, claim_id, shop_id, created_at)
       VALUES ($1, $2, $3::"Environment", $4, $5, $6, $12, now())),
     legs AS (SELECT * FROM unnest($7::text[], $8::text[], $9::text[], $10::bigint[]) AS l(id, account, currency, amount)),
     entries AS (
       INSERT INTO ledger_entries (id, posting_id, merchant_id, environment, account, currency, amount, created_at)
       SELECT id, $1, $2, $3::"Environment", account, currency, amount, now() FROM legs),
     daily AS (
       INSERT INTO ledger_daily_totals (merchant_id, environment, account, currency, day, amount)
       SELECT $2, $3::"Environment", account, currency, (now() AT TIME ZONE 'UTC')::date, SUM(amount) FROM legs
       WHERE account = ANY($11::text[]) GROUP BY account, currency
       ON CONFLICT (merchant_id, environment, account, currency, day) DO UPDATE SET amount = ledger_daily_totals.amount + EXCLUDED.amount)
     INSERT INTO ledger_balances (merchant_id, environment, account, currency, balance, entries, updated_at)
     SELECT $2, $3::"Environment", account, currency, SUM(amount), COUNT(*), now() FROM legs GROUP BY account, currency
     ON CONFLICT (merchant_id, environment, account, currency)
       DO UPDATE SET balance = ledger_balances.balance + EXCLUDED.balance, entries = ledger_balances.entries + EXCLUDED.entries, updated_at = EXCLUDED.updated_at
     RETURNING account, currency, balance`,
    postingId,
    p.merchantId,
    p.environment,
    p.kind,
    p.transactionId ?? null,
    p.claimId ?? null,
    ids,
    legs.map((l) => l.account),
    legs.map((l) => l.currency),
    legs.map((l) => l.amount.toString()),
    [...DAILY_ACCOUNTS],
    p.shopId,
  );
  const negative = negativeAfter(legs, totals);
  if (negative) throw new LedgerInvariantError(`posting ${p.kind} would take ${negative}`);
  return postingId;
}

/** Running totals of some accounts of a merchant ledger (every currency), read inside `tx` or not. */
export async function accountTotals(tx: Pick<Tx, "ledgerBalance">, merchantId: string, environment: Environment, accounts: readonly string[]) {
  return tx.ledgerBalance.findMany({ where: { merchantId, environment, account: { in: [...accounts] } }, select: { account: true, currency: true, balance: true } });
}

/** Current merchant bucket totals in USD, read inside `tx` (for checks before moving money). */
export async function bucketTotals(tx: Pick<Tx, "ledgerBalance">, merchantId: string, environment: Environment): Promise<Record<Bucket, bigint>> {
  const out: Record<Bucket, bigint> = { available: 0n, pending: 0n, reserve: 0n, frozen: 0n };
  for (const r of await accountTotals(tx, merchantId, environment, MERCHANT_BUCKETS)) if (r.currency === "USD") out[r.account as Bucket] = r.balance;
  return out;
}

/**
 * Serialises money movements of one merchant and environment: two concurrent refunds must not
 * both see the same available balance. Held until the surrounding transaction ends.
 */
export async function lockMerchantLedger(tx: Tx, merchantId: string, environment: Environment) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`ledger:${merchantId}:${environment}`}))`;
}
