// The one place money moves (the kernel). Every change of money state is an Operation: it
// loads and locks its row, names the ledger it touches, declares the statuses it accepts, and
// returns the postings (from lib/ledger/recipes.ts) and events of its change. The skeleton is
// always the same, in one database transaction:
//   lock the row (FOR UPDATE) -> lock the merchant's ledger (advisory) -> check the status against
//   the declared table -> apply (write the status) -> post (entries + running totals + checks)
//   -> emit events
// and, after commit, wake the jobs the change made due. The lock order is the same everywhere:
// rows (a claim before its payment; a batch before its payments; several payments in id order)
// before the merchant's ledger, and no row is waited for while the ledger is held. A move that locks
// many payments (closing or failing a settlement batch) takes them before the ledger too, or a
// refund holding one of them while it waits for the ledger deadlocks with it. A row no longer in an accepted status
// changes nothing (the same transition applied twice is a no-op), unless the operation refuses.
// Shape anchor: Hyperswitch's payments operations (each declares the statuses it accepts and runs
// the same validate / load / update skeleton).
import { db, type Tx } from "@/lib/platform/db";
import { isTransactionConflict } from "@/lib/platform/errors";
import { log } from "@/lib/platform/log";
import { emitEvent, type EventType } from "@/lib/platform/outbox/emit";
import { JOB_SIGNALS, wakeJobs } from "@/lib/platform/outbox/wake";
import { lockMerchantLedger, post } from "@/lib/ledger/post";
import type { Posting } from "@/lib/ledger/recipes";
import type { Environment } from "@/lib/generated/prisma/enums";
import { bindPendingIdempotency, idempotencySavepoint } from "@/lib/platform/idempotency/bind";

/**
 * The merchant ledger a change touches, and the shop it is attributed to: every posting carries
 * it (a shop-bound key's ledger export and movements read by it) and so does every event (no
 * lookup per event). Null: the merchant's own move (a transfer, a settlement, a withdrawal).
 */
export type LedgerScope = { merchantId: string; environment: Environment; shopId: string | null };
/** `data`: fields beside `object` in the event's data (e.g. `lateCompletion`). */
export type Emit = { type: EventType; object: unknown; data?: Record<string, unknown> };
export type Wake = { name: (typeof JOB_SIGNALS)[keyof typeof JOB_SIGNALS]; data?: Record<string, unknown> };

/** What an operation's change wrote, for the kernel to finish. */
export type Change<T> = { result: T; postings?: Posting[]; events?: Emit[]; wake?: Wake[] };

export type Operation<R, T> = {
  /** For errors and logs. */
  name: string;
  /** Runs first in the transaction (e.g. a provider notice records its id), so it commits with the change or not at all. */
  before?: (tx: Tx) => Promise<void>;
  /** Locks (FOR UPDATE, or SKIP LOCKED for jobs) and reads the row; null when there is none to move. */
  load: (tx: Tx) => Promise<R | null>;
  /** Thrown when `load` found nothing; without it, nothing changes. */
  missing?: () => Error;
  /** The merchant ledger the change touches (locked right after the row) and the row's shop. */
  ledger: (row: R) => LedgerScope;
  /** The row's state, and the states this operation accepts. Omitted: a move that creates its row. */
  status?: (row: R) => string;
  from?: readonly string[];
  /** A row in a state not accepted: an error to throw, or undefined to change nothing. */
  refuse?: (row: R, status: string) => Error | undefined;
  /** The change itself, under both locks: writes the new state, returns postings and events; null changes nothing. */
  apply: (tx: Tx, row: R) => Promise<Change<T> | null>;
};

export type Outcome<R, T> = { changed: true; row: R; result: T; wake: Wake[] } | { changed: false; row: R | null; result?: undefined; wake: Wake[] };

