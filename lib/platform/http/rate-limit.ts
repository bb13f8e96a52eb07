// Token buckets per credential (decisions.md: starter 100, standard 500, premium 2,000 requests
// per minute). Redis holds the buckets when REDIS_URL is set, so every instance shares them;
// otherwise they live in this process. If Redis fails, requests pass (fail open) and a warning
// is logged: an outage of the limiter must not become an outage of payments.
import Redis from "ioredis";
import { config } from "@/lib/platform/config";
import { log } from "@/lib/platform/log";
import { singleton } from "@/lib/platform/singleton";
import { CLOSE_ORDER, onShutdown } from "@/lib/platform/lifecycle";
import type { MerchantTier } from "@/lib/generated/prisma/enums";

export const TIER_LIMITS_PER_MINUTE: Record<MerchantTier, number> = { starter: 100, standard: 500, premium: 2000 };
/** Unauthenticated endpoints (/auth/token, /auth/refresh) are limited per client address. */
export const ANONYMOUS_LIMIT_PER_MINUTE = 300;

export type Verdict = { allowed: boolean; limit: number; remaining: number; resetAt: number; retryAfter: number };

export interface BucketStore {
  /** Takes one token from bucket `key` of `capacity` tokens refilling over 60 s. */
  take(key: string, capacity: number): Promise<Verdict>;
}

function verdict(tokens: number, capacity: number, nowMs: number, allowed: boolean): Verdict {
  const perMs = capacity / 60_000;
  return {
    allowed,
    limit: capacity,
    remaining: Math.max(0, Math.floor(tokens)),
    resetAt: Math.ceil((nowMs + (capacity - tokens) / perMs) / 1000),
    retryAfter: allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / perMs / 1000)),
  };
}

export class MemoryBucketStore implements BucketStore {
  private buckets = new Map<string, { tokens: number; at: number }>();
  constructor(private now: () => number = Date.now) {}

  async take(key: string, capacity: number): Promise<Verdict> {
    const now = this.now();
    const perMs = capacity / 60_000;
    const b = this.buckets.get(key) ?? { tokens: capacity, at: now };
    const tokens = Math.min(capacity, b.tokens + (now - b.at) * perMs);
    const allowed = tokens >= 1;
    const left = allowed ? tokens - 1 : tokens;
    this.buckets.set(key, { tokens: left, at: now });
    if (this.buckets.size > 100_000) this.evictFull(now);
    return verdict(left, capacity, now, allowed);
  }

  private evictFull(now: number) {
    for (const [k, b] of this.buckets) if (now - b.at > 60_000) this.buckets.delete(k);
  }
}

// One atomic script: refill by elapsed time on Redis' own clock (instances' clocks may differ).
const TAKE_SCRIPT = `
local capacity = tonumber(ARGV[1])
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(b[1]) or capacity
local at = tonumber(b[2]) or now
tokens = math.min(capacity, tokens + (now - at) * capacity / 60000)
local allowed = 0
if tokens >= 1 then tokens = tokens - 1; allowed = 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], 120000)
return {allowed, tostring(tokens), tostring(now)}
`;

type WithTake = Redis & { lpTakeToken(key: string, capacity: number): Promise<[number, string, string]> };

export class RedisBucketStore implements BucketStore {
  private redis: WithTake;
  constructor(redis: Redis, private prefix = "rl:") {
    // A defined command runs by EVALSHA (the script's text is sent once, not on every request).
    if (!("lpTakeToken" in redis)) redis.defineCommand("lpTakeToken", { numberOfKeys: 1, lua: TAKE_SCRIPT });
    this.redis = redis as WithTake;
  }

  async take(key: string, capacity: number): Promise<Verdict> {
    const [allowed, tokens, now] = await this.redis.lpTakeToken(this.prefix + key, capacity);
    return verdict(Number(tokens), capacity, Number(now), allowed === 1);
  }
}

class FailOpenStore implements BucketStore {
  private lastWarn = 0;
  constructor(private inner: BucketStore) {}
  async take(key: string, capacity: number): Promise<Verdict> {
    try {
      return await this.inner.take(key, capacity);
    } catch (err) {
      if (Date.now() - this.lastWarn > 10_000) {
        this.lastWarn = Date.now();
        log.warn({ err: (err as Error).message }, "rate-limit store unavailable; allowing requests");
      }
      return verdict(capacity, capacity, Date.now(), true);
    }
  }
}

export function rateLimitStore(): BucketStore {
  return singleton("rate-limit-store", () => {
    const url = config().REDIS_URL;
    if (!url) return new MemoryBucketStore();
    // Commands wait for the connection while it is being (re)established, but never longer than
    // commandTimeout: a request must not hang on the limiter.
    // Auto-pipelining: the takes of concurrent requests leave in one write (one round trip and
    // one syscall for all of them) instead of one each.
    const redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: true, connectTimeout: 2_000, commandTimeout: 500, enableAutoPipelining: true });
    redis.on("error", () => {}); // surfaced per request by FailOpenStore
    onShutdown("redis rate limits", CLOSE_ORDER.clients, () => redis.quit());
    return new FailOpenStore(new RedisBucketStore(redis));
  });
}

export function capacityFor(tier: MerchantTier | null): number {
  const base = tier ? TIER_LIMITS_PER_MINUTE[tier] : ANONYMOUS_LIMIT_PER_MINUTE;
  return Math.max(1, Math.round(base * config().RATE_LIMIT_SCALE));
}

export function rateLimitHeaders(v: Verdict): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(v.limit),
    "X-RateLimit-Remaining": String(v.remaining),
    "X-RateLimit-Reset": String(v.resetAt),
    ...(v.allowed ? {} : { "Retry-After": String(v.retryAfter) }),
  };
}
