// The ledger's invariants, checked from the entries themselves (never on a request path: the
// verification job runs this, lib/ledger/verify-ledgers.ts, and GET /me/balance shows its result):
// - the running totals equal the sums (and counts) recomputed from the entries, read in batches;
// - every posting balances per currency;
// - no account that must not go negative is negative;
// - what is frozen equals the open claims, the reserve equals the unreleased reserves, and each
//   currency's in-flight payout money equals what processing (debited) payouts hold.
// Everything is read in one REPEATABLE READ snapshot: a posting and the state change it belongs
// to commit together, so the checks agree with each other at any moment.
//
// Incremental: a run may start from a checkpoint (the sums and counts per account up to a seq,
// stored by the job in ledger_verifications) and read only the entries after it. Within one
// merchant ledger a larger seq committed later (its postings are serialised by the ledger lock),
// and a posting's entries commit together, so no entry can appear behind a checkpoint and no
// posting straddles one. Entries are never updated or deleted; a full run (the CLI's
// `ledger:verify --full`) re-reads them all, for an operator who doubts exactly that.
import { db, type Tx } from "@/lib/platform/db";
import { toMajor } from "@/lib/money/amount";
import { NON_NEGATIVE } from "@/lib/ledger/post";
import type { Environment } from "@/lib/generated/prisma/enums";

export type LedgerWarning = { code: string; message: string };
/** Sums and counts per "account|currency" of a ledger's entries up to `seq`. */
export type Checkpoint = { seq: bigint; totals: Record<string, [string, string]> };
/** `entries`: entries read by this run; `checkpoint`: where the next run may start. */
export type Verification = { warnings: LedgerWarning[]; entries: bigint; lastSeq: bigint; checkpoint: Checkpoint };

/** Entries read per statement: bounds each query's memory and time on a ledger of millions. */
export const VERIFY_BATCH = 50_000;
const MAX_SEQ = 9_223_372_036_854_775_807n;

const key = (account: string, currency: string) => `${account}|${currency}`;
const major = (minor: bigint, currency: string) => {
  try {
    return `${toMajor(minor, currency)} ${currency}`;
  } catch {
    return `${minor} minor units of ${currency}`;
  }
};

/** Sums per account and currency recomputed from the entries, batch by batch in seq order, and the postings that do not balance. */
async function recompute(tx: Tx, merchantId: string, environment: Environment, batch: number, from: Checkpoint | null) {
  const sums = new Map<string, { account: string; currency: string; total: bigint; n: bigint }>();
  for (const [k, [total, n]] of Object.entries(from?.totals ?? {})) {
    const [account, currency] = k.split("|") as [string, string];
    sums.set(k, { account, currency, total: BigInt(total), n: BigInt(n) });
  }
  const unbalanced: { posting_id: string; currency: string; total: bigint }[] = [];
  let after = from?.seq ?? 0n;
  let entries = 0n;
  for (;;) {
    // The last seq of the next batch; null when fewer than `batch` entries remain (the last batch).
    const [edge] = await tx.$queryRaw<{ seq: bigint }[]>`
      SELECT seq FROM ledger_entries WHERE merchant_id = ${merchantId} AND environment = ${environment}::"Environment" AND seq > ${after}
      ORDER BY seq OFFSET ${batch - 1} LIMIT 1`;
    // Both ends bound, always: with an open end (`$upTo IS NULL OR …`) the plan PostgreSQL keeps
    // for the prepared statement scans the merchant's every entry (100k entries: 70 ms a query).
    const upTo = edge?.seq ?? MAX_SEQ;
    const rows = await tx.$queryRaw<{ account: string; currency: string; total: bigint; n: bigint; last: bigint | null }[]>`
      SELECT account, currency, SUM(amount)::bigint AS total, COUNT(*)::bigint AS n, MAX(seq) AS last FROM ledger_entries
      WHERE merchant_id = ${merchantId} AND environment = ${environment}::"Environment" AND seq > ${after} AND seq <= ${upTo}
      GROUP BY account, currency`;
    // A posting whose entries straddle two batches looks unbalanced in each: only postings that
    // look unbalanced here are checked again whole.
    const suspects = await tx.$queryRaw<{ posting_id: string }[]>`
      SELECT DISTINCT posting_id FROM (
        SELECT posting_id, currency FROM ledger_entries
        WHERE merchant_id = ${merchantId} AND environment = ${environment}::"Environment" AND seq > ${after} AND seq <= ${upTo}
        GROUP BY posting_id, currency HAVING SUM(amount) <> 0) s LIMIT 20`;
    if (suspects.length && unbalanced.length < 5) {
      unbalanced.push(
        ...(await tx.$queryRaw<{ posting_id: string; currency: string; total: bigint }[]>`
          SELECT posting_id, currency, SUM(amount)::bigint AS total FROM ledger_entries WHERE posting_id = ANY(${suspects.map((s) => s.posting_id)}::text[])
          GROUP BY posting_id, currency HAVING SUM(amount) <> 0 LIMIT 5`),
      );
    }
    for (const r of rows) {
      const s = sums.get(key(r.account, r.currency)) ?? { account: r.account, currency: r.currency, total: 0n, n: 0n };
      s.total += r.total;
      s.n += r.n;
      sums.set(key(r.account, r.currency), s);
      entries += r.n;
      if (r.last !== null && r.last > after) after = r.last;
    }
    if (!edge) break;
    after = upTo;
  }
  return { sums, unbalanced, entries, lastSeq: after };
}

