// Idempotency-Key (decisions.md): scope merchant + environment + shop ('' for a merchant-wide
// credential) + key + method + the endpoint's canonical path (`/transactions` is `/payments`), kept 24 h.
// Same key and same canonical body replays the stored answer; a different body is 409
// idempotency_conflict. A duplicate arriving while the first is still running waits for it (up
// to 10 s) and replays it: the `processing` row is the lock, so two side effects are impossible
// across instances.
//
// The record is completed in the SAME database transaction as the change it protects: the use
// case calls `bindIdempotency(tx, { resource, id })` inside its first committing transaction,
// which turns the record `committed` and names what was created. A crash at any point leaves
// either nothing (`processing`, never bound: after the lease a retry takes the key over and runs
// the use case, and the stale attempt can no longer bind) or both (`committed`: a retry never runs
// the use case again; if the answer was not stored yet, it is re-rendered from the resource by
// the endpoint's replay function). States: processing -> committed -> completed.
//
// Errors: an error raised before anything committed is not stored (the key is reusable). An
// error raised AFTER binding (e.g. a provider refusal once the payout row committed) IS stored
// and replayed, because running the use case again would act again.
import { AsyncLocalStorage } from "node:async_hooks";
import { setTimeout as delay } from "node:timers/promises";
import { db, sql, type Tx } from "@/lib/db";
import { newId } from "@/lib/ids";
import { AppError } from "@/lib/errors";
import { config } from "@/lib/config";
import { singleton } from "@/lib/singleton";
import { sha256Hex } from "@/lib/crypto/hash";
import type { Environment } from "@/lib/generated/prisma/enums";

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/**
 * A `processing` row (nothing committed) older than this is a crashed attempt and may be taken
 * over; a `committed` row whose answer is missing after it is re-rendered from its resource.
 * IDEMPOTENCY_LEASE_MS (default 60 s; tests use less).
 */
export const idempotencyLeaseMs = () => config().IDEMPOTENCY_LEASE_MS;
export const IDEMPOTENCY_WAIT_MS = 10_000;

export type IdempotencyScope = { merchantId: string; environment: Environment; key: string; method: string; path: string; /** The credential's shop; omitted or null: merchant-wide. */ shopId?: string | null };

/** The API path an idempotency key is scoped to: the legacy alias `/transactions` shares `/payments`' key space. */
export function canonicalIdempotencyPath(pathname: string): string {
  return pathname.replace(/^\/api\/v1\/transactions(?=\/|$)/, "/api/v1/payments").replace(/\/+$/, "") || "/";
}
export type StoredResponse = { status: number; body: unknown };
/** What the protected change created: the resource a lost answer is re-rendered from. */
export type ResourceRef = { resource: string; id: string };
export type IdempotencyOptions = {
  /** Re-renders the answer from the resource when the stored answer was lost (a crash after commit). */
  replay?: (ref: ResourceRef) => Promise<StoredResponse>;
  /** The answer an error becomes, when it is worth storing (an AppError); null for anything else. */
  renderError?: (err: unknown) => StoredResponse | null;
  /**
   * false: the answer is never stored (it holds a secret); every replay is re-rendered from the
   * resource. An attempt that bound nothing frees the key.
   */
  storeAnswer?: boolean;
  /**
   * Claim the key in the use case's own first write instead of a statement of its own (one round
   * trip instead of two, see "The claim folded into the write" below). Only for a use case whose
   * every success binds (`sqlBound` with a claiming statement, or `bindIdempotency`).
   */
  foldClaim?: boolean;
  /** With foldClaim: the status of a successful answer (a write passing its answer stores it at once). */
  successStatus?: number;
};

// The claimed record of the request running in this async context (one per request or action).
// `done` once the request's use case returned: timers or jobs started inside it inherit the
// context, and must not bind their own writes to a request that has ended.
// `pending`: a resource the request's next money transition binds to (bindOnNextTransition).
// `fold`: the key is not claimed yet; the first bind claims it (foldClaim), then `fold` is cleared.
// `answerStatus`: the status a success answers with, so a write that knows its answer stores it
// in the same statement (`stored`: the answer object it stored).
type Fold = { scope: IdempotencyScope; requestHash: string; answerStatus?: number };
type Context = { recordId: string; done: boolean; pending?: ResourceRef; fold?: Fold; stored?: { body: unknown } };
const context = singleton("idempotency.context", () => new AsyncLocalStorage<Context>());

