// The statements of the idempotency record (idempotency_records): claim, bind, complete, release,
// read, and the claiming CTEs that fold a claim into a use case's own write. They go through the
// lean `sql` path (lib/platform/db.ts).
import { idempotencyLeaseMs, IDEMPOTENCY_TTL_MS, type ResourceRef } from "@/lib/platform/idempotency/keys";
import type { Fold } from "@/lib/platform/idempotency/current";

// Every request with an Idempotency-Key runs these statements: they go through the lean `sql`
// path (see lib/platform/db.ts).
export const CLAIM = `
  INSERT INTO idempotency_records
    (id, merchant_id, environment, idempotency_key, method, path, request_hash, state, locked_until, expires_at, shop_id, created_at, updated_at)
  VALUES ($1, $2, $3::"Environment", $4, $5, $6, $7, 'processing', $8, $9, $10, now(), now())
  ON CONFLICT (merchant_id, environment, shop_id, idempotency_key, method, path) DO UPDATE SET
    id = EXCLUDED.id, request_hash = EXCLUDED.request_hash, state = 'processing', response_status = NULL,
    response_body = NULL, resource_type = NULL, resource_id = NULL,
    locked_until = EXCLUDED.locked_until, expires_at = EXCLUDED.expires_at, updated_at = now()
  WHERE idempotency_records.expires_at < now()
     OR (idempotency_records.state = 'processing' AND idempotency_records.locked_until < now())
  RETURNING id`;
// The fencing step: a taken-over record has a new id, so a stale attempt binds nothing and its
// transaction rolls back. The first resource bound wins (a use case may bind in two steps).
export const BIND = `UPDATE idempotency_records SET state = 'committed', resource_type = COALESCE(resource_type, $2),
  resource_id = COALESCE(resource_id, $3), updated_at = now() WHERE id = $1 AND state IN ('processing', 'committed')`;
export const COMPLETE = `UPDATE idempotency_records SET state = 'completed', response_status = $2, response_body = $3, updated_at = now()
  WHERE id = $1 AND state = 'committed'`;
// Success with nothing bound (a use case that found instead of created, or one not wired): the
// answer is stored as before.
export const COMPLETE_UNBOUND = `UPDATE idempotency_records SET state = 'completed', response_status = $2, response_body = $3, updated_at = now()
  WHERE id = $1 AND state IN ('processing', 'committed')`;
export const RELEASE = `DELETE FROM idempotency_records WHERE id = $1 AND state = 'processing'`;
// A folded claim's answer: stored over the one its write stored, if the use case answered otherwise.
export const STORE_ANSWER = `UPDATE idempotency_records SET state = 'completed', response_status = $2, response_body = $3, updated_at = now()
  WHERE id = $1 AND state IN ('committed', 'completed')`;
// A bound attempt that failed with no answer worth storing: let the next retry re-render at once.
export const EXPIRE_LEASE = `UPDATE idempotency_records SET locked_until = now() WHERE id = $1 AND state = 'committed'`;
export const READ = `SELECT id, request_hash, state, response_status, response_body, resource_type, resource_id, locked_until < now() AS lease_over
  FROM idempotency_records
  WHERE merchant_id = $1 AND environment = $2::"Environment" AND idempotency_key = $3 AND method = $4 AND path = $5 AND shop_id = $6`;

// A held key stays held; an expired record, or an abandoned claim (its lease over), is taken over.
export const TAKE_OVER = `
  ON CONFLICT (merchant_id, environment, shop_id, idempotency_key, method, path) DO UPDATE SET
    id = EXCLUDED.id, request_hash = EXCLUDED.request_hash, state = EXCLUDED.state, response_status = EXCLUDED.response_status,
    response_body = EXCLUDED.response_body, resource_type = EXCLUDED.resource_type, resource_id = EXCLUDED.resource_id,
    locked_until = EXCLUDED.locked_until, expires_at = EXCLUDED.expires_at, updated_at = now()
  WHERE idempotency_records.expires_at < now()
     OR (idempotency_records.state = 'processing' AND idempotency_records.locked_until < now())`;

// The record, inserted committed and bound (completed, with its answer, when the write passes
// the answer it will give); the takeover rule is CLAIM's. $n+1..$n+14: claimValues.
export function claimBound(n: number): string {
  const p = (i: number) => `$${n + i}`;
  const state = `(CASE WHEN ${p(13)}::int IS NULL THEN 'committed' ELSE 'completed' END)`;
  return `INSERT INTO idempotency_records
    (id, merchant_id, environment, idempotency_key, method, path, request_hash, state, locked_until, expires_at, shop_id, resource_type, resource_id, response_status, response_body, created_at, updated_at)
  VALUES (${p(1)}, ${p(2)}, ${p(3)}::"Environment", ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${state}, ${p(8)}, ${p(9)}, ${p(10)}, ${p(11)}, ${p(12)}, ${p(13)}::int, ${p(14)}::text, now(), now())
${TAKE_OVER}`;
}
export const CLAIM_BOUND = claimBound(0);

export function claimValues(recordId: string, fold: Fold, ref: ResourceRef, answer: string | null = null): unknown[] {
  const { scope } = fold;
  const now = Date.now();
  const status = answer !== null && fold.answerStatus !== undefined ? fold.answerStatus : null;
  return [recordId, scope.merchantId, scope.environment, scope.key, scope.method, scope.path, fold.requestHash, new Date(now + idempotencyLeaseMs()), new Date(now + IDEMPOTENCY_TTL_MS), scope.shopId ?? "", ref.resource, ref.id, status, status === null ? null : answer];
}

/** The columns of a claimed record, in claimValues' order, for a batched claiming statement. */
export const CLAIM_RECORD_COLUMNS = ["id", "merchant_id", "environment", "idempotency_key", "method", "path", "request_hash", "locked_until", "expires_at", "shop_id", "resource_type", "resource_id", "response_status", "response_body"] as const;

/**
 * `claimBound` for many rows: the records come from `source` (a FROM item whose columns are
 * CLAIM_RECORD_COLUMNS prefixed `c_`, c_id NULL for a row without a key); RETURNING gives the
 * resource id of every record claimed, so the caller inserts only those rows. Rows of one
 * statement must not share a scope (ON CONFLICT cannot touch a row twice): the batch keeps a
 * second request with the same key for its next statement.
 */
export function claimBoundMany(source: string): string {
  return `INSERT INTO idempotency_records
    (id, merchant_id, environment, idempotency_key, method, path, request_hash, state, locked_until, expires_at, shop_id, resource_type, resource_id, response_status, response_body, created_at, updated_at)
  SELECT c_id, c_merchant_id, c_environment::"Environment", c_idempotency_key, c_method, c_path, c_request_hash,
    (CASE WHEN c_response_status IS NULL THEN 'committed' ELSE 'completed' END), c_locked_until, c_expires_at, c_shop_id, c_resource_type, c_resource_id, c_response_status, c_response_body, now(), now()
  FROM ${source} WHERE c_id IS NOT NULL
${TAKE_OVER}
  RETURNING resource_id`;
}

