// Reconciliation: pending production payments are asked of their provider, so a lost notice is
// caught. Every pending row carries its own `next_check_at` (lib/payments/check-schedule.ts:
// fresh rows often, old vouchers once per period, the deadline right after it passes). A run
// claims the due rows in batches, oldest due first, with FOR UPDATE SKIP LOCKED and a lease
// (next_check_at pushed past the lease before any provider is called), asks the providers with
// bounded concurrency, and gives every row still pending its next check. So any number of
// instances share the work, no row is asked twice at once, a runner that dies leaves its rows to
// the next one when the lease runs out, and no row can hold a slot: a row whose provider is not
// configured here is simply rescheduled, behind the others.
//
// Applying a status is idempotent, and a provider's paid completes even a payment we had already
// failed or expired (decisions.md "Late payments", lib/outcomes/apply-provider-status.ts).
//
// A pending row without a provider charge id is one whose route was never written: the cascade
// ended with only unknown answers (timeouts, 5xx), or the process stopped mid-cascade (the row
// is committed before any provider is called). Its possible charges are looked up by our
// reference at the providers that may hold one; the first found becomes its route (and its status
// applies). Only when every one of them answers that it never received it (its own 404, not a
// proxy's bare one) does the row fail, so it does not stay pending for ever.
import { db } from "@/lib/platform/db";
import { log } from "@/lib/platform/log";
import { isProviderConfigured, providerConfigs } from "@/lib/providers/registry";
import { connectorFor } from "@/lib/providers/connectors";
import { applyProviderStatus } from "@/lib/outcomes/apply-provider-status";
import { failPayment } from "@/lib/payments/transitions";
import { nextCheckAt, reconcilePeriodMs } from "@/lib/payments/check-schedule";

/** Longer than any provider call (8 s by default) and a batch's worth of them. */
const LEASE_MS = 120_000;

type Due = { id: string; provider: string; provider_ref: string | null; attempts: unknown; created_at: Date; expires_at: Date; due_at: Date };
type AttemptRow = { provider?: string; outcome?: string };

export type ReconcileOptions = {
  now?: () => Date;
  /** Rows claimed at once, over all claimers. */
  limit?: number;
  /** Provider calls in flight at once. */
  concurrency?: number;
  /** A run stops claiming new batches after this long (the next run goes on). */
  budgetMs?: number;
  /** Stop after one batch. */
  once?: boolean;
  periodMs?: number;
};

/** `more`: stopped by its budget with rows still due (the driver runs it again at once). */
export type ReconcileResult = { checked: number; changed: number; batches: number; maxLagMs: number; more: boolean };

/** Claims up to `limit` due rows: their lease is their next_check_at, pushed past the calls. */
async function claim(now: Date, limit: number): Promise<Due[]> {
  return db().$queryRaw<Due[]>`
    WITH due AS (
      SELECT id, next_check_at AS due_at FROM transactions
      WHERE next_check_at <= ${now} AND status = 'pending' AND environment = 'production'
      ORDER BY next_check_at LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
    UPDATE transactions t SET next_check_at = ${new Date(now.getTime() + LEASE_MS)}
    FROM due WHERE t.id = due.id
    RETURNING t.id, t.provider, t.provider_ref, t.attempts, t.created_at, t.expires_at, due.due_at`;
}

/** The next check of every row still pending, in one statement. */
async function reschedule(next: Map<string, Date>): Promise<void> {
  if (!next.size) return;
  const ids = [...next.keys()];
  const at = ids.map((id) => next.get(id)!.toISOString());
  await db().$executeRaw`
    UPDATE transactions t SET next_check_at = n.at
    FROM unnest(${ids}::text[], ${at}::timestamptz[]) AS n(id, at)
    WHERE t.id = n.id AND t.status = 'pending'`;
}

/** Runs `work` over `items` with at most `n` at once. */
async function pool<T>(items: T[], n: number, work: (item: T) => Promise<void>): Promise<void> {
  let i = 0;
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, async () => {
    while (i < items.length) await work(items[i++]!);
  }));
}

