// Form posts of our own pages (checkout select, sandbox buttons) are refused when a browser says
// they came from another site (CSRF). Sec-Fetch-Site when the browser sends it; otherwise an
// Origin naming another host. Non-browser clients send neither and are let through: the token
// in the URL is their credential.
export function isCrossSite(req: Request): boolean {
  const site = req.headers.get("sec-fetch-site");
  if (site) return site !== "same-origin" && site !== "none";
  const origin = req.headers.get("origin");
  if (!origin || origin === "null") return false;
  try {
    return new URL(origin).host !== req.headers.get("host");
  } catch {
    return true;
  }
}

export function crossSiteRefused(): Response {
  return new Response("Cross-site form posts are refused.", { status: 403, headers: { "content-type": "text/plain; charset=utf-8" } });
}
