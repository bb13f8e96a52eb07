// Signatures of outbound deliveries (section 6): X-Service-Signature = t=<unix>,v1=<hex>[,v0=<hex>]
// where each value is HMAC-SHA256 over "<t>.<raw body>" keyed with a subscription secret; v0 is
// the previous secret during a rotation's grace window. The same scheme Stripe-style verifiers use.
import { createHmac } from "node:crypto";
import { safeEqual } from "@/lib/crypto/hash";

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
