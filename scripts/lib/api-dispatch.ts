// The API fast path: the production server answers /api/v1/* by calling the route files'
// handlers itself, without Next's router, rendering pipeline and proxy (about 2 ms of CPU per
// request before our handler ran, most of the API's cost). The route files stay the single
// definition of the surface: this table is read from app/api/v1 at start, matched the way Next
// matches (static segments before [param] before [...catchAll]), and each file's exports are the
// same `methods({...})` handlers Next would call. What Next's proxy did for /api/v1 (a JSON 400
// for a malformed percent-escape) is done here. Methods a route file does not export (HEAD,
// OPTIONS) go on to Next, as does everything outside /api/v1.
//   API_FAST_PATH=off turns it off (the comparison test runs one server each way).
import type http from "node:http";
import { readdirSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pathToFileURL } from "node:url";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
type Segment = { kind: "static"; value: string } | { kind: "param"; name: string } | { kind: "catchAll"; name: string };
export type ApiRoute = { file: string; pattern: string; segments: Segment[]; load: () => Promise<Record<string, Handler | undefined>> };

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

/** Every app/api/v1/**\/route.ts as a route, most specific first (static > [param] > [...catchAll]). */
export function readApiRoutes(root: string): ApiRoute[] {
  const base = path.join(root, "app/api/v1");
  const routes: ApiRoute[] = [];
  const walk = (dir: string, segments: Segment[]) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) {
        const m = /^\[(\.\.\.)?(\w+)\]$/.exec(e.name);
        walk(path.join(dir, e.name), [...segments, m ? (m[1] ? { kind: "catchAll", name: m[2]! } : { kind: "param", name: m[2]! }) : { kind: "static", value: e.name }]);
      } else if (e.name === "route.ts") {
        const file = path.join(dir, e.name);
        let loaded: Promise<Record<string, Handler | undefined>> | null = null;
        routes.push({
          file: path.relative(root, file),
          pattern: `/api/v1/${segments.map((s) => (s.kind === "static" ? s.value : s.kind === "param" ? `[${s.name}]` : `[...${s.name}]`)).join("/")}`.replace(/\/$/, ""),
          segments,
          load: () => (loaded ??= import(pathToFileURL(file).href) as Promise<Record<string, Handler | undefined>>),
        });
      }
    }
  };
  walk(base, []);
  const rank = (s: Segment) => (s.kind === "static" ? 0 : s.kind === "param" ? 1 : 2);
  // Segment by segment, the more specific kind first; then the longer route.
  routes.sort((a, b) => {
    for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
      const d = rank(a.segments[i]!) - rank(b.segments[i]!);
      if (d) return d;
    }
    return b.segments.length - a.segments.length;
  });
  return routes;
}

/** The route and its params for decoded path segments below /api/v1, or null. */
export function matchApiRoute(routes: ApiRoute[], parts: string[]): { route: ApiRoute; params: Record<string, string | string[]> } | null {
  for (const route of routes) {
    const params: Record<string, string | string[]> = {};
    let i = 0;
    let ok = true;
    for (const s of route.segments) {
      if (s.kind === "catchAll") {
        if (i >= parts.length) ok = false;
        else params[s.name] = parts.slice(i);
        i = parts.length;
        break;
      }
      const part = parts[i++];
      if (part === undefined || (s.kind === "static" ? part !== s.value : part === "")) {
        ok = false;
        break;
      }
      if (s.kind === "param") params[s.name] = part;
    }
    if (ok && i === parts.length) return { route, params };
  }
  return null;
}

function malformedEscape(res: http.ServerResponse): void {
  // Same answer as proxy.ts gave through Next (lib/errors' envelope, a request id).
  void import(pathToFileURL(path.join(apiRoot, "lib/errors.ts")).href).then(async ({ AppError, toEnvelope }) => {
    const { newId } = await import(pathToFileURL(path.join(apiRoot, "lib/ids.ts")).href);
    const requestId = newId("request");
    const err = new AppError("invalid_request", "The request path contains a malformed percent-escape.");
    const body = JSON.stringify(toEnvelope(err, requestId));
    res.writeHead(err.status, { "Content-Type": "application/json; charset=utf-8", "X-Request-Id": requestId, "Cache-Control": "no-store", "Content-Length": Buffer.byteLength(body) });
    res.end(body);
  });
}

let apiRoot = "";
/** lib/http/client-ip.ts' PEER_HEADER (not imported: this file loads before the app's modules). */
export const PEER_HEADER = "x-lp-peer-address";

/**
 * The request body as a web stream. Not Readable.toWeb: its cancel destroys the request, and so
 * the socket, and a client still sending a body we refused (too large) would meet a reset instead
 * of our 413. A cancel here discards the rest of the body and keeps the connection.
 */
