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
// GETs take the same path: BUYER_PAGES below.
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { existsSync, readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
// The one error table (lib/platform/errors.ts has no app imports, so a second instance of it here is harmless).
import { AppError, toEnvelope } from "../../lib/platform/errors.ts";

/** lib/platform/http/client-ip.ts PEER_HEADER (not imported: that module is the app's, loaded by Next's bundle). */
const PEER_HEADER = "x-lp-peer-address";
const FAST_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);
// An API path with ordinary segments: no trailing slash, no empty, "." or ".." segment.
const PLAIN_PATH = /^\/api\/v1(?:\/(?!\.\.?(?:\/|$))[^/?#]+)*$/;
/** The buyer pages' route files (GET only), and the paths that may be one of them. */
const BUYER_PAGES = new Set(["/checkout/[token]/route", "/pay/[provider]/[txId]/route", "/pay/sandbox/[txId]/route", "/c/[txId]/result/route", "/qr/[token]/route"]);
/** A Host header a URL can carry (name or address, optional port). */
const HOST = /^[\w.-]+(?::\d{1,5})?$|^\[[\da-f:.]+\](?::\d{1,5})?$/i;
const BUYER_PATH = /^\/(?:checkout|pay|c|qr)(?:\/(?!\.\.?(?:\/|$))[^/?#]+)+$/;

/** lib/platform/http/handler.ts PLAIN_IO: a handler that takes a PlainRequest, and its plain answer. */
const PLAIN_IO = Symbol.for("latam-payments.plain-io");
/** lib/platform/http/body.ts DIRECT_BODY: a PlainRequest's body read off the socket, no web stream. */
const DIRECT_BODY = Symbol.for("latam-payments.direct-body");
type PlainAnswer = { [PLAIN_IO]: true; status: number; headers: Record<string, string>; body: string | Uint8Array };
type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
type Segment = { kind: "static"; value: string } | { kind: "param"; name: string } | { kind: "rest"; name: string };
export type ApiRoute = { page: string; file: string; segments: Segment[] };
type Loaded = Partial<Record<string, Handler & { [PLAIN_IO]?: true }>>;

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

/**
 * The request's body as a web stream that pauses the socket while nobody reads. `discard()`
 * drops what the handler left unread (it answered without reading, or stopped at a limit): the
 * rest is read and thrown away, so the keep-alive connection can carry the next request.
 */
function bodyStream(req: IncomingMessage): { stream: ReadableStream<Uint8Array>; discard: () => void } {
  let closed = false;
  const discard = () => {
    closed = true;
    req.resume();
  };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      req.on("data", (chunk: Buffer) => {
        if (closed) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      });
      req.once("end", () => {
        if (!closed) (closed = true), controller.close();
      });
      req.once("error", (err) => {
        if (!closed) (closed = true), controller.error(err);
      });
      req.pause();
    },
    pull() {
      if (!closed) req.resume();
    },
    cancel: discard,
  }, { highWaterMark: 4 });
  return { stream, discard };
}

/** A request's headers as a route reads them (get, has), straight from the parser's raw list. */
class PlainHeaders {
  constructor(
    private readonly raw: string[],
    private readonly added: Map<string, string>,
  ) {}
  get(name: string): string | null {
    const wanted = name.toLowerCase();
    const stamped = this.added.get(wanted);
    if (stamped !== undefined) return stamped;
    if (wanted === PEER_HEADER) return null;
    let value: string | null = null;
    const raw = this.raw;
    for (let i = 0; i < raw.length; i += 2) {
      const n = raw[i]!;
      // Repeated headers join with ", ", as the Web Headers does.
      if (n.length === wanted.length && n.toLowerCase() === wanted) value = value === null ? raw[i + 1]! : `${value}, ${raw[i + 1]!}`;
    }
    return value;
  }
  has(name: string): boolean {
    return this.get(name) !== null;
  }
}

/**
 * What a route() handler reads of its request (lib/platform/http/handler.ts PLAIN_IO): method, URL,
 * headers (with the peer and forwarded headers Next would add), a signal made only when read and
 * a body stream made only when read. No Web Request, Headers or AbortSignal per request.
 */
export class PlainRequest {
  readonly [PLAIN_IO] = true;
  readonly headers: PlainHeaders;
  private controller: AbortController | undefined;
  private gone = false;
  private stream: ReturnType<typeof bodyStream> | null | undefined;
  constructor(
    private readonly req: IncomingMessage,
    readonly url: string,
  ) {
    this.headers = new PlainHeaders(req.rawHeaders, stampedHeaders(req));
  }
  get method(): string {
    return this.req.method!;
  }
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.gone) this.controller.abort();
    }
    return this.controller.signal;
  }
  get body(): ReadableStream<Uint8Array> | null {
    if (this.stream === undefined) this.stream = this.req.method === "GET" ? null : bodyStream(this.req);
    return this.stream?.stream ?? null;
  }
  /**
   * The body's bytes, at most `limit` (lib/platform/http/body.ts DIRECT_BODY), read off the socket: null
   * past the limit, the rest thrown away so the connection can carry the next request. Undefined
   * when the body was already taken as a stream (it is read from there).
   */
  [DIRECT_BODY](limit: number): Promise<Uint8Array<ArrayBuffer> | null> | undefined {
    if (this.stream !== undefined) return undefined;
    this.stream = null;
    const req = this.req;
    // (`complete` says the parser has the whole body, not that anyone has read it.)
    if (req.method === "GET" || req.readableEnded) return Promise.resolve(new Uint8Array(0));
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      // The error listener stays: an aborted request may still emit one.
      const done = () => {
        req.off("data", onData);
        req.off("end", onEnd);
        req.off("close", onClose);
      };
      const onData = (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size <= limit) return void chunks.push(chunk);
        done();
        req.resume();
        resolve(null);
      };
      const onEnd = () => {
        done();
        if (chunks.length === 1) return resolve(new Uint8Array(chunks[0]!.buffer as ArrayBuffer, chunks[0]!.byteOffset, size));
        const out = new Uint8Array(size);
        let at = 0;
        for (const c of chunks) (out.set(c, at), (at += c.byteLength));
        resolve(out);
      };
      const onError = (err: Error) => (done(), reject(err)); // (a settled promise ignores it)
      // The client went away mid-body: no 'end' will come.
      const onClose = () => (done(), reject(new Error("the client closed the connection before the body ended")));
      req.on("data", onData);
      req.once("end", onEnd);
      req.once("error", onError);
      req.once("close", onClose);
    });
  }
  /** The client went away before the answer was sent. */
  abort(): void {
    this.gone = true;
    this.controller?.abort();
  }
  /** After the answer: what the handler left unread is drained (see bodyStream). */
  drain(): void {
    if (this.req.complete) return;
    if (this.stream) this.stream.discard();
    else this.req.resume();
  }
}

