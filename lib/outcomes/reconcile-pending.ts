// Reconciliation: pending production payments are asked of their provider, so a lost notice is
// caught. Every pending row carries its own `next_check_at` (lib/payments/check-schedule.ts:
// fresh rows often, old vouchers once per period, the deadline right after it passes).
//
// A run claims due rows with FOR UPDATE SKIP LOCKED and a lease (next_check_at pushed past the
// calls before any provider is called), in this order:
//   1. first checks: due rows never asked yet (`checked_at` null, a partial index of their own);
//   2. then the backlog, oldest due first.
// Oldest due first alone put a fresh payment behind every overdue voucher whenever the job was
// behind its schedule (fewer checks a second than come due), so its lost notice waited as long as
// the job's lag, the whole backlog's turn (issue 38). A payment being paid right now is where a
// lost notice costs most, and it gets one such turn: from its first check on it is backlog.
//
// Only rows this instance can ask are claimed: a row whose provider is not configured here is left
// to an instance that has its configuration (on none, it shows in lp_reconcile_unservable for an
// operator) instead of being claimed and put back, run after run, in batches it held for nothing.
//
// Rows are claimed a little ahead of the calls (a new claim once fewer wait than are in flight),
// and each call takes the next claimed row, first checks before the backlog: a slow provider's
// rows hold only the slots they are in, and a first check coming due during a long run waits for
// about one call, never for a batch of slow ones. Every row still pending gets its next check (written in groups:
// at each claim and at the end). So any number of instances share the work, no row is asked twice
// at once, and a runner that dies leaves its rows to the next one when the lease runs out.
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
import { isRealConnector, type ProviderStatus } from "@/lib/providers/types";
import { applyProviderStatus } from "@/lib/outcomes/apply-provider-status";
import { failPayment } from "@/lib/payments/transitions";
import { nextCheckAt, reconcilePeriodMs } from "@/lib/payments/check-schedule";

/** Longer than any provider call (8 s by default) and the few claimed ahead of it. */
const LEASE_MS = 120_000;

type Due = { id: string; provider: string; provider_ref: string | null; attempts: unknown; created_at: Date; expires_at: Date; due_at: Date; first: boolean; amount_local: bigint; currency_local: string };
type AttemptRow = { provider?: string; outcome?: string };
type Next = { at: Date; checkedAt: Date | null };

export type ReconcileOptions = {
  now?: () => Date;
  /** Rows claimed at once (default: twice `concurrency`). */
  limit?: number;
  /** Provider calls in flight at once. */
  concurrency?: number;
  /** A run stops claiming after this long (the next run goes on); 0: its first claim only. */
  budgetMs?: number;
  /** Claim once. */
  once?: boolean;
  periodMs?: number;
};

/**
 * The run's own figures: rows asked (`firstChecks` of them at their first check), statuses
 * applied, claims made, and how late the latest-served rows were when claimed (due to claimed).
 * `more`: stopped by its budget with rows still due (the driver runs it again at once).
 */
export type ReconcileResult = { checked: number; firstChecks: number; changed: number; batches: number; maxLagMs: number; maxFirstCheckLagMs: number; more: boolean };

/** The providers this instance can ask about production payments. */
export function servableProviders(): string[] {
  return [...providerConfigs().keys()];
}

/**
 * Claims up to `limit` due rows this instance can ask, first checks first: their lease is their
 * next_check_at, pushed past the calls. A row without a route is taken only where its first
 * provider is configured too: an instance without it can never settle it (its lookup there is
 * unknown), and by claiming it would only push the next check of the instance that can.
 */
async function claim(now: Date, limit: number, providers: string[]): Promise<Due[]> {
  return db().$queryRaw<Due[]>`
    WITH fresh AS (
      SELECT id, next_check_at AS due_at FROM transactions
      WHERE next_check_at <= ${now} AND checked_at IS NULL AND status = 'pending' AND environment = 'production'
        AND provider = ANY(${providers}::text[])
      ORDER BY next_check_at LIMIT ${limit}
      FOR UPDATE SKIP LOCKED),
    backlog AS (
      SELECT id, next_check_at AS due_at FROM transactions
      WHERE next_check_at <= ${now} AND status = 'pending' AND environment = 'production'
        AND provider = ANY(${providers}::text[])
        AND id NOT IN (SELECT id FROM fresh)
      ORDER BY next_check_at LIMIT ${limit} - (SELECT count(*) FROM fresh)
      FOR UPDATE SKIP LOCKED),
    due AS (SELECT id, due_at FROM fresh UNION ALL SELECT id, due_at FROM backlog)
    UPDATE transactions t SET next_check_at = ${new Date(now.getTime() + LEASE_MS)}
    FROM due WHERE t.id = due.id
    RETURNING t.id, t.provider, t.provider_ref, t.attempts, t.created_at, t.expires_at, due.due_at, t.checked_at IS NULL AS first, t.amount_local, t.currency_local`;
}

/** The next check of every row still pending (and when it was asked), in one statement. */
async function reschedule(next: Map<string, Next>): Promise<void> {
  if (!next.size) return;
  const ids = [...next.keys()];
  const at = ids.map((id) => next.get(id)!.at.toISOString());
  const checked = ids.map((id) => next.get(id)!.checkedAt?.toISOString() ?? null);
  await db().$executeRaw`
    UPDATE transactions t SET next_check_at = n.at, checked_at = coalesce(n.checked, t.checked_at)
    FROM unnest(${ids}::text[], ${at}::timestamptz[], ${checked}::timestamptz[]) AS n(id, at, checked)
    WHERE t.id = n.id AND t.status = 'pending'`;
}