/** A folded claim found the key taken (a duplicate, or a different request): nothing was written. */
class ClaimTaken extends Error {}

/** JSON with object keys sorted at every level, so equal bodies hash equally. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

export function validateIdempotencyKey(key: string): string {
  if (key.length < 1 || key.length > 255 || !/^[\x21-\x7e]+$/.test(key)) {
    throw new AppError("invalid_request", "`Idempotency-Key` must be 1-255 visible ASCII characters.", { param: "Idempotency-Key" });
  }
  return key;
}

// Every request with an Idempotency-Key runs these statements: they go through the lean `sql`
// path (see lib/db.ts).
const CLAIM = `
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
const BIND = `UPDATE idempotency_records SET state = 'committed', resource_type = COALESCE(resource_type, $2),
  resource_id = COALESCE(resource_id, $3), updated_at = now() WHERE id = $1 AND state IN ('processing', 'committed')`;
const COMPLETE = `UPDATE idempotency_records SET state = 'completed', response_status = $2, response_body = $3, updated_at = now()
  WHERE id = $1 AND state = 'committed'`;
// Success with nothing bound (a use case that found instead of created, or one not wired): the
// answer is stored as before.
const COMPLETE_UNBOUND = `UPDATE idempotency_records SET state = 'completed', response_status = $2, response_body = $3, updated_at = now()
  WHERE id = $1 AND state IN ('processing', 'committed')`;
const RELEASE = `DELETE FROM idempotency_records WHERE id = $1 AND state = 'processing'`;
// A folded claim's answer: stored over the one its write stored, if the use case answered otherwise.
const STORE_ANSWER = `UPDATE idempotency_records SET state = 'completed', response_status = $2, response_body = $3, updated_at = now()
  WHERE id = $1 AND state IN ('committed', 'completed')`;
// A bound attempt that failed with no answer worth storing: let the next retry re-render at once.
const EXPIRE_LEASE = `UPDATE idempotency_records SET locked_until = now() WHERE id = $1 AND state = 'committed'`;
const READ = `SELECT id, request_hash, state, response_status, response_body, resource_type, resource_id, locked_until < now() AS lease_over
  FROM idempotency_records
  WHERE merchant_id = $1 AND environment = $2::"Environment" AND idempotency_key = $3 AND method = $4 AND path = $5 AND shop_id = $6`;

async function claim(scope: IdempotencyScope, requestHash: string): Promise<string | null> {
  const now = Date.now();
  const rows = await sql<{ id: string }>(CLAIM, [newId("idempotency"), scope.merchantId, scope.environment, scope.key, scope.method, scope.path, requestHash, new Date(now + idempotencyLeaseMs()), new Date(now + IDEMPOTENCY_TTL_MS), scope.shopId ?? ""]);
  return rows[0]?.id ?? null;
}

/** Whether the code runs under a claimed idempotency record (so it must bind in a transaction). */
export function idempotencyActive(): boolean {
  const ctx = context.getStore();
  return ctx !== undefined && !ctx.done;
}

/**
 * Marks the running request's idempotency record committed, bound to `ref`, inside `tx`: the
 * record and the change commit together or not at all. Call it in the use case's first
 * committing transaction; without an Idempotency-Key it does nothing. Throws (rolling `tx` back)
 * when the key was taken over by a retry after the lease ran out.
 */
export async function bindIdempotency(tx: Tx, ref: ResourceRef): Promise<void> {
  const ctx = context.getStore();
  if (!ctx || ctx.done) return;
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
  const ctx = context.getStore();
  if (ctx && !ctx.done) ctx.pending = ref;
}

/**
 * The running request's binding state as it is now, and a function that puts it back: a
 * transaction that bound (or claimed) and was then rolled back by a conflict runs again
 * (lib/ledger/transition.ts, kernelTransaction), and must bind again, since its first bind never
 * committed.
 */
export function idempotencySavepoint(): () => void {
  const ctx = context.getStore();
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
  const ctx = context.getStore();
  if (!ctx?.pending || ctx.done) return;
  const ref = ctx.pending;
  ctx.pending = undefined;
  await bindIdempotency(tx, ref);
}

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

