// The running request's idempotency record, carried through its use case in an async context
// (one per request or dashboard action): set by withIdempotency (run.ts), read by the binds
// (bind.ts, batched-bind.ts) through currentIdempotency() alone.
import { AsyncLocalStorage } from "node:async_hooks";
import { singleton } from "@/lib/platform/singleton";
import type { IdempotencyScope, ResourceRef } from "@/lib/platform/idempotency/keys";

// The claimed record of the request running in this async context (one per request or action).
// `done` once the request's use case returned: timers or jobs started inside it inherit the
// context, and must not bind their own writes to a request that has ended.
// `pending`: a resource the request's next money transition binds to (bindOnNextTransition).
// `fold`: the key is not claimed yet; the first bind claims it (foldClaim), then `fold` is cleared.
// `answerStatus`: the status a success answers with, so a write that knows its answer stores it
// in the same statement (`stored`: the answer object it stored).
export type Fold = { scope: IdempotencyScope; requestHash: string; answerStatus?: number };
export type Context = { recordId: string; done: boolean; pending?: ResourceRef; fold?: Fold; stored?: { body: unknown } };
export const idempotencyContext = singleton("idempotency.context", () => new AsyncLocalStorage<Context>());

/**
 * The idempotency record of the request running in this async context, while its use case runs
 * (undefined without an Idempotency-Key, or once the use case returned). The one way code reads
 * the current key: every bind goes through it.
 */
export function currentIdempotency(): Context | undefined {
  const ctx = idempotencyContext.getStore();
  return ctx && !ctx.done ? ctx : undefined;
}

/** A folded claim found the key taken (a duplicate, or a different request): nothing was written. */
export class ClaimTaken extends Error {}

/** Whether the code runs under a claimed idempotency record (so it must bind in a transaction). */
export function idempotencyActive(): boolean {
  return currentIdempotency() !== undefined;
}

