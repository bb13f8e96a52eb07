// The ledger verification job: recomputes each merchant ledger from its entries (in batches,
// lib/ledger/verify.ts), compares with the running totals and the other invariants, and stores
// the warnings GET /me/balance and the dashboard show. A ledger is checked again when it has
// entries past the last check, or when its last check is older than FULL_RECHECK_MS (state that
// changed without a posting would show there). Rows are claimed with FOR UPDATE SKIP LOCKED and
// a lease, so any number of instances can run it at once; checking twice changes nothing.
//
// Incremental: each ledger keeps a checkpoint (its entries' sums and counts per account up to
// checked_seq, in checked_totals), and a run reads only the entries after it, so a busy ledger
// costs what its new entries cost, not its whole history. A full run (`full`, the operator's
// `npm run ledger:verify -- --full`) reads every entry again; so does a run with no checkpoint
// yet, or after an unbalanced posting was found (its warning stays until a full run clears it).
import { db } from "@/lib/platform/db";
import { log } from "@/lib/platform/log";
import { verifyLedger, type Checkpoint, type LedgerWarning } from "@/lib/ledger/verify";
import type { Environment } from "@/lib/generated/prisma/enums";

const LEASE_SECONDS = 120;
export const FULL_RECHECK_MS = 6 * 3_600_000;

/** `entries`: the entries this run read; `full`: whether it read them all. */
export type LedgerCheck = { merchantId: string; environment: Environment; warnings: LedgerWarning[]; entries: number; full: boolean; checkedSeq: string };

type Claimed = { merchant_id: string; environment: Environment; checked_seq: bigint; checked_totals: Checkpoint["totals"]; warnings: LedgerWarning[] };

/** Where a ledger's next run starts: its checkpoint, or null for a full run. */
function startFrom(c: Claimed, full: boolean): Checkpoint | null {
  if (full || c.checked_seq === 0n || Object.keys(c.checked_totals ?? {}).length === 0) return null;
  if ((c.warnings ?? []).some((w) => w.code === "unbalanced_posting")) return null;
  return { seq: c.checked_seq, totals: c.checked_totals };
}

/**
 * `merchantId` restricts the run to one merchant (tests, the operator); `environment` to one
 * environment; `force` checks it even if nothing changed; `full` reads every entry again.
 */
export async function verifyLedgers(opts: { limit?: number; now?: Date; merchantId?: string; environment?: Environment; force?: boolean; full?: boolean } = {}): Promise<LedgerCheck[]> {
  const now = opts.now ?? new Date();
  const merchantId = opts.merchantId ?? null;
  // Every ledger with entries has a verification row.
  await db().$executeRaw`
    INSERT INTO ledger_verifications (merchant_id, environment)
    SELECT DISTINCT merchant_id, environment FROM ledger_balances WHERE ${merchantId}::text IS NULL OR merchant_id = ${merchantId}::text
    ON CONFLICT DO NOTHING`;
  const claimed = await db().$queryRaw<Claimed[]>`
    UPDATE ledger_verifications SET lease_until = ${new Date(now.getTime() + LEASE_SECONDS * 1000)}
    WHERE (merchant_id, environment) IN (
      SELECT v.merchant_id, v.environment FROM ledger_verifications v
      WHERE (v.lease_until IS NULL OR v.lease_until < ${now})
        AND (${merchantId}::text IS NULL OR v.merchant_id = ${merchantId}::text)
        AND (${opts.environment ?? null}::text IS NULL OR v.environment::text = ${opts.environment ?? null}::text)
        AND (${opts.force ?? false} OR v.checked_at IS NULL OR v.checked_at < ${new Date(now.getTime() - FULL_RECHECK_MS)}
          OR v.checked_seq < COALESCE((SELECT MAX(e.seq) FROM ledger_entries e WHERE e.merchant_id = v.merchant_id AND e.environment = v.environment), 0))
      ORDER BY v.checked_at ASC NULLS FIRST LIMIT ${opts.limit ?? 50} FOR UPDATE SKIP LOCKED)
    RETURNING merchant_id, environment, checked_seq, checked_totals, warnings`;
  const out: LedgerCheck[] = [];
  for (const c of claimed) {
    try {
      const from = startFrom(c, opts.full ?? false);
      const v = await verifyLedger(c.merchant_id, c.environment, { from });
      await db().ledgerVerification.update({
        where: { merchantId_environment: { merchantId: c.merchant_id, environment: c.environment } },
        data: { warnings: v.warnings, checkedSeq: v.checkpoint.seq, checkedTotals: v.checkpoint.totals, checkedAt: new Date(), leaseUntil: null },
      });
      if (v.warnings.length) log.error({ merchant: c.merchant_id, environment: c.environment, warnings: v.warnings }, "ledger verification found warnings");
      out.push({ merchantId: c.merchant_id, environment: c.environment, warnings: v.warnings, entries: Number(v.entries), full: from === null, checkedSeq: v.checkpoint.seq.toString() });
    } catch (err) {
      // The lease expires and another run tries again.
      log.warn({ merchant: c.merchant_id, environment: c.environment, err: err instanceof Error ? err.message : String(err) }, "ledger verification failed");
    }
  }
  return out;
}

/** The warnings of the last verification of a merchant ledger (empty before the first one). */
export async function storedLedgerWarnings(merchantId: string, environment: Environment): Promise<LedgerWarning[]> {
  const v = await db().ledgerVerification.findUnique({ where: { merchantId_environment: { merchantId, environment } }, select: { warnings: true } });
  return (v?.warnings as LedgerWarning[] | undefined) ?? [];
}
