// The client: openapi-fetch over the generated `paths`, so every call's path, parameters, body
// and answer are typed from the OpenAPI document, behind a transport that does what every
// integration otherwise writes by hand: credentials (access tokens from the key pair, refreshed
// before they expire and once more on a 401), an `Idempotency-Key` on every POST the server binds
// (kept across retries, so a retry can never create twice), and retries with exponential back-off
// and jitter on 429, 5xx and network errors, honouring `Retry-After`. A POST whose key the server
// does not honour (rotating a secret, replaying a delivery) is never repeated after it may have
// arrived: only a 429, which says the server did not act, is retried.
import createFetchClient from "openapi-fetch";
import type { paths } from "./schema.ts";
import { ApiError } from "./errors.ts";
import { IDEMPOTENT_POSTS } from "./idempotent.ts";
import { verifyWebhook, type HeaderSource, type VerifyOptions } from "./webhooks.ts";

export type ClientOptions = {
  /** The API root, e.g. `https://payments.example.com/api/v1`. */
  baseUrl: string;
  /** The secret key (`sk_test_…` / `sk_live_…`). With `publishableKey` too, calls use short-lived access tokens. */
  secretKey?: string;
  /** The publishable key of the same pair; alone, it authenticates the calls a publishable key may make. */
  publishableKey?: string;
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  /** First back-off in ms (default 300), doubled per retry, with full jitter, capped at `maxDelayMs`. */
  baseDelayMs?: number;
  /** Longest wait between attempts, `Retry-After` included (default 20 s). */
  maxDelayMs?: number;
  /** Per-attempt timeout in ms (default 30 s). */
  timeoutMs?: number;
  /** Custom fetch (tests, proxies). */
  fetch?: typeof fetch;
  /** Called before each retry (logging, metrics). */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string; method: string; url: string }) => void;
};

type Tokens = { accessToken: string; refreshToken: string; expiresAt: number };

const RETRY_STATUSES = new Set([408, 409, 425, 429, 500, 502, 503, 504]);
const TOKEN_REFRESH_MARGIN_MS = 60_000;
/** `/payments/{id}/refund` -> a pattern of the path after the base URL. */
const IDEMPOTENT_PATTERNS = IDEMPOTENT_POSTS.map((p) => new RegExp(`^${p.replace(/\{[^}]+\}/g, "[^/]+")}$`));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

class Transport {
  private tokens: Tokens | null = null;
  private pendingTokens: Promise<Tokens> | null = null;
  constructor(private readonly o: ClientOptions) {
    if (!o.secretKey && !o.publishableKey) throw new TypeError("createClient: give secretKey (and publishableKey for access tokens) or publishableKey");
  }

  private get rawFetch() {
    return this.o.fetch ?? globalThis.fetch;
  }

