// An answer that already has its JSON. A use case that builds its answer from parts it keeps
// serialised (GET /payments joins kept items' bytes, lib/payments/list/answer.ts) attaches
// that JSON, as UTF-8 bytes, to the answer object, and route() writes them instead of
// serialising the object again; it may attach the request log's redacted text too
// (lib/platform/contract/redact-answer.ts). Both must be exactly what serialising (and redacting) the object
// gives: the idempotency store and every other reader still see the object, so they may never
// disagree (lib/payments/list-payments.test.ts compares them).
const JSON_BYTES = Symbol.for("latam-payments.json-bytes");
const REDACTED_TEXT = Symbol.for("latam-payments.redacted-json");

/** `value`, carrying its JSON (and its redacted JSON) in properties JSON.stringify and spreads do not see. */
export function withJson<T extends object>(value: T, json: Uint8Array, redacted?: string): T {
  Object.defineProperty(value, JSON_BYTES, { value: json, enumerable: false });
  if (redacted !== undefined) Object.defineProperty(value, REDACTED_TEXT, { value: redacted, enumerable: false });
  return value;
}

function attached(body: unknown, key: symbol): unknown {
  return body !== null && typeof body === "object" ? (body as Record<symbol, unknown>)[key] : undefined;
}

/** The JSON of an answer body: the attached bytes, else JSON.stringify. */
export function jsonOf(body: unknown): string | Uint8Array {
  const bytes = attached(body, JSON_BYTES);
  return bytes instanceof Uint8Array ? bytes : JSON.stringify(body);
}

/** The redacted JSON text attached to an answer, if any. */
export function attachedRedactedJson(body: unknown): string | undefined {
  const text = attached(body, REDACTED_TEXT);
  return typeof text === "string" ? text : undefined;
}
