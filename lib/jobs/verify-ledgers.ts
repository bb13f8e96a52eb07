// The ledger verification job: recomputes each merchant ledger from its entries (in batches,
// lib/ledger/verify.ts), compares with the running totals and the other invariants, and stores
// the warnings GET /me/balance and the dashboard show. A ledger is checked again when it has
// entries past the last check, or when its last check is older than FULL_RECHECK_MS (state that
// changed without a posting would show there). Rows are claimed with FOR UPDATE SKIP LOCKED and
// a lease, so any number of instances can run it at once; checking twice changes nothing.
import { db } from "@/lib/db";
import { log } from "@/lib/log";
import { verifyLedger, type LedgerWarning } from "@/lib/ledger/verify";
import type { Environment } from "@/lib/generated/prisma/enums";

const LEASE_SECONDS = 120;
export const FULL_RECHECK_MS = 6 * 3_600_000;

export type LedgerCheck = { merchantId: string; environment: Environment; warnings: LedgerWarning[]; entries: number };

/** `merchantId` restricts the run to one merchant (tests, the operator); `force` checks it even if nothing changed. */
export async function verifyLedgers(opts: { limit?: number; now?: Date; merchantId?: string; force?: boolean } = {}): Promise<LedgerCheck[]> {
  const now = opts.now ?? new Date();
  const merchantId = opts.merchantId ?? null;
  // Every ledger with entries has a verification row.
  await db().$executeRaw`
    INSERT INTO ledger_verifications (merchant_id, environment)
    SELECT DISTINCT merchant_id, environment FROM ledger_balances WHERE ${merchantId}::text IS NULL OR merchant_id = ${merchantId}::text
    ON CONFLICT DO NOTHING`;
  const claimed = await db().$queryRaw<{ merchant_id: string; environment: Environment }[]>`
    UPDATE ledger_verifications SET lease_until = ${new Date(now.getTime() + LEASE_SECONDS * 1000)}
    WHERE (merchant_id, environment) IN (
      SELECT v.merchant_id, v.environment FROM ledger_verifications v
      WHERE (v.lease_until IS NULL OR v.lease_until < ${now})
        AND (${merchantId}::text IS NULL OR v.merchant_id = ${merchantId}::text)
        AND (${opts.force ?? false} OR v.checked_at IS NULL OR v.checked_at < ${new Date(now.getTime() - FULL_RECHECK_MS)}
          OR v.checked_seq < COALESCE((SELECT MAX(e.seq) FROM ledger_entries e WHERE e.merchant_id = v.merchant_id AND e.environment = v.environment), 0))
      ORDER BY v.checked_at ASC NULLS FIRST LIMIT ${opts.limit ?? 50} FOR UPDATE SKIP LOCKED)
    RETURNING merchant_id, environment`;
  const out: LedgerCheck[] = [];
  for (const c of claimed) {
    try {
      const v = await verifyLedger(c.merchant_id, c.environment);
      await db().ledgerVerification.update({
        where: { merchantId_environment: { merchantId: c.merchant_id, environment: c.environment } },
        data: { warnings: v.warnings, checkedSeq: v.lastSeq, checkedAt: new Date(), leaseUntil: null },
      });
      if (v.warnings.length) log.error({ merchant: c.merchant_id, environment: c.environment, warnings: v.warnings }, "ledger verification found warnings");
      out.push({ merchantId: c.merchant_id, environment: c.environment, warnings: v.warnings, entries: Number(v.entries) });
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