// A held key stays held; an expired record, or an abandoned claim (its lease over), is taken over.
const TAKE_OVER = `
  ON CONFLICT (merchant_id, environment, shop_id, idempotency_key, method, path) DO UPDATE SET
    id = EXCLUDED.id, request_hash = EXCLUDED.request_hash, state = EXCLUDED.state, response_status = EXCLUDED.response_status,
    response_body = EXCLUDED.response_body, resource_type = EXCLUDED.resource_type, resource_id = EXCLUDED.resource_id,
    locked_until = EXCLUDED.locked_until, expires_at = EXCLUDED.expires_at, updated_at = now()
  WHERE idempotency_records.expires_at < now()
     OR (idempotency_records.state = 'processing' AND idempotency_records.locked_until < now())`;

// The record, inserted committed and bound (completed, with its answer, when the write passes
// the answer it will give); the takeover rule is CLAIM's. $n+1..$n+14: claimValues.
function claimBound(n: number): string {
  const p = (i: number) => `$${n + i}`;
  const state = `(CASE WHEN ${p(13)}::int IS NULL THEN 'committed' ELSE 'completed' END)`;
  return `INSERT INTO idempotency_records
    (id, merchant_id, environment, idempotency_key, method, path, request_hash, state, locked_until, expires_at, shop_id, resource_type, resource_id, response_status, response_body, created_at, updated_at)
  VALUES (${p(1)}, ${p(2)}, ${p(3)}::"Environment", ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${state}, ${p(8)}, ${p(9)}, ${p(10)}, ${p(11)}, ${p(12)}, ${p(13)}::int, ${p(14)}::text, now(), now())
${TAKE_OVER}`;
}
const CLAIM_BOUND = claimBound(0);

