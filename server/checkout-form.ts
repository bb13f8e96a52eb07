// The selector form's round trip without script: a rejected pick comes back to the page by a 303,
// and the document the buyer typed comes back in a short-lived cookie scoped to that session's
// page (never in the URL, which lands in logs and history). Web tier (next/headers).
import { cookies } from "next/headers";

export const TYPED_DOCUMENT_COOKIE = "checkout_document";
const MAX_AGE_S = 600;

/** Set-Cookie for the typed document of session `token` (an empty value clears it). */
export function typedDocumentCookie(token: string, value: string, secure: boolean): string {
  const attrs = [`Path=/checkout/${token}`, "HttpOnly", "SameSite=Strict", `Max-Age=${value ? MAX_AGE_S : 0}`, ...(secure ? ["Secure"] : [])];
  return `${TYPED_DOCUMENT_COOKIE}=${encodeURIComponent(value)}; ${attrs.join("; ")}`;
}

export async function typedDocument(): Promise<string | undefined> {
  const raw = (await cookies()).get(TYPED_DOCUMENT_COOKIE)?.value;
  if (!raw) return undefined;
  try {
    return decodeURIComponent(raw).slice(0, 40);
  } catch {
    return undefined;
  }
}
