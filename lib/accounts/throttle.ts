// Throttles failed sign-ins: at most MAX_PER_EMAIL failures per email and MAX_PER_IP per client
// address (an IPv6 client by its /64) in a WINDOW_MS fixed window; past that, sign-in is refused
// (even with the right password) until the window ends. Counters live in Redis when REDIS_URL is
// set (shared by every instance), else in this process; when Redis does not answer, this process
// counts on its own meanwhile (never uncounted).
//
// Count before check: every attempt first takes its place with one atomic increment (Redis INCR,
// one synchronous step in memory) and only then compares, so a burst of guesses sent at once
// cannot all read "under the limit" before any of them is counted. An attempt that turns out not
// to be a failure (the right password) gives its place back.
import Redis from "ioredis";
import { config } from "@/lib/platform/config";
import { log } from "@/lib/platform/log";
import { singleton } from "@/lib/platform/singleton";
import { CLOSE_ORDER, onShutdown } from "@/lib/platform/lifecycle";
import { addressKey } from "@/lib/platform/auth/address-key";
import { rememberBounded } from "@/lib/platform/bounded";

export const WINDOW_MS = 15 * 60_000;
export const MAX_PER_EMAIL = 5;
/** The default of SIGN_IN_FAILURES_PER_ADDRESS. */
export const MAX_PER_IP = 30;

export interface Counter {
  get(key: string): Promise<number>;
  /** One atomic step: the count after this increment. */
  incr(key: string): Promise<number>;
  /** Gives one back (never below zero). */
  decr(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

export class MemoryCounter implements Counter {
  constructor(private now: () => number = Date.now) {}
  private m = new Map<string, { n: number; until: number }>();
  private live(key: string) {
    const e = this.m.get(key);
    if (e && e.until > this.now()) return e;
    this.m.delete(key);
    return undefined;
  }
  async get(key: string) {
    return this.live(key)?.n ?? 0;
  }
  async incr(key: string) {
    const e = this.live(key) ?? { n: 0, until: this.now() + WINDOW_MS };
    e.n += 1;
    // Bounded, oldest first: a flood of new keys cannot empty every counter at once (a key being
    // counted is re-remembered as newest on each attempt).
    rememberBounded(this.m, key, e, 100_000);
    return e.n;
  }
  async decr(key: string) {
    const e = this.live(key);
    if (e && --e.n <= 0) this.m.delete(key);
  }
  async reset(key: string) {
    this.m.delete(key);
  }
}

/**
 * Redis, and when Redis does not answer (down, or slower than the command timeout under load),
 * this process' own counter: an unanswered INCR must not let an attempt through uncounted (a
 * burst that slowed the server used to time its own counters out and pass).
 */
export class RedisCounter implements Counter {
  private lastWarn = 0;
  constructor(private r: Redis, private prefix = "", private local: Counter = new MemoryCounter()) {}
  private guard<T>(p: Promise<T>, fallback: () => Promise<T>): Promise<T> {
    return p.catch((err) => {
      if (Date.now() - this.lastWarn > 10_000) {
        this.lastWarn = Date.now();
        log.warn({ err: (err as Error).message }, "sign-in throttle store unavailable; counting in this process");
      }
      return fallback();
    });
  }
  get(key: string) {
    return this.guard(this.r.get(this.prefix + key).then((v) => Number(v ?? 0)), () => this.local.get(key));
  }
  incr(key: string) {
    const k = this.prefix + key;
    return this.guard(
      this.r.multi().incr(k).pexpire(k, WINDOW_MS, "NX").exec().then((res) => {
        const n = res?.[0]?.[1];
        if (typeof n !== "number") throw new Error("INCR answered no count");
        return n;
      }),
      () => this.local.incr(key),
    );
  }
  async decr(key: string) {
    await this.guard(this.r.eval(DECR_FLOOR, 1, this.prefix + key).then(() => undefined), () => this.local.decr(key));
  }
  async reset(key: string) {
    await this.guard(this.r.del(this.prefix + key).then(() => undefined), () => this.local.reset(key));
  }
}

/** DECR that never leaves a count at or below zero (a reset may have come in between). */
const DECR_FLOOR = `local v = redis.call('DECR', KEYS[1]) if v <= 0 then redis.call('DEL', KEYS[1]) end return v`;

function counter(): Counter {
  return singleton("sign-in-throttle", () => {
    const url = config().REDIS_URL;
    if (!url) return new MemoryCounter();
    // A sign-in can wait for its count; a short timeout under load would only send it to the local count.
    const redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2_000, commandTimeout: 5_000 });
    redis.on("error", () => {});
    onShutdown("redis sign-in throttle", CLOSE_ORDER.clients, () => redis.quit());
    return new RedisCounter(redis);
  });
}

const keys = (email: string, ip: string) => ({ email: `signin:email:${email.trim().toLowerCase()}`, ip: `signin:ip:${addressKey(ip)}` });

/** The throttle over a given counter store (tests pass their own). */
export function signInThrottle(store: () => Counter = counter, maxPerIp: () => number = () => config().SIGN_IN_FAILURES_PER_ADDRESS) {
  return {
    /**
     * Counts this attempt against the email and the address, then compares: true when either is
     * now over its limit (the attempt must be refused before the password is even checked).
     */
    async attempt(email: string, ip: string): Promise<boolean> {
      const k = keys(email, ip);
      const [e, i] = await Promise.all([store().incr(k.email), store().incr(k.ip)]);
      return e > MAX_PER_EMAIL || i > maxPerIp();
    },
    /** The attempt was no failure (the right password, a code still to come): it stops counting. */
    async refund(email: string, ip: string): Promise<void> {
      const k = keys(email, ip);
      await Promise.all([store().decr(k.email), store().decr(k.ip)]);
    },
    /** A success clears the email's failures, and gives the address its attempt back. */
    async recordSuccess(email: string, ip: string): Promise<void> {
      const k = keys(email, ip);
      await Promise.all([store().reset(k.email), store().decr(k.ip)]);
    },
  };
}

export const { attempt: attemptSignIn, refund: refundSignIn, recordSuccess } = signInThrottle();
