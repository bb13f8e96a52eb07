// Idempotency-Key (decisions.md): scope merchant + environment + key + method + path, kept 24 h.
// Same key and same canonical body replays the stored answer; a different body is 409
// idempotency_conflict; errors are never stored (the row is dropped so the key is reusable).
// A duplicate arriving while the first is still running waits for it (up to 10 s) and replays
// it: the `processing` row is the lock, so two side effects are impossible across instances.
import { setTimeout as delay } from "node:timers/promises";
import { sql } from "@/lib/db";
import { newId } from "@/lib/ids";
import { AppError } from "@/lib/errors";
import { sha256Hex } from "@/lib/crypto/hash";
import type { Environment } from "@/lib/generated/prisma/enums";

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/** A `processing` row older than this is a crashed attempt and may be taken over. */
export const IDEMPOTENCY_LOCK_MS = 60_000;
export const IDEMPOTENCY_WAIT_MS = 10_000;

export type IdempotencyScope = { merchantId: string; environment: Environment; key: string; method: string; path: string };
export type StoredResponse = { status: number; body: unknown };

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
    (id, merchant_id, environment, idempotency_key, method, path, request_hash, state, locked_until, expires_at, created_at, updated_at)
  VALUES ($1, $2, $3::"Environment", $4, $5, $6, $7, 'processing', $8, $9, now(), now())
  ON CONFLICT (merchant_id, environment, idempotency_key, method, path) DO UPDATE SET
    id = EXCLUDED.id, request_hash = EXCLUDED.request_hash, state = 'processing', response_status = NULL,
    response_body = NULL, locked_until = EXCLUDED.locked_until, expires_at = EXCLUDED.expires_at, updated_at = now()
  WHERE idempotency_records.expires_at < now()
     OR (idempotency_records.state = 'processing' AND idempotency_records.locked_until < now())
  RETURNING id`;
const COMPLETE = `UPDATE idempotency_records SET state = 'completed', response_status = $2, response_body = $3, updated_at = now() WHERE id = $1`;
const RELEASE = `DELETE FROM idempotency_records WHERE id = $1 AND state = 'processing'`;
const READ = `SELECT request_hash, state, response_status, response_body FROM idempotency_records
  WHERE merchant_id = $1 AND environment = $2::"Environment" AND idempotency_key = $3 AND method = $4 AND path = $5`;

async function claim(scope: IdempotencyScope, requestHash: string): Promise<string | null> {
  const now = Date.now();
  const rows = await sql<{ id: string }>(CLAIM, [newId("idempotency"), scope.merchantId, scope.environment, scope.key, scope.method, scope.path, requestHash, new Date(now + IDEMPOTENCY_LOCK_MS), new Date(now + IDEMPOTENCY_TTL_MS)]);
  return rows[0]?.id ?? null;
}

export async function withIdempotency(scope: IdempotencyScope, body: unknown, run: () => Promise<StoredResponse>): Promise<StoredResponse & { replayed: boolean }> {
  const requestHash = sha256Hex(canonicalJson(body ?? null));
  const deadline = Date.now() + IDEMPOTENCY_WAIT_MS;
  let pause = 10;
  for (;;) {
    const claimed = await claim(scope, requestHash);
    if (claimed) {
      let result: StoredResponse;
      try {
        result = await run();
      } catch (err) {
        await sql(RELEASE, [claimed]);
        throw err;
      }
      await sql(COMPLETE, [claimed, result.status, JSON.stringify(result.body)]);
      return { ...result, replayed: false };
    }

    const [row] = await sql<{ request_hash: string; state: string; response_status: number | null; response_body: string | null }>(READ, [scope.merchantId, scope.environment, scope.key, scope.method, scope.path]);
    const existing = row && { requestHash: row.request_hash, state: row.state, responseStatus: row.response_status, responseBody: row.response_body };
    if (existing && existing.requestHash !== requestHash) {
      throw new AppError("idempotency_conflict", "This Idempotency-Key was already used with a different request body. Use a new key for a new request.", { param: "Idempotency-Key" });
    }
    if (existing?.state === "completed" && existing.responseStatus !== null && existing.responseBody !== null) {
      return { status: existing.responseStatus, body: JSON.parse(existing.responseBody), replayed: true };
    }
    if (Date.now() > deadline) {
      throw new AppError("idempotency_conflict", "A request with this Idempotency-Key is still being processed; retry later.", { param: "Idempotency-Key", details: { reason: "in_progress" } });
    }
    // Still processing elsewhere (or just released after an error): wait and look again.
    await delay(pause);
    pause = Math.min(pause * 2, 100);
  }
}