function bodyStream(req: http.IncomingMessage): { stream: ReadableStream<Uint8Array>; discard: () => void } {
  let done = false;
  const discard = () => {
    done = true;
    req.resume();
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on("data", (c: Buffer) => {
          if (done) return;
          controller.enqueue(new Uint8Array(c.buffer, c.byteOffset, c.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.once("end", () => !done && ((done = true), controller.close()));
        req.once("error", (err) => !done && ((done = true), controller.error(err)));
      },
      pull() {
        req.resume();
      },
      cancel: discard,
    },
    { highWaterMark: 1 },
  );
  return { stream, discard };
}

/** Writes a fetch Response to node's response: headers once, a known-length body in one write. */
async function send(res: http.ServerResponse, response: Response, head: boolean): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((v, k) => {
    if (k !== "set-cookie") headers[k] = v;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  const type = response.headers.get("content-type") ?? "";
  if (head || !response.body) {
    res.writeHead(response.status, headers);
    res.end();
    return;
  }
  if (type.startsWith("application/json")) {
    const bytes = Buffer.from(await response.arrayBuffer());
    headers["content-length"] = String(bytes.length);
    res.writeHead(response.status, headers);
    res.end(bytes);
    return;
  }
  // Files and streams (CSV exports, receipts, event streams) go out as they come.
  res.writeHead(response.status, headers);
  res.flushHeaders();
  const body = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream);
  res.once("close", () => body.destroy());
  body.pipe(res);
  await new Promise<void>((resolve) => {
    body.once("end", resolve);
    body.once("error", () => (res.destroy(), resolve()));
    res.once("close", resolve);
  });
}

/**
 * The request's headers as Next hands them to a route handler: node's parsed headers (with the
 * peer address lib/http/peer-address.ts stamps on every request, whatever the client sent under
 * that name), and the x-forwarded-* defaults Next fills in when no proxy sent them.
 */
function requestHeaders(req: http.IncomingMessage): Headers {
  const h = req.headers;
  h[PEER_HEADER] = req.socket?.remoteAddress ?? "";
  h["x-forwarded-host"] ??= h.host;
  h["x-forwarded-port"] ??= String(req.socket?.localPort ?? "");
  h["x-forwarded-proto"] ??= "http";
  h["x-forwarded-for"] ??= req.socket?.remoteAddress;
  const headers = new Headers();
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const one of v) headers.append(k, one);
    else headers.set(k, v);
  }
  return headers;
}

/**
 * A request handler for /api/v1 that answers through the route files, or returns false so the
 * caller hands the request to Next.
 */
export function apiFastPath(root: string): { handle: (req: http.IncomingMessage, res: http.ServerResponse) => boolean; routes: ApiRoute[]; warm: () => Promise<void> } {
  apiRoot = root;
  const routes = readApiRoutes(root);
  const handle = (req: http.IncomingMessage, res: http.ServerResponse): boolean => {
    const url = req.url ?? "/";
    if (!url.startsWith("/api/v1/") && url !== "/api/v1" && !url.startsWith("/api/v1?")) return false;
    const method = req.method === "HEAD" ? "GET" : (req.method ?? "GET");
    if (!METHODS.has(method)) return false;
    const q = url.indexOf("?");
    const rawPath = q === -1 ? url : url.slice(0, q);
    let parts: string[];
    try {
      parts = rawPath.slice("/api/v1".length).split("/").filter(Boolean).map(decodeURIComponent);
    } catch {
      malformedEscape(res);
      return true;
    }
    const found = matchApiRoute(routes, parts);
    if (!found) return false;
    void (async () => {
      const mod = await found.route.load();
      const handler = mod[method];
      if (!handler) return void (await send(res, new Response(null, { status: 405 }), false));
      const host = req.headers.host ?? "localhost";
      const hasBody = method !== "GET" && method !== "DELETE" ? true : req.headers["content-length"] !== undefined && req.headers["content-length"] !== "0";
      const headers = requestHeaders(req);
      const body = hasBody ? bodyStream(req) : null;
      // request.signal aborts when the client goes away (streams and long polls stop on it), as Next's does.
      const aborted = new AbortController();
      res.once("close", () => !res.writableFinished && aborted.abort());
      const request = new Request(`http://${host}${url}`, {
        method,
        headers,
        signal: aborted.signal,
        body: body?.stream,
        // @ts-expect-error: Node's fetch needs it for a streamed body; the DOM type does not know it.
        duplex: "half",
      });
      const response = await handler(request, { params: Promise.resolve(found.params) });
      // Answered without reading all of the body (refused before it): the rest is read and
      // dropped, so the connection stays usable and the client is not reset mid-send.
      if (!req.complete) body?.discard();
      await send(res, response, req.method === "HEAD");
    })().catch((err) => {
      // The route wrapper turns every error into the envelope; reaching here is a bug of ours.
      console.error(`[api] ${req.method} ${url}: ${err instanceof Error ? (err.stack ?? err.message) : err}`);
      if (!res.headersSent) {
        res.writeHead(500, { "Content-Type": "application/json; charset=utf-8" });
        res.end(JSON.stringify({ error: { type: "api_error", code: "internal_error", message: "An unexpected error occurred." } }));
      } else res.destroy();
    });
    return true;
  };
  /** Loads every route file (after listening), so no client meets a first-request compile. */
  const warm = async () => {
    for (const r of routes) await r.load().catch((err) => console.error(`[api] ${r.file}: ${(err as Error).message}`));
  };
  return { handle, routes, warm };
}