export async function reconcilePending(opts: ReconcileOptions = {}): Promise<ReconcileResult> {
  const now = opts.now ?? (() => new Date());
  const concurrency = Math.max(1, opts.concurrency ?? 16);
  const limit = Math.max(1, opts.limit ?? 2 * concurrency);
  const periodMs = opts.periodMs ?? reconcilePeriodMs();
  const deadline = Date.now() + (opts.budgetMs ?? 20_000);
  const providers = servableProviders();
  // Older than a whole cascade could take (every provider's timeout), so a request still
  // routing its row is left alone.
  const cascadeMs = [...providerConfigs().values()].reduce((sum, c) => sum + c.timeoutMs, 0) + 5_000;
  const out: ReconcileResult = { checked: 0, firstChecks: 0, changed: 0, batches: 0, maxLagMs: 0, maxFirstCheckLagMs: 0, more: false };
  const queue: Due[] = [];
  const next = new Map<string, Next>();
  let claiming: Promise<void> | null = null;
  let claimMore = true;
  let failure: unknown = null;

  const flush = async () => {
    if (!next.size) return;
    const done = new Map(next);
    next.clear();
    await reschedule(done);
  };
  const refill = () =>
    (claiming ??= (async () => {
      try {
        await flush();
        const claimedAt = now();
        const rows = await claim(claimedAt, limit, providers);
        if (rows.length) out.batches++;
        for (const r of rows) {
          const lag = claimedAt.getTime() - new Date(r.due_at).getTime();
          out.maxLagMs = Math.max(out.maxLagMs, lag);
          if (r.first) out.maxFirstCheckLagMs = Math.max(out.maxFirstCheckLagMs, lag);
        }
        // First checks go ahead of the backlog already claimed (after earlier first checks).
        const firstEnd = queue.findIndex((r) => !r.first);
        queue.splice(firstEnd < 0 ? queue.length : firstEnd, 0, ...rows.filter((r) => r.first));
        queue.push(...rows.filter((r) => !r.first));
        if (opts.once || rows.length < limit) claimMore = false;
        else if (Date.now() > deadline) {
          claimMore = false;
          out.more = true;
        }
      } catch (err) {
        failure ??= err;
        claimMore = false;
      }
    })().finally(() => (claiming = null)));

  const check = async (r: Due) => {
    const row = { createdAt: new Date(r.created_at), expiresAt: new Date(r.expires_at) };
    const askedAt = now();
    try {
      let changed: boolean;
      if (r.provider_ref) changed = await checkRouted(r);
      else if (askedAt.getTime() - row.createdAt.getTime() < cascadeMs) {
        next.set(r.id, { at: new Date(row.createdAt.getTime() + cascadeMs), checkedAt: null });
        return;
      } else changed = await checkUnrouted(r);
      out.checked++;
      if (r.first) out.firstChecks++;
      if (changed) out.changed++;
    } catch (err) {
      log.warn({ transactionId: r.id, err: err instanceof Error ? err.message : String(err) }, "reconciliation could not check a payment; asked again later");
    }
    // Still pending (unknown, pending, or an error): its next check.
    next.set(r.id, { at: nextCheckAt(row, now(), periodMs), checkedAt: askedAt });
  };

  const worker = async () => {
    for (;;) {
      // Claim ahead while the calls in flight still have rows to go on with.
      if (claimMore && queue.length <= concurrency) {
        const claimed = refill();
        if (!queue.length) await claimed;
      }
      const r = queue.shift();
      if (r) await check(r);
      else if (claiming) await claiming;
      else if (!claimMore) return;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await flush();
  if (failure) throw failure;
  return out;
}

type Read = { status: ProviderStatus | "chargeback" | null; installmentsCount?: number };

/**
 * A charge's status by the provider's id. A real provider's charge is read back whole and money
 * moves only when its amount and currency are ours (the notice path's rule): anything else is
 * no answer now, and an amount that differs is logged for an operator. With it, the installments
 * the buyer chose at the provider, when it says (ChargeReadBack.installmentsCount).
 */
async function readOf(code: string, providerRef: string, t: Due): Promise<Read> {
  const c = connectorFor(code);
  if (!isRealConnector(c)) return { status: await c.getStatus(providerRef) };
  const back = await c.readCharge(providerRef);
  if (back.kind !== "found") return { status: null };
  if (back.status === "pending" || back.status === "failed" || back.status === "expired") return { status: back.status };
  if (back.amountMinor === t.amount_local && back.currency?.toUpperCase() === t.currency_local) return { status: back.status, ...(back.status === "paid" && back.installmentsCount !== undefined ? { installmentsCount: back.installmentsCount } : {}) };
  if (back.amountMinor !== null && back.currency) log.error({ provider: code, transactionId: t.id, amount: back.amountMinor.toString(), expected: t.amount_local.toString() }, "provider's charge differs from ours in amount or currency; not applied");
  return { status: null };
}

const apply = (t: Due, r: Read) => applyProviderStatus(t.id, r.status!, r.installmentsCount !== undefined ? { installmentsCount: r.installmentsCount } : {});

async function checkRouted(t: Due): Promise<boolean> {
  const r = await readOf(t.provider, t.provider_ref!, t);
  if (!r.status || r.status === "pending") return false;
  return apply(t, r);
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
    // A real provider's find is read back whole (its amount checked); the common protocol's answer is its status.
    const read: Read = r.status === "pending" ? { status: null } : isRealConnector(connectorFor(code)) ? await readOf(code, r.providerRef, t) : { status: r.status };
    return !!read.status && read.status !== "pending" && (await apply(t, read));
  }
  // Every provider that may have it said it never received it: no charge exists.
  return !unknown && (await failPayment(t.id, "failed")).changed;
}
