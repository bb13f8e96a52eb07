// Security headers of the pages: the buyer's (/checkout, /c, /pay, /qr) and the dashboard's. A
// fresh nonce per response: the buyer pages put it on their islands script (server/buyer-page.tsx),
// Next on its own scripts when it finds it in the request's CSP header; nothing else may run. Checkout URLs carry the session token, so no referrer leaves our origin and nothing is
// cached; the pages cannot be framed.
import { config } from "@/lib/platform/config";
import { providerConfigs } from "@/lib/providers/registry";

export function buyerCsp(nonce: string): string {
  const dev = config().APP_ENV === "development";
  // A picked method's form ends in a redirect to the provider's page: form-action must allow
  // the configured providers' origins as well as our own.
  const providerOrigins = [...providerConfigs().values()].map((p) => new URL(p.baseUrl).origin);
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    `form-action 'self' ${providerOrigins.join(" ")}`.trim(),
    "frame-ancestors 'none'",
    ...(config().APP_URL.startsWith("https://") ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

export function buyerSecurityHeaders(nonce: string): Record<string, string> {
  return {
    "Content-Security-Policy": buyerCsp(nonce),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    // Not no-referrer: under it a browser sends `Origin: null` on the page's own form posts, which
    // a browser without Sec-Fetch-Site would then have refused as cross-site (lib/platform/http/cross-site.ts).
    // same-origin still sends no referrer (so no token) to any other origin.
    "Referrer-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cache-Control": "no-store",
    ...(config().APP_URL.startsWith("https://") ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {}),
  };
}

/**
 * The dashboard's: the same script policy (nonce'd framework scripts only), no framing, no
 * referrer beyond our origin. Styles allow inline attributes because the charting library
 * positions its SVG with them; scripts never run inline.
 */
export function dashboardSecurityHeaders(nonce: string): Record<string, string> {
  const dev = config().APP_ENV === "development";
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(config().APP_URL.startsWith("https://") ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
  return {
    "Content-Security-Policy": csp,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    ...(config().APP_URL.startsWith("https://") ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {}),
  };
}
