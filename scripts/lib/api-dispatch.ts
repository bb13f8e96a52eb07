// The API's fast path. The route files under app/api/v1 stay the one definition of the /api/v1
// surface: Next compiles each into .next/server/app/…/route.js, and this dispatcher calls those
// same compiled handlers (the module instances Next itself would load) straight from node:http,
// without Next's router, proxy and render pipeline, which cost about 2 ms of CPU per request
// before our handler runs (issue 23). Pages, and anything this table does not know, still go
// through Next.
//
// What Next did for these requests and this file therefore does:
// - routes by the build's app-paths manifest: static segments before [param] before [...rest];
// - decodes path segments (a malformed percent-escape goes to Next, whose proxy.ts answers the
//   contract's JSON 400);
// - stamps the socket's peer into PEER_HEADER (lib/platform/http/client-ip.ts), overwriting the client's;
// - gives the handler a Request whose body streams from the socket, and an AbortSignal that
//   fires when the client goes away (the listen stream ends on it);
// - writes the Response back with backpressure, streams included, and drains an unread body so
//   the keep-alive connection stays usable.
// HEAD, OPTIONS, a trailing slash or an odd path go to Next, which has rules for them.
//
// The buyer pages (selector, provider pages, result, QR counter) are route handlers too
// (server/buyer-page.tsx: they answer finished HTML and set their own CSP and locale), and their
// GETs take the same path: BUYER_PAGES (fast-path/route-table.ts).
//
// Its parts, in scripts/lib/fast-path/: the route table (route-table.ts), the request a handler
// is given (plain-request.ts for route() handlers, web-request.ts for the rest, both over
// request-headers.ts and body-stream.ts), and the answer written back (write-response.ts).
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { existsSync, readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
// The one error table (lib/platform/errors.ts has no app imports, so a second instance of it here is harmless).
import { AppError, toEnvelope } from "../../lib/platform/errors.ts";
import { PLAIN_IO, type PlainAnswer } from "./fast-path/plain-io.ts";
import { apiRoutes, matchRoute, type ApiRoute } from "./fast-path/route-table.ts";
import { bodyStream } from "./fast-path/body-stream.ts";
import { PlainRequest } from "./fast-path/plain-request.ts";
import { toRequest } from "./fast-path/web-request.ts";
import { writeResponse } from "./fast-path/write-response.ts";

const FAST_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);
// An API path with ordinary segments: no trailing slash, no empty, "." or ".." segment.
const PLAIN_PATH = /^\/api\/v1(?:\/(?!\.\.?(?:\/|$))[^/?#]+)*$/;
/** A Host header a URL can carry (name or address, optional port). */
const HOST = /^[\w.-]+(?::\d{1,5})?$|^\[[\da-f:.]+\](?::\d{1,5})?$/i;
const BUYER_PATH = /^\/(?:checkout|pay|c|qr)(?:\/(?!\.\.?(?:\/|$))[^/?#]+)+$/;

type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
type Loaded = Partial<Record<string, Handler & { [PLAIN_IO]?: true }>>;

export type ApiDispatch = {
  /** Serves the request when it is an API request this table knows; false leaves it to Next. */
  dispatch: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** Loads every route's compiled module, one at a time (off the request path: a start-up nicety). */
  warm: () => Promise<void>;
  routes: ApiRoute[];
};

/** The fast path for a production build in `root` (null when there is none to read). */
export function createApiDispatch(root: string, log: (s: string) => void): ApiDispatch | null {
  const serverDir = path.join(root, ".next/server");
  const manifestFile = path.join(serverDir, "app-paths-manifest.json");
  if (!existsSync(manifestFile)) return null;
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as Record<string, string>;
  const routes = apiRoutes(manifest);
  const pages = apiRoutes(manifest, true);
  const require = createRequire(path.join(serverDir, "index.js"));
  const loaded = new Map<string, Loaded | Promise<Loaded>>();

  // The compiled module's own handlers (its `routeModule.userland`), loaded as Next loads them.
  const load = (route: ApiRoute): Loaded | Promise<Loaded> => {
    const have = loaded.get(route.file);
    if (have) return have;
    const pending = (async () => {
      const mod = require(path.join(serverDir, route.file)) as { routeModule: { ensureUserland?: () => Promise<void>; userland: Loaded } };
      await mod.routeModule.ensureUserland?.();
      const handlers = mod.routeModule.userland;
      loaded.set(route.file, handlers);
      return handlers;
    })();
    loaded.set(route.file, pending);
    pending.catch(() => loaded.delete(route.file));
    return pending;
  };

  const fail = (res: ServerResponse, err: unknown) => {
    log(`api fast path: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    if (res.headersSent) return void res.destroy();
    // Only reachable when a route module cannot load: handlers answer their own errors (route()).
    const requestId = `req_${randomBytes(18).toString("base64url")}`;
    const err500 = new AppError("internal_error", `An unexpected error occurred. Quote requestId ${requestId} to support.`);
    const body = JSON.stringify(toEnvelope(err500, requestId));
    res.writeHead(err500.status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", "X-Request-Id": requestId, "Content-Length": Buffer.byteLength(body) });
    res.end(body);
  };

  const dispatch = (req: IncomingMessage, res: ServerResponse): boolean => {
    const method = req.method ?? "";
    const url = req.url ?? "";
    const api = url.startsWith("/api/v1/");
    if (api ? !FAST_METHODS.has(method) : method !== "GET") return false;
    const q = url.indexOf("?");
    const pathname = q === -1 ? url : url.slice(0, q);
    if (!(api ? PLAIN_PATH : BUYER_PATH).test(pathname)) return false;
    let parts: string[];
    try {
      parts = pathname.slice(1).split("/").map(decodeURIComponent);
    } catch {
      return false; // a malformed percent-escape: proxy.ts answers it with the contract's 400
    }
    const found = matchRoute(api ? routes : pages, parts);
    if (!found) return false;

    const host = req.headers.host ?? "localhost";
    // A Host a URL cannot hold goes to Next, which has its own answer for it.
    if (!HOST.test(host)) return false;
    const run = async () => {
      const loadedHandlers = load(found.route);
      const handlers = loadedHandlers instanceof Promise ? await loadedHandlers : loadedHandlers;
      const handler = handlers[method];
      // A route module always exports all five (lib/platform/http/handler.ts methods()); a hand-written one may not.
      if (!handler) throw new Error(`${found.route.page} exports no ${method}`);
      const ctx = { params: Promise.resolve(found.params) };
      if (PLAIN_IO in handler) {
        const plain = new PlainRequest(req, `http://${host}${url}`);
        res.once("close", () => {
          if (!res.writableFinished) plain.abort();
        });
        // A body the handler did not read (refused before reading it) is drained, so the
        // connection can carry the next request.
        res.once("finish", () => plain.drain());
        await writeResponse((await handler(plain as unknown as Request, ctx)) as Response | PlainAnswer, res);
        return;
      }
      const aborted = new AbortController();
      res.once("close", () => {
        if (!res.writableFinished) aborted.abort();
      });
      const body = method === "GET" ? null : bodyStream(req);
      res.once("finish", () => {
        if (!req.complete) body ? body.discard() : req.resume();
      });
      await writeResponse(await handler(toRequest(req, aborted.signal, body?.stream ?? null), ctx), res);
    };
    run().catch((err) => fail(res, err));
    return true;
  };

  const warm = async () => {
    for (const route of [...pages, ...routes]) {
      await new Promise((r) => setImmediate(r));
      try {
        await load(route);
      } catch (err) {
        log(`api fast path: could not load ${route.file}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  };

  return { dispatch, warm, routes };
}
