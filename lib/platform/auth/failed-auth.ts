// Failed authentication per client address: past AUTH_FAILURES_PER_MINUTE failures in a minute,
// an address gets 429 for any credential that is not already cached, before any database
// lookup, so a flood of guessed keys costs neither the database nor the credential cache.
// Counters live in Redis when REDIS_URL is set (every instance sees the same count), else in
// this process (bounded). This process also keeps its own count in every case, so when Redis
// does not answer (down, or slower than the timeout under a flood) a lookup is still counted and
// one process never lets more than the allowance through. An IPv6 client
// counts by its /64 (lib/platform/auth/address-key.ts).
//
// Count before check: a lookup first takes its place (one atomic increment: Redis INCR, one
// synchronous step in memory) and then compares, so 300 invented keys sent at once get the
// allowance's lookups and no more (read-then-increment let a whole burst pass the check before
// any of it was counted). A lookup that finds a real key gives its place back.
import Redis from "ioredis";
import { AppError } from "@/lib/platform/errors";
import { config } from "@/lib/platform/config";
import { log } from "@/lib/platform/log";
import { singleton } from "@/lib/platform/singleton";
import { CLOSE_ORDER, onShutdown } from "@/lib/platform/lifecycle";
import { addressKey } from "@/lib/platform/auth/address-key";

const WINDOW_MS = 60_000;
const MAX_ADDRESSES = 100_000;

export interface FailureCounter {
  /** Failures of `key` in its current window, and ms until that window ends. */
  get(key: string): Promise<{ n: number; resetMs: number }>;
  /** One atomic step: the count after this increment, and ms until its window ends. */
  incr(key: string): Promise<{ n: number; resetMs: number }>;
  /** Gives one back (never below zero). */
  decr(key: string): Promise<void>;
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
    return { n: e.n, resetMs: e.until - now };
  }
  async decr(key: string) {
    const e = this.m.get(key);
    if (e && e.until > this.now() && e.n > 0) e.n -= 1;
  }
}

/** The count shared by every instance. When Redis does not answer it counts nothing: this process' own count (always kept) still holds. */
class RedisFailureCounter implements FailureCounter {
  private lastWarn = 0;
  constructor(private r: Redis, private prefix = "authfail:") {}
  private warn(err: unknown) {
    if (Date.now() - this.lastWarn < 10_000) return;
    this.lastWarn = Date.now();
    log.warn({ err: (err as Error).message }, "failed-authentication counter unavailable; counting in this process only");
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
    try {
      const res = (await this.r.multi().incr(k).pexpire(k, WINDOW_MS, "NX").pttl(k).exec()) as [[unknown, number], [unknown, number], [unknown, number]];
      if (typeof res?.[0]?.[1] !== "number") throw new Error("INCR answered no count");
      return { n: res[0][1], resetMs: Math.max(0, Number(res[2][1])) };
    } catch (err) {
      this.warn(err);
      return { n: 0, resetMs: 0 };
    }
  }
  async decr(key: string) {
    await this.r.eval(DECR_FLOOR, 1, this.prefix + key).catch((err) => this.warn(err));
  }
}

/** DECR that never leaves a count at or below zero. */
const DECR_FLOOR = `local v = redis.call('DECR', KEYS[1]) if v <= 0 then redis.call('DEL', KEYS[1]) end return v`;

/** This process' own count: always kept, so a slow or absent Redis never lets a burst through uncounted. */
function localCounter(): FailureCounter {
  return singleton("failed-auth-local-counter", () => new MemoryFailureCounter());
}

/** The shared count (Redis) when REDIS_URL is set; else this process' own. */
function counter(): FailureCounter {
  return singleton("failed-auth-counter", () => {
    const url = config().REDIS_URL;
    if (!url) return localCounter();
    const redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2_000, commandTimeout: 2_000 });
    onShutdown("redis failed-auth counter", CLOSE_ORDER.clients, () => redis.quit());
    redis.on("error", () => {});
    return new RedisFailureCounter(redis);
  });
}

/** Codes that count as a failed authentication. */
const FAILURES = new Set(["invalid_api_key", "invalid_token", "token_expired"]);

export function failedAuthGuard(address: string, store: () => FailureCounter = counter, local: () => FailureCounter = localCounter) {
  const limit = config().AUTH_FAILURES_PER_MINUTE;
  const key = addressKey(address);
  // This process' count and the shared one (one when they are the same): an address is over its
  // allowance when either says so. A shared count that times out under a flood counts nothing,
  // and this process' count still holds (one process never lets more than the allowance through).
  const counters = () => [...new Set([local(), store()])];
  // This request's own place in the count: taken by the lookup, given back if it found a key.
  let counted = false;
  let refused = false;
  return {
    /**
     * Called before a lookup: counts it, then throws 429 rate_limited when the address is now
     * over its allowance (no lookup happens).
     */
    async beforeLookup(): Promise<void> {
      const counts = await Promise.all(counters().map((c) => c.incr(key)));
      counted = true;
      const n = Math.max(...counts.map((c) => c.n));
      if (n <= limit) return;
      refused = true;
      const retryAfter = Math.max(1, Math.ceil(Math.max(...counts.map((c) => c.resetMs)) / 1000));
      throw new AppError("rate_limited", `Too many failed authentications from this address; retry after ${retryAfter} s.`, {
        details: { limit, retryAfter },
        headers: { "Retry-After": String(retryAfter) },
      });
    },
    /**
     * The authentication's outcome (null: it succeeded). A failure keeps its place, or takes one
     * when no lookup counted it (a token, an unknown key answered from the cache); anything
     * else gives back the place its lookup took.
     */
    async record(err: unknown): Promise<void> {
      if (refused) return;
      const failed = err instanceof AppError && FAILURES.has(err.code);
      if (failed && !counted) await Promise.all(counters().map((c) => c.incr(key)));
      else if (!failed && counted) await Promise.all(counters().map((c) => c.decr(key)));
    },
  };
}
