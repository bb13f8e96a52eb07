// Signatures of outbound deliveries, in two styles on every delivery:
// - the contract's (section 6): X-Service-Signature = t=<unix>,v1=<hex>[,v0=<hex>], each an
//   HMAC-SHA256 over "<t>.<raw body>" keyed with a subscription secret (as text); v0 is the
//   previous secret during a rotation's grace window. Stripe's verifier accepts it as is.
// - Standard Webhooks (decisions.md): webhook-id, webhook-timestamp and webhook-signature =
//   space-separated "v1,<base64 HMAC-SHA256 of "<id>.<t>.<raw body>">", one per active secret,
//   keyed with the bytes the secret's base64 part after `whsec_` encodes.
import { createHmac } from "node:crypto";
import { safeEqual } from "@/lib/platform/crypto/hash";

export const SIGNATURE_TOLERANCE_SECONDS = 300;

export function hmacHex(secret: string, t: number, body: string): string {
  return createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
}

export function signatureHeader(body: string, secret: string, previousSecret: string | null, t = Math.floor(Date.now() / 1000)): string {
  return [`t=${t}`, `v1=${hmacHex(secret, t, body)}`, ...(previousSecret ? [`v0=${hmacHex(previousSecret, t, body)}`] : [])].join(",");
}

/** What a receiver does: parse, check the timestamp tolerance, compare in constant time. */
export function verifySignature(header: string | null, body: string, secrets: string[], now = Math.floor(Date.now() / 1000)): boolean {
  if (!header) return false;
  const parts = new Map<string, string[]>();
  for (const item of header.split(",")) {
    const [k, v] = item.split("=", 2);
    if (k && v) parts.set(k.trim(), [...(parts.get(k.trim()) ?? []), v.trim()]);
  }
  const t = Number(parts.get("t")?.[0]);
  if (!Number.isInteger(t) || Math.abs(now - t) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const candidates = [...(parts.get("v1") ?? []), ...(parts.get("v0") ?? [])];
  return secrets.some((s) => candidates.some((c) => safeEqual(c, hmacHex(s, t, body))));
}

/** The HMAC key of a secret in the Standard Webhooks style: the bytes after `whsec_` (base64; base64url too). */
export function standardKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
}

export function standardSignature(id: string, t: number, body: string, secret: string): string {
  return `v1,${createHmac("sha256", standardKey(secret)).update(`${id}.${t}.${body}`).digest("base64")}`;
}

/** Every header of a delivery, both styles, from one timestamp. */
export function deliveryHeaders(eventId: string, body: string, secret: string, previousSecret: string | null, t = Math.floor(Date.now() / 1000)): Record<string, string> {
  return {
    "X-Service-Signature": signatureHeader(body, secret, previousSecret, t),
    "webhook-id": eventId,
    "webhook-timestamp": String(t),
    "webhook-signature": [secret, ...(previousSecret ? [previousSecret] : [])].map((s) => standardSignature(eventId, t, body, s)).join(" "),
  };
}
