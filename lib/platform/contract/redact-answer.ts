// What the request log keeps of an answer: the JSON as sent, minus anything secret, within a
// size cap. Answers carry secrets in a few places (a rolled secret key, access and refresh
// tokens, a webhook's signing secret, a checkout session's client secret): every field whose
// name says secret, token, password or key material is replaced, at any depth, so a log reader
// (any dashboard role) never sees what only the caller was shown once.
import { attachedRedactedJson } from "@/lib/platform/contract/json-text";

const SECRET_FIELD = /secret|token|password|passphrase|private|^signature$|^apiKey$|^secretKey$|^authorization$/i;
const MAX_CHARS = 16_000;
const MAX_DEPTH = 12;
// A list answer (an envelope's `data`) keeps its first item whole and says how many more there
// were: enough to read the shape of what came back. Each logged byte is written to PostgreSQL on
// the request's account: five payments (about 8,000 characters, compressed by PostgreSQL's TOAST
// past 2 KB) cost the list endpoint 40 % of its capacity (docs/contributors/benchmarks.md, "Lists from kept items"). Any
// other array keeps its first MAX_ITEMS.
export const LIST_ITEMS_LOGGED = 1;
const MAX_ITEMS = 5;

export const REDACTED = "[redacted]";

/** `key`: the field holding `value` (a list envelope's items are `data` one level down). */
function redact(value: unknown, depth: number, key?: string): unknown {
  if (depth > MAX_DEPTH) return "[too deep]";
  if (Array.isArray(value)) {
    const cap = depth === 1 && key === "data" ? LIST_ITEMS_LOGGED : MAX_ITEMS;
    const kept = value.slice(0, cap).map((v) => redact(v, depth + 1));
    return value.length > cap ? [...kept, moreItems(value.length - cap)] : kept;
  }
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = SECRET_FIELD.test(k) && v !== null && typeof v !== "boolean" ? REDACTED : redact(v, depth + 1, k);
    return out;
  }
  return value;
}

/** The marker that stands for the items a logged array left out. */
export function moreItems(n: number): string {
  return `… ${n} more items`;
}

/** The answer to store, or a marker when it is too big to keep whole. */
export function redactAnswer(body: unknown): unknown {
  const text = redactedAnswerJson(body);
  return text === null ? null : JSON.parse(text);
}

/**
 * The redacted JSON of a value found `depth` levels down an answer, uncapped: a use case that
 * keeps its items serialised keeps this beside them and joins it into the answer's redacted text
 * (lib/platform/contract/json-text.ts), which must equal what redacting the whole answer gives.
 */
export function redactedJson(value: unknown, depth: number): string {
  return JSON.stringify(redact(value, depth));
}

/**
 * `redactAnswer` as the JSON text the log stores: the size check already serialises it, so the
 * request log writes this text as it is instead of serialising the answer a second time.
 */
export function redactedAnswerJson(body: unknown): string | null {
  if (body === undefined) return null;
  const text = attachedRedactedJson(body) ?? JSON.stringify(redact(body, 0));
  if (text === undefined) return null;
  if (text.length > MAX_CHARS) return JSON.stringify({ truncated: true, size: text.length, preview: text.slice(0, 2_000) });
  return text;
}
