// The one route wrapper. Every /api/v1 handler goes through it, in this order:
// request id -> authentication -> rate limit -> body/query/path validation -> idempotency ->
// the use case -> JSON answer with the contract's headers -> one structured log line.
// Any AppError becomes the section 7 envelope; anything else is a logged 500 internal_error
// that leaks nothing.
import { AppError, databaseUnavailable, isDatabaseUnavailable, isTransactionConflict, toEnvelope, transactionConflict } from "@/lib/platform/errors";
import { noteDatabaseOutage } from "@/lib/platform/health/database-outage";
import { newId } from "@/lib/platform/ids";
import { log } from "@/lib/platform/log";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import { gate } from "@/lib/platform/auth/gate";
import { capacityFor, rateLimitHeaders, rateLimitStore, type Verdict } from "@/lib/platform/http/rate-limit";
import { parseWith, refuseNul } from "@/lib/platform/contract/validation";
import { clientIp } from "@/lib/platform/http/client-ip";
import { canonicalIdempotencyPath, validateIdempotencyKey, type ResourceRef } from "@/lib/platform/idempotency/keys";
import { withIdempotency } from "@/lib/platform/idempotency/run";
import { recordRequest } from "@/lib/platform/http/request-log";
import { API_BODY_LIMIT, readBody, readMultipart, refuseDeclaredOversize } from "@/lib/platform/http/body";
import { failedAuthGuard } from "@/lib/platform/auth/failed-auth";
import { addressKey } from "@/lib/platform/auth/address-key";
import { observeRequest } from "@/lib/platform/metrics/registry";
import { jsonOf } from "@/lib/platform/contract/json-text";
import type { BodyOf, EndpointDef, HttpMethod, ParamsOf, QueryOf, ResponseOf } from "@/lib/platform/contract/endpoint";
import { merchantScope } from "@/lib/platform/scope";

export type HandlerInput<E extends EndpointDef> = {
  body: BodyOf<E>;
  query: QueryOf<E>;
  params: ParamsOf<E>;
  auth: E["auth"] extends "none" ? null : AuthContext;
  requestId: string;
  request: Request;
};

/** A handler may return the body (status = endpoint.successStatus or 200) or an explicit reply. */
const REPLY = Symbol.for("latam-payments.reply");
export type Reply<T> = { [REPLY]: true; status: number; body: T; headers?: Record<string, string> };
export function reply<T>(status: number, body: T, headers?: Record<string, string>): Reply<T> {
  return { [REPLY]: true, status, body, headers };
}
const isReply = (v: unknown): v is Reply<unknown> => typeof v === "object" && v !== null && REPLY in v;

type NextCtx = { params: Promise<Record<string, string | string[]>> };
export type RouteHandler = (req: Request, ctx: NextCtx) => Promise<Response>;

/**
 * The API's fast path (scripts/lib/api-dispatch.ts) marks the handlers it may call with a plain
 * request (`PlainRequest`: the method, URL, headers, signal and body a route reads, none of the
 * Web Request's copies and checks) and marks that request; a JSON answer to it comes back as
 * plain parts (`PlainAnswer`) that the server writes as they are, not as a Web Response it would
 * read back. Building and reading those two objects cost about a quarter of a ping's CPU.
 * Next's calls get a Request and a Response as before. A global symbol: the dispatcher is
 * not part of the app's bundle.
 */
export const PLAIN_IO = Symbol.for("latam-payments.plain-io");
export type PlainAnswer = { [PLAIN_IO]: true; status: number; headers: Record<string, string>; body: string | Uint8Array };

type Parts = { status: number; headers: Record<string, string>; body: unknown };

const JSON_HEADERS = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" } as const;

function json(status: number, body: unknown, headers: Record<string, string>): Response {
  return new Response(jsonOf(body) as BodyInit, { status, headers: { ...JSON_HEADERS, ...headers } });
}

/** The answer in the form the caller takes: plain parts for a plain request, else a Response. */
function answerFor(req: Request, parts: Parts): Response {
  if (!(PLAIN_IO in req)) return json(parts.status, parts.body, parts.headers);
  const plain: PlainAnswer = { [PLAIN_IO]: true, status: parts.status, headers: { ...JSON_HEADERS, ...parts.headers }, body: jsonOf(parts.body) };
  return plain as unknown as Response;
}

