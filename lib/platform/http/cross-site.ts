// Form posts of our own pages (checkout select, sandbox buttons) are refused when a browser says
// they came from another site (CSRF). Sec-Fetch-Site when the browser sends it; otherwise an
// Origin naming another host, or `null`: an opaque origin (a sandboxed frame, a data: or file:
// document, a page whose referrer policy hides its origin) is nobody we can call ours, and an
// attacker can always make one. Our own pages send `Referrer-Policy: same-origin` so that their
// posts carry their real Origin (lib/platform/http/page-headers.ts). Non-browser clients send neither
// header and are let through: the token in the URL is their credential.
export function isCrossSite(req: Request): boolean {
  const site = req.headers.get("sec-fetch-site");
  if (site) return site !== "same-origin" && site !== "none";
  const origin = req.headers.get("origin");
  if (!origin) return false;
  if (origin === "null") return true;
  try {
    return new URL(origin).host !== req.headers.get("host");
  } catch {
    return true;
  }
}

export function crossSiteRefused(): Response {
  return new Response("Cross-site form posts are refused.", { status: 403, headers: { "content-type": "text/plain; charset=utf-8" } });
}