  private async tokenCall(path: string, body: unknown): Promise<Tokens> {
    const res = await this.rawFetch(`${this.o.baseUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), signal: AbortSignal.timeout(this.o.timeoutMs ?? 30_000) });
    const json = (await res.json().catch(() => undefined)) as { accessToken: string; refreshToken: string; expiresIn: number } | undefined;
    if (!res.ok || !json) throw new ApiError(res.status, json, res.headers);
    return { accessToken: json.accessToken, refreshToken: json.refreshToken, expiresAt: Date.now() + json.expiresIn * 1000 };
  }

  /** One token request at a time, however many calls wait for it. */
  private async freshTokens(force: boolean): Promise<Tokens> {
    if (!force && this.tokens && this.tokens.expiresAt - Date.now() > TOKEN_REFRESH_MARGIN_MS) return this.tokens;
    this.pendingTokens ??= (async () => {
      try {
        const old = this.tokens;
        let next: Tokens;
        try {
          // A refresh token is single use: a spent one revokes its family, so fall back to the keys.
          next = old ? await this.tokenCall("/auth/refresh", { refreshToken: old.refreshToken }) : await this.issue();
        } catch (err) {
          if (!old) throw err;
          next = await this.issue();
        }
        this.tokens = next;
        return next;
      } finally {
        this.pendingTokens = null;
      }
    })();
    return this.pendingTokens;
  }

  private issue() {
    return this.tokenCall("/auth/token", { apiKey: this.o.publishableKey, secretKey: this.o.secretKey });
  }

  private get usesTokens() {
    return Boolean(this.o.secretKey && this.o.publishableKey);
  }

  private async bearer(forceRefresh = false): Promise<string> {
    if (this.usesTokens) return (await this.freshTokens(forceRefresh)).accessToken;
    return (this.o.secretKey ?? this.o.publishableKey)!;
  }

  async send(request: Request): Promise<Response> {
    const method = request.method.toUpperCase();
    const body = method === "GET" || method === "HEAD" ? undefined : await request.arrayBuffer();
    const headers = new Headers(request.headers);
    // A POST is safe to repeat only when the server binds its key; PATCH has none. Those are
    // retried only on a 429 (the server refused before acting).
    const idempotent = method === "POST" && this.honoursIdempotencyKey(request.url);
    if (idempotent && !headers.has("idempotency-key")) headers.set("idempotency-key", crypto.randomUUID());
    const repeatable = (method !== "POST" && method !== "PATCH") || idempotent;
    const maxRetries = this.o.maxRetries ?? 3;
    let refreshed = false;
    for (let attempt = 0; ; attempt++) {
      headers.set("authorization", `Bearer ${await this.bearer()}`);
      let res: Response;
      try {
        res = await this.rawFetch(request.url, { method, headers, body, signal: AbortSignal.timeout(this.o.timeoutMs ?? 30_000) });
      } catch (err) {
        // Only a request that surely never reached the server is safe to send again unbound.
        if (!(repeatable || neverSent(err)) || attempt >= maxRetries) throw err;
        await this.wait(attempt, null, `network: ${(err as Error).message}`, method, request.url);
        continue;
      }
      if (res.status === 401 && this.usesTokens && !refreshed) {
        refreshed = true;
        await res.body?.cancel();
        await this.bearer(true);
        attempt--;
        continue;
      }
      // 409 is retried only while the first request with the same key is still running.
      const retryable = RETRY_STATUSES.has(res.status) && (res.status !== 409 || (await isInProgress(res.clone())));
      if (!retryable || !(repeatable || res.status === 429) || attempt >= maxRetries) return res;
      await res.body?.cancel();
      await this.wait(attempt, res.headers.get("retry-after"), `HTTP ${res.status}`, method, request.url);
    }
  }

  private honoursIdempotencyKey(url: string): boolean {
    const base = new URL(this.o.baseUrl).pathname.replace(/\/+$/, "");
    const { pathname } = new URL(url);
    const rest = pathname.startsWith(base) ? pathname.slice(base.length) : pathname;
    return IDEMPOTENT_PATTERNS.some((re) => re.test(rest));
  }

  private async wait(attempt: number, retryAfter: string | null, reason: string, method: string, url: string) {
    const cap = this.o.maxDelayMs ?? 20_000;
    const ra = retryAfter === null ? NaN : Number(retryAfter);
    const fromHeader = Number.isFinite(ra) ? ra * 1000 : retryAfter ? Date.parse(retryAfter) - Date.now() : NaN;
    const delayMs = Math.min(cap, Number.isFinite(fromHeader) && fromHeader >= 0 ? fromHeader : Math.random() * (this.o.baseDelayMs ?? 300) * 2 ** attempt);
    this.o.onRetry?.({ attempt: attempt + 1, delayMs, reason, method, url });
    await sleep(delayMs);
  }
}

/** A connection refused or a name not found: the request never left, whatever its method. */
function neverSent(err: unknown): boolean {
  const code = (err as { cause?: { code?: string } })?.cause?.code;
  return code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN";
}

async function isInProgress(res: Response): Promise<boolean> {
  const body = (await res.json().catch(() => undefined)) as { error?: { code?: string; details?: { reason?: string } } } | undefined;
  return body?.error?.code === "idempotency_conflict" && body.error.details?.reason === "in_progress";
}

/**
 * A typed client. `client.GET("/payments/{id}", { params: { path: { id } } })` answers
 * `{ data, error, response }` as openapi-fetch does; `unwrap(...)` turns that into the data or a
 * thrown `ApiError`.
 */
export function createClient(options: ClientOptions) {
  const transport = new Transport({ ...options, baseUrl: options.baseUrl.replace(/\/+$/, "") });
  const api = createFetchClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ""), fetch: (req: Request) => transport.send(req) });
  return Object.assign(api, {
    webhooks: {
      /** See `verifyWebhook`. */
      verify: <E = import("./webhooks.ts").WebhookEvent>(payload: string | Uint8Array, headers: HeaderSource, secret: string | string[], opts?: VerifyOptions) => verifyWebhook<E>(payload, headers, secret, opts),
    },
  });
}

export type PaymentsClient = ReturnType<typeof createClient>;

/** The data of an openapi-fetch answer, or the API's error thrown as an `ApiError`. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok) throw new ApiError(response.status, error, response.headers);
  return data as T;
}