function errorParts(err: unknown, requestId: string, headers: Record<string, string> = {}): Parts {
  // A lost or unreachable database is an outage (503 + Retry-After, one warning per outage), not a bug.
  const outage = !(err instanceof AppError) && isDatabaseUnavailable(err);
  if (outage) noteDatabaseOutage(err, { requestId });
  // A change rolled back by a concurrent one (a deadlock the kernel's retries did not get past):
  // nothing was applied and a retry may pass, so it is a 503 with Retry-After, not a bug's 500.
  const conflict = !(err instanceof AppError) && !outage && isTransactionConflict(err);
  const appError =
    err instanceof AppError ? err : outage ? databaseUnavailable() : conflict ? transactionConflict() : new AppError("internal_error", `An unexpected error occurred. Quote requestId ${requestId} to support; retrying with the same Idempotency-Key is safe.`);
  if (conflict) log.warn({ requestId, err: err instanceof Error ? err.message : String(err) }, "transaction conflict: answered 503");
  else if (!(err instanceof AppError) && !outage) {
    log.error({ requestId, err: err instanceof Error ? { message: err.message, stack: err.stack } : String(err) }, "unhandled error");
  }
  return { status: appError.status, headers: { ...headers, ...appError.headers, "X-Request-Id": requestId }, body: toEnvelope(appError, requestId) };
}

export function errorResponse(err: unknown, requestId: string, headers: Record<string, string> = {}): { response: Response; status: number; body: unknown } {
  const parts = errorParts(err, requestId, headers);
  return { response: json(parts.status, parts.body, parts.headers), status: parts.status, body: parts.body };
}

async function readJsonBody(req: Request): Promise<unknown> {
  const text = await readBody(req, API_BODY_LIMIT);
  if (text.trim() === "") return {};
  const type = req.headers.get("content-type") ?? "";
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type.trim())) {
    throw new AppError("content_type_required", "Send the body as JSON with `Content-Type: application/json`.");
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("invalid_json", "The request body is not valid JSON.");
  }
}

function queryObject(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of url.searchParams) out[k] = v;
  return out;
}

/**
 * `replay` re-renders an idempotent endpoint's answer from the resource its use case bound
 * (bindIdempotency) when the stored answer was lost to a crash; it may throw an AppError.
 */
export type RouteOptions<E extends EndpointDef> = {
  replay?: (ref: ResourceRef, input: HandlerInput<E>) => Promise<ResponseOf<E> | Reply<ResponseOf<E>>>;
  /** false for an answer holding a secret: never stored, every replay re-rendered by `replay`. */
  storeAnswer?: boolean;
  /** The key is claimed by the use case's first write, not a statement of its own (lib/platform/idempotency/run.ts, foldClaim). */
  foldClaim?: boolean;
};

/** What a handler answers: the body, an explicit reply, or (for an endpoint with `responseType`) a Response it built. */
type Answer<E extends EndpointDef> = ResponseOf<E> | Reply<ResponseOf<E>> | (E extends { responseType: string } ? Response : never);

