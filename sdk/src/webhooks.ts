// Verifying deliveries, in either header style the service sends on every delivery:
// - Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature` = space-separated
//   `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed with the bytes after `whsec_`;
// - the contract's `X-Service-Signature: t=<unix>,v1=<hex>[,v0=<hex>]`, HMAC-SHA256 of
//   "<t>.<body>" keyed with the secret as given (v0 = the previous secret during a rotation).
// Either is enough; a receiver that still has only the old secret during a rotation verifies the
// Standard Webhooks signature made with it.
import { createHmac, timingSafeEqual } from "node:crypto";
import { WebhookVerificationError } from "./errors.ts";
import type { components } from "./schema.ts";

export type HeaderSource = Headers | Record<string, string | string[] | undefined>;
export type VerifyOptions = { toleranceSeconds?: number; now?: () => number };

const header = (h: HeaderSource, name: string): string | undefined => {
  if (typeof (h as Headers).get === "function") return (h as Headers).get(name) ?? undefined;
  const rec = h as Record<string, string | string[] | undefined>;
  const key = Object.keys(rec).find((k) => k.toLowerCase() === name);
  const v = key === undefined ? undefined : rec[key];
  return Array.isArray(v) ? v[0] : v;
};

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The HMAC key of a Standard Webhooks secret: base64 (or base64url) after `whsec_`. */
const standardKey = (secret: string) => Buffer.from(secret.startsWith("whsec_") ? secret.slice(6) : secret, "base64");

function checkTimestamp(t: number, opts: VerifyOptions) {
  const now = Math.floor((opts.now?.() ?? Date.now()) / 1000);
  if (!Number.isInteger(t)) throw new WebhookVerificationError("The timestamp header is missing or malformed.");
  if (Math.abs(now - t) > (opts.toleranceSeconds ?? 300)) throw new WebhookVerificationError("The delivery's timestamp is outside the tolerance: a replay, or a clock far off.");
}

function verifyStandard(payload: string, h: HeaderSource, secrets: string[], opts: VerifyOptions): boolean {
  const id = header(h, "webhook-id");
  const ts = header(h, "webhook-timestamp");
  const sigs = header(h, "webhook-signature");
  if (!id || !ts || !sigs) return false;
  checkTimestamp(Number(ts), opts);
  const given = sigs.split(" ").map((s) => s.split(",", 2)).filter(([v]) => v === "v1").map(([, s]) => s ?? "");
  return secrets.some((secret) => {
    const want = createHmac("sha256", standardKey(secret)).update(`${id}.${ts}.${payload}`).digest("base64");
    return given.some((g) => same(g, want));
  });
}

function verifyContract(payload: string, h: HeaderSource, secrets: string[], opts: VerifyOptions): boolean {
  const sig = header(h, "x-service-signature");
  if (!sig) return false;
  const parts = sig.split(",").map((p) => p.split("=", 2) as [string, string | undefined]);
  const t = Number(parts.find(([k]) => k.trim() === "t")?.[1]);
  checkTimestamp(t, opts);
  const given = parts.filter(([k]) => k.trim() === "v1" || k.trim() === "v0").map(([, v]) => (v ?? "").trim());
  return secrets.some((secret) => {
    const want = createHmac("sha256", secret).update(`${t}.${payload}`).digest("hex");
    return given.some((g) => same(g, want));
  });
}

/**
 * Verifies a delivery and returns its event. `payload` is the raw body exactly as received (not
 * re-serialised JSON); `secret` may list several (current and previous). Throws
 * `WebhookVerificationError` when no signature of either style matches.
 */
export function verifyWebhook<E = WebhookEvent>(payload: string | Uint8Array, headers: HeaderSource, secret: string | string[], opts: VerifyOptions = {}): E {
  const body = typeof payload === "string" ? payload : Buffer.from(payload).toString("utf8");
  const secrets = Array.isArray(secret) ? secret : [secret];
  if (!secrets.length) throw new WebhookVerificationError("No secret to verify with.");
  const hasStandard = header(headers, "webhook-signature") !== undefined;
  const hasContract = header(headers, "x-service-signature") !== undefined;
  if (!hasStandard && !hasContract) throw new WebhookVerificationError("No signature header: expected webhook-signature or X-Service-Signature.");
  const ok = (hasStandard && verifyStandard(body, headers, secrets, opts)) || (hasContract && verifyContract(body, headers, secrets, opts));
  if (!ok) throw new WebhookVerificationError("No signature matches the secret(s) given.");
  try {
    return JSON.parse(body) as E;
  } catch {
    throw new WebhookVerificationError("The body is not JSON.");
  }
}

/**
 * Any event the service delivers (the document's `webhooks`, one schema per type): `switch
 * (event.type)` narrows `event.data.object` to the payment, claim, payout, settlement or
 * withdrawal it reports.
 */
export type WebhookEvent = components["schemas"]["Event"];
/** Every event type. */
export type WebhookEventType = WebhookEvent["type"];
/** The event of one type: `EventOf<"payout.failed">`. */
export type EventOf<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>;
