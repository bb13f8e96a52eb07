// What the request log keeps of an answer: the JSON as sent, minus anything secret, within a
// size cap. Answers carry secrets in a few places (a rolled secret key, access and refresh
// tokens, a webhook's signing secret, a checkout session's client secret): every field whose
// name says secret, token, password or key material is replaced, at any depth, so a log reader
// (any dashboard role) never sees what only the caller was shown once.
const SECRET_FIELD = /secret|token|password|passphrase|private|^signature$|^apiKey$|^secretKey$|^authorization$/i;
const MAX_CHARS = 16_000;
const MAX_DEPTH = 12;
// A list answer keeps its first items: enough to read it, and the API's hot list requests do not
// pay for redacting items nobody opens. Five payments (about 8,000 characters) fit the cap whole;
// twenty never did (about 30,000 characters: the log kept only a 2,000-character preview of them,
// after redacting and serialising all twenty, a tenth of a list request's CPU).
const MAX_ITEMS = 5;

export const REDACTED = "[redacted]";

function redact(value: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH) return "[too deep]";
  if (Array.isArray(value)) {
    const kept = value.slice(0, MAX_ITEMS).map((v) => redact(v, depth + 1));
    return value.length > MAX_ITEMS ? [...kept, `… ${value.length - MAX_ITEMS} more items`] : kept;
  }
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = SECRET_FIELD.test(k) && v !== null && typeof v !== "boolean" ? REDACTED : redact(v, depth + 1);
    return out;
  }
  return value;
}

/** The answer to store, or a marker when it is too big to keep whole. */
export function redactAnswer(body: unknown): unknown {
  const text = redactedAnswerJson(body);
  return text === null ? null : JSON.parse(text);
}

/**
 * `redactAnswer` as the JSON text the log stores: the size check already serialises it, so the
 * request log writes this text as it is instead of serialising the answer a second time.
 */
export function redactedAnswerJson(body: unknown): string | null {
  if (body === undefined) return null;
  const text = JSON.stringify(redact(body, 0));
  if (text === undefined) return null;
  if (text.length > MAX_CHARS) return JSON.stringify({ truncated: true, size: text.length, preview: text.slice(0, 2_000) });
  return text;
}
