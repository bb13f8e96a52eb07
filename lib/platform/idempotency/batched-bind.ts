// The bind on the lean `sql` path, for hot writes outside a Prisma transaction: folded into the
// write's own statement (boundInsert, claimingInsert, sqlBound), or into a batch of several
// requests' writes (batchedBind, claimBoundMany: lib/payments/insert-batch.ts).
import { sql } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import type { ResourceRef } from "@/lib/platform/idempotency/keys";
import { ClaimTaken, currentIdempotency } from "@/lib/platform/idempotency/current";
import { claimBound, claimValues, TAKE_OVER } from "@/lib/platform/idempotency/statements";

/**
 * The bind folded into a hot-path INSERT on the lean `sql` path (one statement, one round trip,
 * no Prisma transaction): `insert` gets the CTE `bound`, and must take its first value, the row's
 * NOT NULL id, as `(SELECT $1 FROM bound)`, so a key taken over makes the whole statement fail.
 * `params` is the number of the insert's own placeholders.
 */
export function boundInsert(insert: string, params: number): string {
  const [rec, type, id] = [params + 1, params + 2, params + 3];
  return `WITH bound AS (UPDATE idempotency_records SET state = 'committed', resource_type = COALESCE(resource_type, $${type}), resource_id = COALESCE(resource_id, $${id}), updated_at = now()
    WHERE id = $${rec} AND state IN ('processing', 'committed') RETURNING id) ${insert}`;
}

/**
 * `boundInsert`'s twin for a folded claim: the CTE `bound` inserts the request's record already
 * committed and bound to what the insert creates, or takes over an expired or abandoned one; when
 * the key is held (a duplicate in flight or done, another body) it returns nothing, the insert's
 * id is NULL and the whole statement fails: nothing is written.
 */
export function claimingInsert(insert: string, params: number): string {
  return `WITH bound AS (${claimBound(params)} RETURNING id) ${insert}`;
}

/**
 * What a write batched with other requests' writes (lib/payments/insert-batch.ts) must do for the
 * running request's key: `none` (no key, or the request has ended: a plain insert); `claim` (a
 * folded claim: the row's record goes in the batch's own claiming CTE, `record` its values in
 * claimValues' order, `conflictKey` the scope no other row of one statement may share, and
 * `settle` is told whether the claim took: it clears the fold, or throws the request's
 * ClaimTaken); `claimed` (the key was claimed first: the write goes alone through `sqlBound`).
 * Read in the request's own async context; what it returns may be used from any other.
 */
export type ClaimBind = { kind: "claim"; record: unknown[]; conflictKey: string; settle: (claimed: boolean) => void };
export type BatchedBind = { kind: "none" } | { kind: "claimed" } | ClaimBind;

export function batchedBind(ref: ResourceRef, answer?: unknown): BatchedBind {
  const ctx = currentIdempotency();
  if (!ctx) return { kind: "none" };
  const fold = ctx.fold;
  if (!fold) return { kind: "claimed" };
  const text = answer === undefined || fold.answerStatus === undefined ? null : JSON.stringify(answer);
  const { scope } = fold;
  return {
    kind: "claim",
    record: claimValues(ctx.recordId, fold, ref, text),
    conflictKey: JSON.stringify([scope.merchantId, scope.environment, scope.shopId ?? "", scope.key, scope.method, scope.path]),
    settle: (claimed) => {
      if (!claimed) throw new ClaimTaken();
      ctx.fold = undefined;
      if (text !== null) ctx.stored = { body: answer };
    },
  };
}

/**
 * Runs a `boundInsert` statement for the running request (a plain `sql` call without a key);
 * under a folded claim, `claiming` (a `claimingInsert` of the same insert) claims and binds at once,
 * and stores `answer` (the body the use case will return, when it knows it) with them.
 */
export async function sqlBound(statement: string, plain: string, values: unknown[], ref: ResourceRef, claiming?: string, answer?: unknown): Promise<void> {
  const bind = batchedBind(ref, answer);
  if (bind.kind === "none") {
    await sql(plain, values);
    return;
  }
  if (bind.kind === "claim") {
    if (!claiming) throw new Error("a folded idempotency claim reached a write that cannot claim (pass a claimingInsert)");
    return claimingWrite(claiming, values, bind);
  }
  const ctx = currentIdempotency()!;
  try {
    await sql(statement, [...values, ctx.recordId, ref.resource, ref.id]);
  } catch (err) {
    if ((err as { code?: string; column?: string }).code === "23502" && (err as { column?: string }).column === "id") {
      throw new AppError("idempotency_conflict", "This request's Idempotency-Key was taken over by a retry; nothing was changed by this attempt.", { param: "Idempotency-Key", details: { reason: "in_progress" } });
    }
    throw err;
  }
}

/**
 * A folded claim's write alone: `claiming` (a claimingInsert) with the record's values after the
 * insert's own. Reads no async context, so a batch may run it for another request.
 */
export async function claimingWrite(claiming: string, values: unknown[], bind: ClaimBind): Promise<void> {
  try {
    await sql(claiming, [...values, ...bind.record]);
  } catch (err) {
    // The key is held: `bound` returned nothing and the insert's NOT NULL id was NULL.
    if ((err as { code?: string }).code === "23502" && (err as { column?: string }).column === "id") bind.settle(false);
    throw err;
  }
  bind.settle(true);
}