function claimValues(recordId: string, fold: Fold, ref: ResourceRef, answer: string | null = null): unknown[] {
  const { scope } = fold;
  const now = Date.now();
  const status = answer !== null && fold.answerStatus !== undefined ? fold.answerStatus : null;
  return [recordId, scope.merchantId, scope.environment, scope.key, scope.method, scope.path, fold.requestHash, new Date(now + idempotencyLeaseMs()), new Date(now + IDEMPOTENCY_TTL_MS), scope.shopId ?? "", ref.resource, ref.id, status, status === null ? null : answer];
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
  const ctx = context.getStore();
  if (!ctx || ctx.done) return { kind: "none" };
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
  const ctx = context.getStore()!;
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

type Row = { id: string; request_hash: string; state: string; response_status: number | null; response_body: string | null; resource_type: string | null; resource_id: string | null; lease_over: boolean };

export async function withIdempotency(scope: IdempotencyScope, body: unknown, run: () => Promise<StoredResponse>, opts: IdempotencyOptions = {}): Promise<StoredResponse & { replayed: boolean }> {
  const requestHash = sha256Hex(canonicalJson(body ?? null));
  if (opts.foldClaim) {
    const folded = await runFolded(scope, requestHash, run, opts);
    if (folded) return folded;
    // The key was held: answer as any later request with it (replay, wait, or conflict).
  }
  const deadline = Date.now() + IDEMPOTENCY_WAIT_MS;
  let pause = 10;
  for (;;) {
    const claimed = await claim(scope, requestHash);
    if (claimed) {
      let result: StoredResponse;
      const ctx = { recordId: claimed, done: false };
      try {
        result = await context.run(ctx, run);
      } catch (err) {
        ctx.done = true;
        const answer = opts.renderError?.(err) ?? null;
        // Stored only when something committed (the record is bound); otherwise the key is freed.
        const stored = answer && opts.storeAnswer !== false ? await sql(COMPLETE + " RETURNING id", [claimed, answer.status, JSON.stringify(answer.body)]) : [];
        if (stored.length === 0) {
          await sql(RELEASE, [claimed]);
          await sql(EXPIRE_LEASE, [claimed]);
        }
        throw err;
      }
      ctx.done = true;
      if (opts.storeAnswer === false) {
        await sql(RELEASE, [claimed]);
        await sql(EXPIRE_LEASE, [claimed]);
      } else {
        await sql(COMPLETE_UNBOUND, [claimed, result.status, JSON.stringify(result.body)]);
      }
      return { ...result, replayed: false };
    }

    const [row] = await sql<Row>(READ, [scope.merchantId, scope.environment, scope.key, scope.method, scope.path, scope.shopId ?? ""]);
    if (row && row.request_hash !== requestHash) {
      throw new AppError("idempotency_conflict", "This Idempotency-Key was already used with a different request body. Use a new key for a new request.", { param: "Idempotency-Key" });
    }
    if (row?.state === "completed" && row.response_status !== null && row.response_body !== null) {
      return { status: row.response_status, body: JSON.parse(row.response_body), replayed: true };
    }
    // Committed but its answer never stored (the process died after commit, or failed oddly):
    // the change happened once; answer from the resource as it is now, never run it again.
    if (row?.state === "committed" && row.lease_over && row.resource_type && row.resource_id && opts.replay) {
      const answer = await opts.replay({ resource: row.resource_type, id: row.resource_id });
      if (opts.storeAnswer !== false) await sql(COMPLETE, [row.id, answer.status, JSON.stringify(answer.body)]);
      return { ...answer, replayed: true };
    }
    if (Date.now() > deadline) {
      throw new AppError("idempotency_conflict", "A request with this Idempotency-Key is still being processed; retry later.", { param: "Idempotency-Key", details: { reason: "in_progress" } });
    }
    // Still processing elsewhere (or just released after an error): wait and look again.
    await delay(pause);
    pause = Math.min(pause * 2, 100);
  }
}

// The claim folded into the write (foldClaim). The claim-first order above costs a round trip
// and a commit of its own before the use case starts. Folded, the use case runs unclaimed up to
// its first write, and that write claims the key in the same statement (claimingInsert) or
// transaction (bindIdempotency): the record is inserted `committed` and bound, with the change or
// not at all. A use case that finds the key held writes nothing (ClaimTaken) and the request goes
// the usual way: replay, wait for the one in flight, or 409 for another body. What it did before
// its first write must be reads only (POST /payments: shop, rails, rates, the sandbox's local
// cascade; production calls providers only after its insert). A request whose key is held thus
// reads before it is told. A use case that fails before its write looks the key up (on that
// path only): a held key is answered as above, so every answer is the claim-first order's.
// On success the answer is stored as in the claim-first order, before the request is answered.
async function runFolded(scope: IdempotencyScope, requestHash: string, run: () => Promise<StoredResponse>, opts: IdempotencyOptions): Promise<(StoredResponse & { replayed: boolean }) | null> {
  const ctx: Context = { recordId: newId("idempotency"), done: false, fold: { scope, requestHash, answerStatus: opts.successStatus } };
  let result: StoredResponse;
  try {
    result = await context.run(ctx, run);
  } catch (err) {
    ctx.done = true;
    if (err instanceof ClaimTaken) return null;
    if (ctx.fold) {
      // Nothing claimed, nothing committed. If the key is held, answer as the claim-first order
      // would have before running anything (replay, wait, or 409 for another body); else the
      // error stands and the key stays free.
      const [held] = await sql<{ id: string }>(READ, [scope.merchantId, scope.environment, scope.key, scope.method, scope.path, scope.shopId ?? ""]);
      if (held) return null;
      throw err;
    }
    const answer = opts.renderError?.(err) ?? null;
    // Over an answer the write may have stored already: the error is what the request answers.
    const stored = answer && opts.storeAnswer !== false ? await sql(STORE_ANSWER + " RETURNING id", [ctx.recordId, answer.status, JSON.stringify(answer.body)]) : [];
    if (stored.length === 0) await sql(EXPIRE_LEASE, [ctx.recordId]);
    throw err;
  }
  ctx.done = true;
  // A success that bound nothing wrote nothing under the key: nothing to store (a retry runs it again).
  if (ctx.fold) return { ...result, replayed: false };
  if (opts.storeAnswer === false) {
    await sql(EXPIRE_LEASE, [ctx.recordId]);
  } else {
    // Stored with the write already (one statement in all) when the use case returned the very
    // object its write stored (no second serialisation on the hot path); otherwise stored now.
    if (ctx.stored?.body !== result.body || result.status !== opts.successStatus) await sql(STORE_ANSWER, [ctx.recordId, result.status, JSON.stringify(result.body)]);
  }
  return { ...result, replayed: false };
}