/**
 * Checks one merchant ledger in its own REPEATABLE READ transaction: from `from` (a checkpoint
 * of an earlier run: only the entries after it are read) or, without one, from the first entry.
 */
export async function verifyLedger(merchantId: string, environment: Environment, opts: { batch?: number; from?: Checkpoint | null } = {}): Promise<Verification> {
  return db().$transaction((tx) => verifyIn(tx, merchantId, environment, opts.batch ?? VERIFY_BATCH, opts.from ?? null), { isolationLevel: "RepeatableRead", timeout: 120_000, maxWait: 10_000 });
}

async function verifyIn(tx: Tx, merchantId: string, environment: Environment, batch: number, from: Checkpoint | null): Promise<Verification> {
  const warnings: LedgerWarning[] = [];
  const running = await tx.ledgerBalance.findMany({ where: { merchantId, environment }, select: { account: true, currency: true, balance: true, entries: true } });
  const { sums, unbalanced, entries, lastSeq } = await recompute(tx, merchantId, environment, batch, from);
  const checkpoint: Checkpoint = { seq: lastSeq, totals: Object.fromEntries([...sums].map(([k, s]) => [k, [s.total.toString(), s.n.toString()]])) };

  for (const u of unbalanced.slice(0, 5)) warnings.push({ code: "unbalanced_posting", message: `Posting ${u.posting_id} is off by ${u.total} minor units of ${u.currency}.` });

  const seen = new Set<string>();
  for (const r of running) {
    const k = key(r.account, r.currency);
    seen.add(k);
    const s = sums.get(k) ?? { total: 0n, n: 0n };
    if (s.total !== r.balance || s.n !== r.entries) {
      warnings.push({ code: "running_total_mismatch", message: `The running total of ${r.account} is ${major(r.balance, r.currency)} over ${r.entries} entries; its entries sum to ${major(s.total, r.currency)} over ${s.n}.` });
    }
    if (NON_NEGATIVE.has(r.account) && r.balance < 0n) warnings.push({ code: "negative_balance", message: `${r.account} is negative: ${major(r.balance, r.currency)}.` });
  }
  for (const [k, s] of sums) {
    if (!seen.has(k)) warnings.push({ code: "running_total_mismatch", message: `${s.account} has entries summing to ${major(s.total, s.currency)} but no running total.` });
  }

  const total = (account: string, currency = "USD") => running.find((r) => r.account === account && r.currency === currency)?.balance ?? 0n;
  const [cross] = await tx.$queryRaw<{ open_claims: bigint; held_reserves: bigint }[]>`
    SELECT
      (SELECT COALESCE(SUM(amount_usd), 0) FROM claims WHERE merchant_id = ${merchantId} AND environment = ${environment}::"Environment" AND status IN ('pending', 'open'))::bigint AS open_claims,
      (SELECT COALESCE(SUM(reserve_amount), 0) FROM transactions WHERE merchant_id = ${merchantId} AND environment = ${environment}::"Environment" AND completed_at IS NOT NULL AND reserve_released_at IS NULL)::bigint AS held_reserves`;
  if (total("frozen") !== cross!.open_claims) {
    warnings.push({ code: "frozen_mismatch", message: `Frozen balance ${major(total("frozen"), "USD")} differs from open claims ${major(cross!.open_claims, "USD")}.` });
  }
  if (total("reserve") !== cross!.held_reserves) {
    warnings.push({ code: "reserve_mismatch", message: `Reserve balance ${major(total("reserve"), "USD")} differs from unreleased reserves ${major(cross!.held_reserves, "USD")}.` });
  }
  const processing = await tx.$queryRaw<{ currency: string; amount: bigint }[]>`
    SELECT currency, SUM(amount)::bigint AS amount FROM payouts
    WHERE merchant_id = ${merchantId} AND environment = ${environment}::"Environment" AND status = 'processing' AND debited GROUP BY currency`;
  const currencies = new Set([...processing.map((p) => p.currency), ...running.filter((r) => r.account === "payout_in_flight").map((r) => r.currency)]);
  for (const c of currencies) {
    const held = processing.find((p) => p.currency === c)?.amount ?? 0n;
    if (total("payout_in_flight", c) !== held) {
      warnings.push({ code: "payout_in_flight_mismatch", message: `Payouts in flight ${major(total("payout_in_flight", c), c)} differ from processing payouts ${major(held, c)}.` });
    }
  }
  return { warnings, entries, lastSeq, checkpoint };
}
