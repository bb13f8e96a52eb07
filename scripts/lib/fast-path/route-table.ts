// The fast path's route table: the /api/v1 route files (and the buyer pages) of a build, read from
// its app-paths manifest, and the match of a request's path segments against them with Next's
// precedence (static segments before [param] before [...rest]).

/** The buyer pages' route files (GET only), and the paths that may be one of them. */
const BUYER_PAGES = new Set(["/checkout/[token]/route", "/pay/[provider]/[txId]/route", "/pay/sandbox/[txId]/route", "/pay/mandate/[token]/route", "/c/[txId]/result/route", "/qr/[token]/route"]);
type Segment = { kind: "static"; value: string } | { kind: "param"; name: string } | { kind: "rest"; name: string };
export type ApiRoute = { page: string; file: string; segments: Segment[] };

/** The /api/v1 route files of a build (or, with `buyer`, its buyer pages), from its app-paths manifest, most specific first. */
export function apiRoutes(manifest: Record<string, string>, buyer = false): ApiRoute[] {
  const routes: ApiRoute[] = [];
  for (const [page, file] of Object.entries(manifest)) {
    if (buyer ? !BUYER_PAGES.has(page) : !page.startsWith("/api/v1/") || !page.endsWith("/route")) continue;
    const parts = page.slice(1, -"/route".length).split("/");
    const segments: Segment[] = parts.map((p) => {
      const rest = /^\[\.\.\.(\w+)\]$/.exec(p);
      if (rest) return { kind: "rest", name: rest[1]! };
      const param = /^\[(\w+)\]$/.exec(p);
      return param ? { kind: "param", name: param[1]! } : { kind: "static", value: p };
    });
    routes.push({ page, file, segments });
  }
  // Next's precedence, segment by segment: static, then [param], then [...rest].
  const rank = (s: Segment | undefined) => (s === undefined ? -1 : s.kind === "static" ? 0 : s.kind === "param" ? 1 : 2);
  routes.sort((a, b) => {
    for (let i = 0; i < Math.max(a.segments.length, b.segments.length); i++) {
      const d = rank(a.segments[i]) - rank(b.segments[i]);
      if (d !== 0) return rank(a.segments[i]) === -1 ? 1 : rank(b.segments[i]) === -1 ? -1 : d;
    }
    return 0;
  });
  return routes;
}

/** The route serving `parts` (decoded path segments) and its params, or null. */
export function matchRoute(routes: ApiRoute[], parts: string[]): { route: ApiRoute; params: Record<string, string | string[]> } | null {
  for (const route of routes) {
    const params: Record<string, string | string[]> = {};
    let ok = true;
    let i = 0;
    for (; i < route.segments.length; i++) {
      const seg = route.segments[i]!;
      if (seg.kind === "rest") {
        if (i >= parts.length) ok = false;
        else params[seg.name] = parts.slice(i);
        i = parts.length;
        break;
      }
      const part = parts[i];
      if (part === undefined || (seg.kind === "static" && seg.value !== part)) {
        ok = false;
        break;
      }
      if (seg.kind === "param") params[seg.name] = part;
    }
    if (ok && i === parts.length) return { route, params };
  }
  return null;
}
