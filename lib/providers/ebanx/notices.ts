// EBANX's notification scheme (https://docs.ebanx.com/docs/payments/guides/features/payment-notifications,
// https://developers.ebanx.com/integrations/notifications, and for payouts
// https://docs.ebanx.com/docs/payout/general/notification): a form-encoded POST to the
// Notification URL set in the EBANX Dashboard,
//   operation=payment_status_change&notification_type=update|refund|chargeback|chargeback_credit&hash_codes=h1,h2
// signed with EBANX's private certificate: X-SignatureType "rsa,sha1", X-SignatureFingerprint (the
// certificate's), X-SignatureContent the base64 RSA-SHA1 signature of the raw body (their PHP
// example: openssl_verify over php://input with the public certificate). The body names hashes
// only: the status is always read back with /ws/query ("you should call the API method query").
import { createPublicKey, verify, type KeyObject } from "node:crypto";
import type { NoticeCheck } from "@/lib/providers/types";

/** The certificate (or public key) as PEM; an env value may carry its line breaks as "\n". */
export function noticeKey(pem: string | null): KeyObject | null {
  if (!pem) return null;
  try {
    return createPublicKey(pem.replace(/\\n/g, "\n"));
  } catch {
    return null;
  }
}

/**
 * The signature over the exact raw body. The page lists the header as X-SignatureContent while its
 * PHP example reads HTTP_X_SIGNATURE_CONTENT (X-Signature-Content): both spellings are read.
 */
export function checkNoticeSignature(key: KeyObject | null, rawBody: string, headers: Headers): NoticeCheck {
  const sig = headers.get("x-signaturecontent") ?? headers.get("x-signature-content");
  if (!sig) return "missing";
  if (!key) return "invalid";
  const type = headers.get("x-signaturetype") ?? headers.get("x-signature-type");
  if (type && type.replace(/\s/g, "").toLowerCase() !== "rsa,sha1") return "invalid";
  let raw: Buffer;
  try {
    raw = Buffer.from(sig, "base64");
  } catch {
    return "invalid";
  }
  try {
    return raw.length > 0 && verify("sha1", Buffer.from(rawBody, "utf8"), key, raw) ? "ok" : "invalid";
  } catch {
    return "invalid";
  }
}

export type NoticeBody = { operation: string; type: string; hashes: string[] };

/** The form body's fields; null when it names no hash. */
export function parseNoticeBody(rawBody: string): NoticeBody | null {
  const form = new URLSearchParams(rawBody);
  const hashes = (form.get("hash_codes") ?? "").split(",").map((h) => h.trim()).filter((h) => /^[A-Za-z0-9_-]{1,100}$/.test(h));
  if (!hashes.length) return null;
  return { operation: form.get("operation") ?? "", type: form.get("notification_type") ?? "", hashes: [...new Set(hashes)] };
}