export function route<E extends EndpointDef>(endpoint: E, handler: (input: HandlerInput<E>) => Promise<Answer<E>>, options: RouteOptions<E> = {}): RouteHandler {
  const handle: RouteHandler = async (req, ctx) => {
    const started = performance.now();
    const requestId = newId("request");
    let headers: Record<string, string> = {};
    let auth: AuthContext | null = null;
    // A JSON answer's parts, or the Response a file or stream endpoint built.
    let out: Parts | Response;
    const url = new URL(req.url);
    try {
      // Before authentication: an oversized body is refused without any lookup.
      refuseDeclaredOversize(req, endpoint.multipart?.limitBytes ?? API_BODY_LIMIT);
      if (endpoint.auth !== "none") {
        const guard = failedAuthGuard(clientAddress(req));
        // The endpoint's permission (the type requires one when auth is not "none"); a missing one fails closed.
        auth = await gate({ kind: "api", authorization: req.headers.get("authorization"), host: req.headers.get("host"), shop: endpoint.shop, beforeLookup: guard.beforeLookup }, endpoint.permission!).then(
          async (a) => (await guard.record(null), a),
          async (err) => {
            await guard.record(err);
            throw err;
          },
        );
        auth.ip = clientAddress(req);
      }
      const verdict = endpoint.rateLimit === false ? null : await limit(endpoint, req, auth);
      if (verdict) headers = rateLimitHeaders(verdict);
      if (verdict && !verdict.allowed) {
        throw new AppError("rate_limited", `Rate limit of ${verdict.limit} requests per minute exceeded; retry after ${verdict.retryAfter} s.`, { details: { limit: verdict.limit, retryAfter: verdict.retryAfter } });
      }
      const rawParams = ctx?.params ? await ctx.params : {};
      // parseWith refuses a NUL (PostgreSQL's text cannot hold one); input no schema reads is checked here.
      if (!endpoint.params) refuseNul(rawParams, "path");
      const params = endpoint.params ? parseWith(endpoint.params, rawParams, "path") : rawParams;
      const query = endpoint.query ? parseWith(endpoint.query, queryObject(url), "query") : undefined;
      const form = endpoint.multipart ? await readMultipart(req, endpoint.multipart.limitBytes) : null;
      const rawBody = form ? { multipartSha256: form.sha256 } : endpoint.body ? await readJsonBody(req) : undefined;
      if (endpoint.parseBody && !form) refuseNul(rawBody, "body");
      const body = form ? endpoint.parseBody!(form.data) : endpoint.parseBody ? endpoint.parseBody(rawBody) : endpoint.body ? parseWith(endpoint.body, rawBody, "body") : undefined;
      const input = { body, query, params, auth, requestId, request: req } as HandlerInput<E>;

      const answer = (out: ResponseOf<E> | Reply<ResponseOf<E>>) =>
        isReply(out) ? { status: out.status, body: out.body as unknown, headers: out.headers } : { status: endpoint.successStatus ?? 200, body: out as unknown, headers: undefined };
      const execute = async () => answer((await handler(input)) as ResponseOf<E> | Reply<ResponseOf<E>>);
      const idemKey = req.headers.get("idempotency-key");
      if (endpoint.idempotent && idemKey !== null && auth) {
        const scope = { ...merchantScope(auth), key: validateIdempotencyKey(idemKey), method: endpoint.method, path: canonicalIdempotencyPath(url.pathname), shopId: auth.shop?.id ?? null };
        const replay = options.replay;
        const result = await withIdempotency(
          scope,
          rawBody,
          async () => {
            const r = await execute();
            return { status: r.status, body: r.body };
          },
          {
            replay: replay && (async (ref) => answer(await replay(ref, input))),
            storeAnswer: options.storeAnswer,
            foldClaim: options.foldClaim,
            successStatus: endpoint.successStatus ?? 200,
            renderError: (err) => (err instanceof AppError ? { status: err.status, body: toEnvelope(err, requestId) } : null),
          },
        );
        out = { status: result.status, body: result.body, headers: { ...headers, "X-Request-Id": requestId, "Idempotent-Replayed": String(result.replayed) } };
      } else if (endpoint.responseType) {
        // A non-JSON answer (a file, a stream) goes out as the handler built it, with our headers.
        const built = await handler(input);
        if (!(built instanceof Response)) throw new Error(`${endpoint.method} ${endpoint.path} declares responseType but did not return a Response`);
        for (const [k, v] of Object.entries({ ...headers, "X-Request-Id": requestId })) built.headers.set(k, v);
        out = built;
      } else {
        const r = await execute();
        out = { status: r.status, body: r.body, headers: { ...headers, ...r.headers, "X-Request-Id": requestId } };
      }
    } catch (err) {
      out = errorParts(err, requestId, headers);
    }
    const status = out.status;
    // The JSON answer, for the request log (redacted there); none for files and streams.
    const answerBody = out instanceof Response ? undefined : out.body;
    const elapsedMs = performance.now() - started;
    log.info({ requestId, merchant: auth?.merchant.id, env: auth?.environment, route: `${endpoint.method} ${endpoint.path}`, status, durationMs: Math.round(elapsedMs * 10) / 10 }, "request");
    observeRequest(endpoint.path, endpoint.method, status, elapsedMs / 1000);
    if (auth) recordRequest({ ...merchantScope(auth), method: req.method, path: url.pathname, status, requestId, keyId: auth.keyId, durationMs: performance.now() - started, answer: answerBody });
    return out instanceof Response ? out : answerFor(req, out);
  };
  return plainIo(handle);
}

/** Tells the fast path this handler takes a PlainRequest (see PLAIN_IO). */
function plainIo(handler: RouteHandler): RouteHandler {
  return Object.assign(handler, { [PLAIN_IO]: true });
}

async function limit(endpoint: EndpointDef, req: Request, auth: AuthContext | null): Promise<Verdict> {
  const key = auth ? `key:${auth.keyPairId}:${auth.keyKind}` : `ip:${addressKey(clientAddress(req))}:${endpoint.path}`;
  return rateLimitStore().take(key, capacityFor(auth?.merchant.tier ?? null));
}

/** The client address (lib/platform/http/client-ip.ts), "unknown" when no trusted header names one. */
export function clientAddress(req: Request): string {
  return clientIp(req.headers) ?? "unknown";
}

/** The contract's JSON 404 for a path no endpoint serves. */
export function routeNotFound(req: Request): Response {
  const path = new URL(req.url).pathname;
  return errorResponse(new AppError("route_not_found", `No endpoint at ${req.method} ${path}. See /api/v1/openapi.json.`), newId("request")).response;
}

const ALL_METHODS: HttpMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/**
 * A route file's exports: the given handlers, plus a JSON 405 for every other method.
 * `export const { GET, POST, PUT, PATCH, DELETE } = methods({ GET: route(...) })`
 */
export function methods(handlers: Partial<Record<HttpMethod, RouteHandler>>): Record<HttpMethod, RouteHandler> {
  const allowed = Object.keys(handlers).join(", ");
  const out = {} as Record<HttpMethod, RouteHandler>;
  for (const m of ALL_METHODS) {
    out[m] =
      handlers[m] ??
      plainIo(async (req) => answerFor(req, errorParts(new AppError("method_not_allowed", `This path does not accept ${m}; it accepts ${allowed}.`, { headers: { Allow: allowed } }), newId("request"))));
  }
  return out;
}
