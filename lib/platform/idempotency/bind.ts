// Binding the running request's record to what its use case changed, inside that change's own
// transaction: the record and the change commit together or not at all (keys.ts' header).
import { db, type Tx } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import type { ResourceRef } from "@/lib/platform/idempotency/keys";
import { ClaimTaken, currentIdempotency, idempotencyActive } from "@/lib/platform/idempotency/current";
import { BIND, CLAIM_BOUND, claimValues } from "@/lib/platform/idempotency/statements";

/**
 * Marks the running request's idempotency record committed, bound to `ref`, inside `tx`: the
 * record and the change commit together or not at all. Call it in the use case's first
 * committing transaction; without an Idempotency-Key it does nothing. Throws (rolling `tx` back)
 * when the key was taken over by a retry after the lease ran out.
 */
export async function bindIdempotency(tx: Tx, ref: ResourceRef): Promise<void> {
  const ctx = currentIdempotency();
  if (!ctx) return;
  if (ctx.fold) {
    const rows = await tx.$queryRawUnsafe<{ id: string }[]>(`${CLAIM_BOUND} RETURNING id`, ...claimValues(ctx.recordId, ctx.fold, ref));
    if (rows.length !== 1) throw new ClaimTaken();
    ctx.fold = undefined;
    return;
  }
  const n = await tx.$executeRawUnsafe(BIND, ctx.recordId, ref.resource, ref.id);
  if (n !== 1) {
    throw new AppError("idempotency_conflict", "This request's Idempotency-Key was taken over by a retry; nothing was changed by this attempt.", { param: "Idempotency-Key", details: { reason: "in_progress" } });
  }
}

/**
 * For a use case whose change is a kernel transition it does not write itself (the sandbox
 * `simulate` endpoints): the next transition that changes something binds the running request's
 * record to `ref` in its own transaction (lib/ledger/transition.ts calls `bindPendingIdempotency`).
 * Without an Idempotency-Key it does nothing.
 */
export function bindOnNextTransition(ref: ResourceRef): void {
  const ctx = currentIdempotency();
  if (ctx) ctx.pending = ref;
}

/**
 * The running request's binding state as it is now, and a function that puts it back: a
 * transaction that bound (or claimed) and was then rolled back by a conflict runs again
 * (lib/ledger/transition.ts, kernelTransaction), and must bind again, since its first bind never
 * committed.
 */
export function idempotencySavepoint(): () => void {
  const ctx = currentIdempotency();
  if (!ctx) return () => {};
  const { pending, fold, stored } = ctx;
  return () => {
    ctx.pending = pending;
    ctx.fold = fold;
    ctx.stored = stored;
  };
}

/** The kernel's side of `bindOnNextTransition`: binds inside `tx` when a bind is pending. */
export async function bindPendingIdempotency(tx: Tx): Promise<void> {
  const ctx = currentIdempotency();
  if (!ctx?.pending) return;
  const ref = ctx.pending;
  ctx.pending = undefined;
  await bindIdempotency(tx, ref);
}

/**
 * For a use case whose change is one write outside any transaction: runs `write` in a
 * transaction with the bind when an Idempotency-Key is active, else directly (no extra round trip).
 */
export async function inBoundTransaction<T>(write: (tx: Tx) => Promise<T>, ref: (created: T) => ResourceRef): Promise<T> {
  if (!idempotencyActive()) return write(db());
  return db().$transaction(async (tx) => {
    const created = await write(tx);
    await bindIdempotency(tx, ref(created));
    return created;
  });
}

