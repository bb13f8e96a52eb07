// Running a request under its Idempotency-Key (keys.ts' header): claim first, or the claim folded
// into the use case's first write (foldClaim); replay, wait or refuse what a key already holds.
import { setTimeout as delay } from "node:timers/promises";
import { sql } from "@/lib/platform/db";
import { newId } from "@/lib/platform/ids";
import { AppError } from "@/lib/platform/errors";
import { sha256Hex } from "@/lib/platform/crypto/hash";
import { canonicalJson, idempotencyLeaseMs, IDEMPOTENCY_TTL_MS, IDEMPOTENCY_WAIT_MS, type IdempotencyOptions, type IdempotencyScope, type StoredResponse } from "@/lib/platform/idempotency/keys";
import { ClaimTaken, idempotencyContext, type Context } from "@/lib/platform/idempotency/current";
import { CLAIM, COMPLETE, COMPLETE_UNBOUND, EXPIRE_LEASE, READ, RELEASE, STORE_ANSWER } from "@/lib/platform/idempotency/statements";

async function claim(scope: IdempotencyScope, requestHash: string): Promise<string | null> {
  const now = Date.now();
  const rows = await sql<{ id: string }>(CLAIM, [newId("idempotency"), scope.merchantId, scope.environment, scope.key, scope.method, scope.path, requestHash, new Date(now + idempotencyLeaseMs()), new Date(now + IDEMPOTENCY_TTL_MS), scope.shopId ?? ""]);
  return rows[0]?.id ?? null;
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
        result = await idempotencyContext.run(ctx, run);
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
    result = await idempotencyContext.run(ctx, run);
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
