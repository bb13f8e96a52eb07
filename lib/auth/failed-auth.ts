// Failed authentication per client address: past AUTH_FAILURES_PER_MINUTE failures in a minute,
// an address gets 429 for any credential that is not already cached, before any database
// lookup, so a flood of guessed keys costs neither the database nor the credential cache.
// Counters live in Redis when REDIS_URL is set (every instance sees the same count), else in
// this process (bounded). A Redis failure fails open, like the API's limiter.
import Redis from "ioredis";
import { AppError } from "@/lib/errors";
import { config } from "@/lib/config";
import { log } from "@/lib/log";
import { singleton } from "@/lib/singleton";
import { CLOSE_ORDER, onShutdown } from "@/lib/lifecycle";

const WINDOW_MS = 60_000;
const MAX_ADDRESSES = 100_000;

export interface FailureCounter {
  /** Failures of `key` in its current window, and ms until that window ends. */
  get(key: string): Promise<{ n: number; resetMs: number }>;
  incr(key: string): Promise<void>;
}

export class MemoryFailureCounter implements FailureCounter {
  private m = new Map<string, { n: number; until: number }>();
  constructor(private now: () => number = Date.now, private max = MAX_ADDRESSES) {}
  async get(key: string) {
    const e = this.m.get(key);
    const now = this.now();
    return e && e.until > now ? { n: e.n, resetMs: e.until - now } : { n: 0, resetMs: 0 };
  }
  async incr(key: string) {
    const now = this.now();
    let e = this.m.get(key);
    if (!e || e.until <= now) {
      this.m.delete(key);
      e = { n: 0, until: now + WINDOW_MS };
      // Oldest window first (Map keeps insertion order): a flood of addresses forgets the oldest.
      while (this.m.size >= this.max) this.m.delete(this.m.keys().next().value!);
      this.m.set(key, e);
    }
    e.n += 1;
  }
}

class RedisFailureCounter implements FailureCounter {
  private lastWarn = 0;
  constructor(private r: Redis, private prefix = "authfail:") {}
  private warn(err: unknown) {
    if (Date.now() - this.lastWarn < 10_000) return;
    this.lastWarn = Date.now();
    log.warn({ err: (err as Error).message }, "failed-authentication counter unavailable; not limiting");
  }
  async get(key: string) {
    try {
      const [[, n], [, ttl]] = (await this.r.multi().get(this.prefix + key).pttl(this.prefix + key).exec()) as [[unknown, string | null], [unknown, number]];
      return { n: Number(n ?? 0), resetMs: Math.max(0, Number(ttl)) };
    } catch (err) {
      this.warn(err);
      return { n: 0, resetMs: 0 };
    }
  }
  async incr(key: string) {
    const k = this.prefix + key;
    await this.r.multi().incr(k).pexpire(k, WINDOW_MS, "NX").exec().catch((err) => this.warn(err));
  }
}

function counter(): FailureCounter {
  return singleton("failed-auth-counter", () => {
    const url = config().REDIS_URL;
    if (!url) return new MemoryFailureCounter();
    const redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2_000, commandTimeout: 500 });
    onShutdown("redis failed-auth counter", CLOSE_ORDER.clients, () => redis.quit());
    redis.on("error", () => {});
    return new RedisFailureCounter(redis);
  });
}

/** Codes that count as a failed authentication. */
const FAILURES = new Set(["invalid_api_key", "invalid_token", "token_expired"]);

export function failedAuthGuard(address: string, store: () => FailureCounter = counter) {
  const limit = config().AUTH_FAILURES_PER_MINUTE;
  return {
    /** Throws 429 rate_limited when the address is over its failures; called before a lookup. */
    async beforeLookup(): Promise<void> {
      const { n, resetMs } = await store().get(address);
      if (n < limit) return;
      const retryAfter = Math.max(1, Math.ceil(resetMs / 1000));
      throw new AppError("rate_limited", `Too many failed authentications from this address; retry after ${retryAfter} s.`, {
        details: { limit, retryAfter },
        headers: { "Retry-After": String(retryAfter) },
      });
    },
    /** Counts the error if it is a failed authentication. */
    async record(err: unknown): Promise<void> {
      if (err instanceof AppError && FAILURES.has(err.code)) await store().incr(address);
    },
  };
}