/** Runs `op` inside the caller's transaction (for a move composed with another in one commit); the caller wakes jobs. */
export async function transitionIn<R, T>(tx: Tx, op: Operation<R, T>): Promise<Outcome<R, T>> {
  await op.before?.(tx);
  const row = await op.load(tx);
  if (!row) {
    if (op.missing) throw op.missing();
    return { changed: false, row: null, wake: [] };
  }
  const scope = op.ledger(row);
  await lockMerchantLedger(tx, scope.merchantId, scope.environment);
  if (op.status && op.from) {
    const status = op.status(row);
    if (!op.from.includes(status)) {
      const refusal = op.refuse?.(row, status);
      if (refusal) throw refusal;
      return { changed: false, row, wake: [] };
    }
  }
  const change = await op.apply(tx, row);
  if (!change) return { changed: false, row, wake: [] };
  // A simulate request's Idempotency-Key commits with the change it protects (bindOnNextTransition).
  await bindPendingIdempotency(tx);
  for (const p of change.postings ?? []) await post(tx, { ...scope, ...p });
  // The status before the change, for an event about the entity whose status the operation
  // checked: the row itself, or the part of a composite row (`{ claim, transaction }`) that has
  // the event object's id and that status. Other events take it from the object's last event.
  const before = op.status?.(row);
  const entities = [row, ...Object.values(row as object)].filter((v): v is { id: unknown; status?: unknown } => !!v && typeof v === "object" && "id" in v);
  for (const e of change.events ?? []) {
    const objectId = (e.object as { id?: unknown } | null)?.id;
    const moved = before !== undefined && entities.some((x) => x.id === objectId && ((x as unknown) === row || x.status === before));
    await emitEvent(tx, { ...scope, type: e.type, object: e.object, ...(moved ? { previousStatus: before } : {}), ...(e.data ? { data: e.data } : {}) });
  }
  const wake = [...(change.wake ?? [])];
  if (change.events?.length) wake.push({ name: JOB_SIGNALS.webhooksDue });
  return { changed: true, row, result: change.result, wake };
}

/** Wakes what a committed change made due (no-op with the local ticker). */
export function wakeAfterCommit(wake: Wake[]): void {
  const seen = new Set<string>();
  for (const w of wake) {
    const key = `${w.name}:${JSON.stringify(w.data ?? {})}`;
    if (seen.has(key)) continue;
    seen.add(key);
    wakeJobs(w.name, w.data);
  }
}

/** Attempts of one kernel transaction before a conflict reaches the caller (then a 503: lib/platform/errors.ts). */
const CONFLICT_ATTEMPTS = 4;

/**
 * Runs `work` in one database transaction, and again from the start when PostgreSQL rolled it
 * back for a conflict with another transaction (a deadlock's victim, a serialisation failure, a
 * NOWAIT lock found held: isTransactionConflict). The lock order keeps the kernel's own moves
 * from deadlocking each other; this is for what may still meet them (a statement outside the
 * kernel locking rows in another order, a lock taken without waiting). The lost attempt left
 * nothing behind: everything it wrote was in the transaction, and the request's idempotency
 * binding state, the one thing kept in memory, is put back before the next attempt.
 */
export async function kernelTransaction<T>(name: string, work: (tx: Tx) => Promise<T>): Promise<T> {
  const restore = idempotencySavepoint();
  for (let attempt = 1; ; attempt++) {
    try {
      return await db().$transaction(work);
    } catch (err) {
      if (attempt >= CONFLICT_ATTEMPTS || !isTransactionConflict(err)) throw err;
      restore();
      log.warn({ operation: name, attempt, err: err instanceof Error ? err.message.split("\n").filter(Boolean).pop() : String(err) }, "transaction rolled back by a concurrent one; running it again");
      // A short random pause, growing with the attempts, so the two sides do not meet again at once.
      await new Promise((r) => setTimeout(r, Math.random() * 10 * attempt));
    }
  }
}

/** Runs `op` in its own transaction (again after a conflict: kernelTransaction), then wakes the jobs its change made due. */
export async function transition<R, T>(op: Operation<R, T>): Promise<Outcome<R, T>> {
  const out = await kernelTransaction(op.name, (tx) => transitionIn(tx, op));
  if (out.changed) wakeAfterCommit(out.wake);
  return out;
}

/** `SELECT ... FOR UPDATE` of one row by id, then the row (a helper for `load`). */
export async function lockRow<R>(tx: Tx, table: "transactions" | "claims" | "payouts" | "payout_swaps" | "deposit_accounts" | "settlements" | "qr_orders" | "withdrawals" | "topups" | "mandates" | "mandate_charges", id: string, read: () => Promise<R | null>, opts: { skipLocked?: boolean; where?: string } = {}): Promise<R | null> {
  const rows = await tx.$queryRawUnsafe<{ id: string }[]>(`SELECT id FROM ${table} WHERE id = $1${opts.where ? ` AND ${opts.where}` : ""} FOR UPDATE${opts.skipLocked ? " SKIP LOCKED" : ""}`, id);
  if (rows.length === 0) return null;
  return read();
}
