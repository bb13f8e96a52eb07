// Runs before routing, for two jobs:
// - /api/v1 paths with percent-escapes: Next decodes path segments before our handlers run and
//   answers a plain-text 500 on a malformed escape (e.g. %ff); this turns that into the
//   contract's JSON 400.
// - buyer pages (/checkout, /c, /pay, /qr): the buyer's locale (resolved once, passed on as request
//   headers for the layout and the page) and the security headers with a per-request CSP nonce.
// - the dashboard: its security headers, with a nonce as well.
// The buyer pages themselves (selector, provider pages, result, QR counter) are route handlers
// that set their own locale and headers (server/buyer-page.tsx): the production server calls
// them without this proxy, so they never depend on it.
import { NextResponse, type NextRequest } from "next/server";
import { AppError, toEnvelope } from "@/lib/platform/errors";
import { newId, randomBase62 } from "@/lib/platform/ids";
import { resolveLocale } from "@/lib/i18n/locale";
import { buyerSecurityHeaders, dashboardSecurityHeaders } from "@/server/page-headers";

function malformedPath(request: NextRequest) {
  try {
    decodeURIComponent(request.nextUrl.pathname);
    return null;
  } catch {
    const requestId = newId("request");
    const err = new AppError("invalid_request", "The request path contains a malformed percent-escape.");
    return NextResponse.json(toEnvelope(err, requestId), { status: err.status, headers: { "X-Request-Id": requestId, "Cache-Control": "no-store" } });
  }
}

function withNonce(request: NextRequest, headers: (nonce: string) => Record<string, string>, extra: Record<string, string> = {}) {
  const nonce = randomBase62(22);
  const security = headers(nonce);
  const forwarded = new Headers(request.headers);
  for (const [k, v] of Object.entries(extra)) forwarded.set(k, v);
  forwarded.set("x-nonce", nonce);
  forwarded.set("content-security-policy", security["Content-Security-Policy"]!);
  const response = NextResponse.next({ request: { headers: forwarded } });
  for (const [k, v] of Object.entries(security)) response.headers.set(k, v);
  return response;
}

/** The buyer pages answered by server/buyer-page.tsx (their own CSP nonce, locale and headers). */
const BUYER_PAGE = /^\/(?:checkout\/[^/]+|pay\/[^/]+\/[^/]+|c\/[^/]+\/result|qr\/[^/]+)$/;

export function proxy(request: NextRequest) {
  const path = request.nextUrl.pathname;
  if (path.startsWith("/api/")) return malformedPath(request) ?? NextResponse.next();
  if (BUYER_PAGE.test(path)) return NextResponse.next();
  if (path === "/dashboard" || path.startsWith("/dashboard/")) return withNonce(request, dashboardSecurityHeaders);

  const { locale, formatTag } = resolveLocale(request.nextUrl.searchParams.get("locale"), request.headers.get("accept-language"));
  const response = withNonce(request, buyerSecurityHeaders, { "x-buyer-locale": locale, "x-buyer-format": formatTag });
  response.headers.set("Content-Language", locale);
  response.headers.set("Vary", "Accept-Language");
  return response;
}

export const config = { matcher: ["/api/v1/(.*%.*)", "/checkout/:path*", "/c/:path*", "/pay/:path*", "/qr/:path*", "/dashboard", "/dashboard/:path*"] };
