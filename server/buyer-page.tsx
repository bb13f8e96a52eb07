// The buyer pages (/checkout/<token>, /pay/…, /c/<tx>/result, /qr/<token>) as route handlers that
// answer a finished HTML document (issue 23): rendered on the server from our components
// (server/html/render.ts), with no framework runtime on the client; the interactive bits are
// the islands of public/buyer/islands.js, loaded with the response's nonce. A page handler uses
// only its Request (locale from ?locale= and Accept-Language, cookies from the header): the
// production server calls it on its fast path (scripts/lib/api-dispatch.ts), without proxy.ts.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import path from "node:path";
import type { ReactNode } from "react";
import { resolveLocale, type BuyerLocale } from "@/lib/i18n/locale";
import { messages, type Messages } from "@/lib/i18n/messages";
import { buyerSecurityHeaders } from "@/server/page-headers";
import { PLAIN_IO, type PlainAnswer } from "@/lib/platform/http/handler";
import { randomBase62 } from "@/lib/platform/ids";
import { singleton } from "@/lib/platform/singleton";
import { renderToHtml, escapeHtml } from "@/lib/html/render";

export type BuyerContext = BuyerLocale & {
  t: Messages;
  url: URL;
  params: Record<string, string>;
  cookie: (name: string) => string | undefined;
};

/**
 * What a page handler answers: a page (its tab title and body), a redirect, or not found.
 * `memoKey`: every input the body is drawn from, serialised. A page that gives one has its
 * rendered body kept under it (per path), and the next view with the same key writes the kept
 * HTML instead of rendering again: drawing the selector page was a fifth of its CPU.
 */
export type BuyerPage = { title: string; body: ReactNode; status?: number; memoKey?: string } | { redirect: string };

const dev = () => process.env.NODE_ENV === "development";

// The stylesheet: in a production build, the one Next built for the root layout (Tailwind over
// the whole source, buyer components included), read once from the build's manifest; under
// `next dev`, compiled on request by app/checkout-assets/buyer.css (route.ts).
let stylesheets: string[] | undefined;
function stylesheetHrefs(): string[] {
  if (dev()) return ["/checkout-assets/buyer.css"];
  if (stylesheets) return stylesheets;
  try {
    const manifest = readFileSync(path.join(process.cwd(), ".next/server/app/page_client-reference-manifest.js"), "utf8");
    const layout = /"\[project\]\/app\/layout":(\[[^\]]*\])/.exec(manifest);
    const files = layout ? (JSON.parse(layout[1]!) as Array<{ path: string }>).map((f) => `/_next/${f.path}`) : [];
    return (stylesheets = files.length ? files : ["/checkout-assets/buyer.css"]);
  } catch {
    return (stylesheets = ["/checkout-assets/buyer.css"]);
  }
}

// The islands' script, versioned by its content (public/ is served without a cache-busting name).
let islands: string | undefined;
function islandsSrc(): string {
  if (islands && !dev()) return islands;
  let version = "0";
  try {
    version = createHash("sha256").update(readFileSync(path.join(process.cwd(), "public/buyer/islands.js"))).digest("hex").slice(0, 10);
  } catch {
    // Served anyway; only the cache key is lost.
  }
  return (islands = `/buyer/islands.js?v=${version}`);
}

function cookieReader(req: Request): (name: string) => string | undefined {
  const header = req.headers.get("cookie") ?? "";
  return (name) => {
    const found = header.split(/;\s*/).find((c) => c.startsWith(`${name}=`));
    return found === undefined ? undefined : found.slice(name.length + 1);
  };
}

function document(locale: string, title: string, nonce: string, body: string): string {
  const css = stylesheetHrefs()
    .map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`)
    .join("");
  return (
    `<!DOCTYPE html><html lang="${escapeHtml(locale)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><meta name="robots" content="noindex, nofollow"><link rel="icon" href="/icon.svg" type="image/svg+xml">` +
    `${css}<script src="${escapeHtml(islandsSrc())}" nonce="${nonce}" defer></script></head>` +
    `<body class="min-h-screen bg-slate-50 text-slate-900 antialiased">${body}</body></html>`
  );
}

// Rendered bodies by path and memo key; at most RENDERED_KEPT in the process (a few KB each), the
// oldest first. Process-wide (Next may bundle this module once per route).
const RENDERED_KEPT = 2_000;
const rendered = singleton("buyer-page-bodies", () => new Map<string, string>());

async function bodyHtml(path: string, page: { body: ReactNode; memoKey?: string }): Promise<string> {
  if (page.memoKey === undefined) return renderToHtml(page.body);
  const key = `${path}\n${page.memoKey}`;
  const hit = rendered.get(key);
  if (hit !== undefined) return hit;
  const html = await renderToHtml(page.body);
  if (rendered.size >= RENDERED_KEPT) rendered.delete(rendered.keys().next().value!);
  rendered.set(key, html);
  return html;
}

type RouteContext = { params: Promise<Record<string, string | string[]>> };

// The locale of a (?locale=, Accept-Language) pair: few distinct pairs, each parsed once.
const locales = new Map<string, BuyerLocale>();
function localeOf(override: string | null, acceptLanguage: string | null): BuyerLocale {
  const key = `${override ?? ""}\n${acceptLanguage ?? ""}`;
  let hit = locales.get(key);
  if (!hit) {
    hit = resolveLocale(override, acceptLanguage);
    if (locales.size > 1_000) locales.clear();
    locales.set(key, hit);
  }
  return hit;
}

/** The answer as the caller takes it: plain parts on the fast path (lib/platform/http/handler.ts PLAIN_IO), else a Response. */
function answer(req: Request, status: number, headers: Record<string, string>, body: string | Uint8Array<ArrayBuffer> | null): Response {
  if (PLAIN_IO in req) {
    const plain: PlainAnswer = { [PLAIN_IO]: true, status, headers, body: body ?? "" };
    return plain as unknown as Response;
  }
  return new Response(body, { status, headers });
}

/** A buyer page's GET route handler. */
export function buyerRoute(page: (ctx: BuyerContext) => Promise<BuyerPage>) {
  async function GET(req: Request, route: RouteContext): Promise<Response> {
    const url = new URL(req.url);
    const { locale, formatTag } = localeOf(url.searchParams.get("locale"), req.headers.get("accept-language"));
    const raw = await route.params;
    const params = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]));
    const out = await page({ locale, formatTag, t: messages(locale), url, params, cookie: cookieReader(req) });
    const nonce = randomBase62(22);
    const headers: Record<string, string> = { ...buyerSecurityHeaders(nonce), "Content-Language": locale, Vary: "Accept-Language" };
    if ("redirect" in out) return answer(req, 307, { ...headers, Location: out.redirect }, null);
    headers["Content-Type"] = "text/html; charset=utf-8";
    headers.Vary = "Accept-Language, Accept-Encoding";
    const html = document(locale, out.title, nonce, await bodyHtml(url.pathname, out));
    // Compressed here: the fast path has no compression layer (Next's skips a body already encoded).
    if (!/\bgzip\b/.test(req.headers.get("accept-encoding") ?? "")) return answer(req, out.status ?? 200, headers, html);
    headers["Content-Encoding"] = "gzip";
    return answer(req, out.status ?? 200, headers, gzipSync(html));
  }
  // Reads only the URL and headers, so the fast path may call it with a plain request.
  return Object.assign(GET, { [PLAIN_IO]: true as const });
}