export async function reconcilePending(opts: ReconcileOptions = {}): Promise<ReconcileResult> {
  const now = opts.now ?? (() => new Date());
  const concurrency = Math.max(1, opts.concurrency ?? 16);
  // Several claimers, each with a small batch: a slow answer or a completion waiting for its
  // merchant's ledger holds back only its own batch, never the whole run.
  const claimers = Math.max(1, Math.min(8, Math.floor(concurrency / 2)));
  const limit = opts.limit ?? 200;
  const batch = Math.max(1, Math.ceil(limit / claimers));
  const perClaimer = Math.max(1, Math.floor(concurrency / claimers));
  const periodMs = opts.periodMs ?? reconcilePeriodMs();
  const deadline = Date.now() + (opts.budgetMs ?? 20_000);
  // Older than a whole cascade could take (every provider's timeout), so a request still
  // routing its row is left alone.
  const cascadeMs = [...providerConfigs().values()].reduce((sum, c) => sum + c.timeoutMs, 0) + 5_000;
  const out: ReconcileResult = { checked: 0, changed: 0, batches: 0, maxLagMs: 0, more: false };
  let stop = false;
  const claimer = async () => {
    while (!stop) {
      const claimedAt = now();
      const rows = await claim(claimedAt, batch);
      if (!rows.length) return;
      out.batches++;
      for (const r of rows) out.maxLagMs = Math.max(out.maxLagMs, claimedAt.getTime() - new Date(r.due_at).getTime());
      const next = new Map<string, Date>();
      await pool(rows, perClaimer, async (r) => {
        const row = { createdAt: new Date(r.created_at), expiresAt: new Date(r.expires_at) };
        try {
          let changed: boolean;
          if (r.provider_ref) changed = await checkRouted(r);
          else if (claimedAt.getTime() - row.createdAt.getTime() < cascadeMs) {
            next.set(r.id, new Date(row.createdAt.getTime() + cascadeMs));
            return;
          } else changed = await checkUnrouted(r);
          out.checked++;
          if (changed) out.changed++;
        } catch (err) {
          log.warn({ transactionId: r.id, err: err instanceof Error ? err.message : String(err) }, "reconciliation could not check a payment; asked again later");
        }
        // Still pending (unknown, pending, not configured here, or an error): its next check.
        next.set(r.id, nextCheckAt(row, now(), periodMs));
      });
      await reschedule(next);
      if (opts.once || rows.length < batch) return;
      if (Date.now() > deadline) {
        out.more = true;
        stop = true;
      }
    }
  };
  await Promise.all(Array.from({ length: opts.once ? 1 : claimers }, claimer));
  return out;
}

async function checkRouted(t: Due): Promise<boolean> {
  // Another instance with this provider's configuration asks it; here it waits its next turn.
  if (!isProviderConfigured(t.provider)) return false;
  const status = await connectorFor(t.provider).getStatus(t.provider_ref!);
  if (!status || status === "pending") return false;
  return applyProviderStatus(t.id, status);
}

async function checkUnrouted(t: Due): Promise<boolean> {
  const attempts = Array.isArray(t.attempts) ? (t.attempts as AttemptRow[]) : [];
  const candidates = attempts.length ? [...new Set(attempts.filter((a) => a.outcome === "unavailable" && a.provider).map((a) => a.provider!))] : [...providerConfigs().keys()];
  let unknown = false;
  for (const code of candidates) {
    if (!isProviderConfigured(code)) {
      unknown = true;
      continue;
    }
    const r = await connectorFor(code).chargeByReference(t.id);
    if (r.kind === "unknown") unknown = true;
    if (r.kind !== "found") continue;
    await db().transaction.updateMany({ where: { id: t.id, providerRef: null }, data: { provider: code, providerRef: r.providerRef } });
    return r.status !== "pending" && (await applyProviderStatus(t.id, r.status));
  }
  // Every provider that may have it said it never received it: no charge exists.
  return !unknown && (await failPayment(t.id, "failed")).changed;
}
