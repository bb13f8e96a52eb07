// The custody provider's notice signature: `X-Custody-Signature: t=<unix seconds>,v1=<hex>`,
// v1 = HMAC-SHA256(CUSTODY_NOTICE_SECRET, "<t>.POST <path>\n<raw body>") (the inbound secret, never CUSTODY_SECRET). The timestamp is signed, so a
// captured notice cannot be replayed outside the tolerance; the comparison is constant-time and
// happens before anything of the body is read.
import { createHmac, timingSafeEqual } from "node:crypto";

export const NOTICE_TOLERANCE_S = 300;

export function signCustodyNotice(secret: string, path: string, raw: string, t: number): string {
  return `t=${t},v1=${createHmac("sha256", secret).update(`${t}.POST ${path}\n${raw}`).digest("hex")}`;
}

export type SignatureCheck = "ok" | "missing" | "mismatch" | "stale";

export function checkCustodySignature(secret: string, path: string, raw: string, header: string | null, nowMs = Date.now()): SignatureCheck {
  if (!header) return "missing";
  const parts = new Map(header.split(",").map((p) => p.trim().split("=", 2) as [string, string]));
  const t = Number(parts.get("t"));
  const given = parts.get("v1");
  if (!Number.isSafeInteger(t) || !given || !/^[0-9a-f]{64}$/i.test(given)) return "missing";
  const want = createHmac("sha256", secret).update(`${t}.POST ${path}\n${raw}`).digest();
  const got = Buffer.from(given, "hex");
  if (got.length !== want.length || !timingSafeEqual(got, want)) return "mismatch";
  // Checked after the signature: only a genuine notice learns that it came too late.
  if (Math.abs(nowMs / 1000 - t) > NOTICE_TOLERANCE_S) return "stale";
  return "ok";
}
