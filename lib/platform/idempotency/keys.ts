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
//
// The room: keys.ts (the key, its scope and hash), current.ts (the running request's record, read
// through currentIdempotency()), run.ts (withIdempotency: claim, run, store, replay or wait),
// bind.ts (bindIdempotency and the kernel's pending bind), batched-bind.ts (binds folded into
// lean-path writes and batches), statements.ts (the SQL), replay.ts (what domain replays share).
import { config } from "@/lib/platform/config";
import { AppError } from "@/lib/platform/errors";
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