function isPlainAnswer(v: unknown): v is PlainAnswer {
  return typeof v === "object" && v !== null && PLAIN_IO in v;
}

/**
 * What Next's server adds to a request before a handler runs: the socket's peer (ours read the
 * peer, never the forwarded claim) and the forwarded headers the client did not send.
 */
function stampedHeaders(req: IncomingMessage): Map<string, string> {
  const stamped = new Map<string, string>([[PEER_HEADER, req.socket.remoteAddress ?? ""]]);
  const h = req.headers;
  if (h["x-forwarded-host"] === undefined) stamped.set("x-forwarded-host", h.host ?? "localhost");
  if (h["x-forwarded-proto"] === undefined) stamped.set("x-forwarded-proto", "http");
  if (h["x-forwarded-for"] === undefined && req.socket.remoteAddress) stamped.set("x-forwarded-for", req.socket.remoteAddress);
  return stamped;
}

export function toRequest(req: IncomingMessage, signal: AbortSignal, body: ReadableStream<Uint8Array> | null): Request {
  // Pairs, not a Headers object: the Request builds its own Headers from them (building one here
  // too validated and copied every header twice). The client's own peer header is dropped.
  const headers: [string, string][] = [];
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() !== PEER_HEADER) headers.push([raw[i]!, raw[i + 1]!]);
  headers.push(...stampedHeaders(req));
  const host = req.headers.host ?? "localhost";
  const method = req.method!;
  const init: RequestInit & { duplex?: "half" } = { method, headers, signal };
  if (body) {
    init.body = body;
    init.duplex = "half";
  }
  return new Request(`http://${host}${req.url}`, init);
}

async function writeResponse(response: Response | PlainAnswer, res: ServerResponse): Promise<void> {
  if (isPlainAnswer(response)) {
    // One finished body (a JSON answer, a buyer page): sent with its length in one write.
    const length = typeof response.body === "string" ? Buffer.byteLength(response.body) : response.body.byteLength;
    res.writeHead(response.status, { ...response.headers, "Content-Length": length });
    res.end(response.body);
    return;
  }
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.statusCode = response.status;
  if (!response.body) {
    res.end();
    return;
  }
  // A JSON answer is one finished string (lib/platform/http/handler.ts): read it whole and send it with its
  // length in one write, instead of a chunked stream read a chunk at a time (two reads, a chunk,
  // the terminator). Anything else (files, exports, event streams) streams as it comes.
  if (/^application\/json/i.test(response.headers.get("content-type") ?? "") && !response.headers.has("content-encoding")) {
    const body = Buffer.from(await response.arrayBuffer());
    res.setHeader("content-length", body.byteLength);
    res.end(body);
    return;
  }
  const reader = response.body.getReader();
  const gone = () => void reader.cancel().catch(() => {});
  res.once("close", gone);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) return;
      if (!res.write(value)) await new Promise<void>((resolve) => (res.once("drain", resolve), res.once("close", resolve)));
    }
    res.end();
  } finally {
    res.off("close", gone);
  }
}

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
