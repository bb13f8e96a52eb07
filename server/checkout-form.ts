// The selector form's round trip without script: a rejected pick comes back to the page by a 303,
// and the document the buyer typed comes back in a short-lived cookie scoped to that session's
// page (never in the URL, which lands in logs and history). Read from the request itself (the page handlers run without Next's request context).
// The document of an accepted pick is kept the same way for "pay another way": in the buyer's
// browser only (we never store it, API reference 4.4), scoped to that payment's retry form, and
// handed on to the successor session's page when the buyer retries.

export const TYPED_DOCUMENT_COOKIE = "checkout_document";
const MAX_AGE_S = 600;

/** Set-Cookie for the typed document of session `token` (an empty value clears it). */
export function typedDocumentCookie(token: string, value: string, secure: boolean): string {
  const attrs = [`Path=/checkout/${token}`, "HttpOnly", "SameSite=Strict", `Max-Age=${value ? MAX_AGE_S : 0}`, ...(secure ? ["Secure"] : [])];
  return `${TYPED_DOCUMENT_COOKIE}=${encodeURIComponent(value)}; ${attrs.join("; ")}`;
}

const KEPT_DOCUMENT_COOKIE = "checkout_document_kept";
const KEPT_MAX_AGE_S = 24 * 3600; // a session (and so its retry) lasts 24 h

/** Set-Cookie keeping the document of payment `txId` for its "pay another way" (an empty value clears it). */
export function keptDocumentCookie(txId: string, value: string, secure: boolean): string {
  const attrs = [`Path=/c/${txId}/retry`, "HttpOnly", "SameSite=Strict", `Max-Age=${value ? KEPT_MAX_AGE_S : 0}`, ...(secure ? ["Secure"] : [])];
  return `${KEPT_DOCUMENT_COOKIE}=${encodeURIComponent(value)}; ${attrs.join("; ")}`;
}

/** The document kept for the retry of the payment this request is about (read from the request's cookies). */
export function keptDocument(req: Request): string | undefined {
  const raw = (req.headers.get("cookie") ?? "").split(/;\s*/).find((c) => c.startsWith(`${KEPT_DOCUMENT_COOKIE}=`))?.slice(KEPT_DOCUMENT_COOKIE.length + 1);
  return raw ? decodeDocument(raw) : undefined;
}

/** A document cookie's value as typed (bounded; undefined when it is not valid percent-encoding). */
export function decodeDocument(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw).slice(0, 40);
  } catch {
    return undefined;
  }
}

