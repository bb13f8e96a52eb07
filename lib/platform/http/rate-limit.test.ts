import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import Redis from "ioredis";
import { MemoryBucketStore, RedisBucketStore, rateLimitHeaders, type BucketStore, type Verdict } from "@/lib/platform/http/rate-limit";

/** A clock the test moves by hand. */
function fakeClock(start = 1_700_000_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

/** Takes until the first denial (or `max` takes) and returns how many were allowed plus the denial. */
async function drain(store: BucketStore, key: string, capacity: number, max = capacity * 3) {
  let allowed = 0;
  for (let i = 0; i < max; i++) {
    const v = await store.take(key, capacity);
    if (!v.allowed) return { allowed, denied: v };
    allowed++;
  }
  return { allowed, denied: undefined };
}

describe("MemoryBucketStore", () => {
  test("capacity N allows exactly N takes, then denies", async () => {
    const clock = fakeClock();
    const store = new MemoryBucketStore(clock.now);
    for (let i = 1; i <= 5; i++) {
      const v = await store.take("k", 5);
      assert.equal(v.allowed, true, `take ${i}`);
      assert.equal(v.limit, 5);
      assert.equal(v.remaining, 5 - i);
      assert.equal(v.retryAfter, 0);
    }
    const denied = await store.take("k", 5);
    assert.equal(denied.allowed, false);
    assert.equal(denied.remaining, 0);
    assert.ok(denied.retryAfter >= 1);
    // Denials keep denying while the clock stands still.
    assert.equal((await store.take("k", 5)).allowed, false);
  });

  test("capacity 100 allows exactly 100 in a burst", async () => {
    const store = new MemoryBucketStore(fakeClock().now);
    const { allowed, denied } = await drain(store, "k", 100);
    assert.equal(allowed, 100);
    assert.ok(denied);
    assert.equal(denied.remaining, 0);
    assert.ok(denied.retryAfter >= 1);
  });

  test("Retry-After is honest: waiting it out allows the next take, less does not", async () => {
    const clock = fakeClock();
    const store = new MemoryBucketStore(clock.now);
    await drain(store, "k", 5);
    const denied = await store.take("k", 5);
    assert.equal(denied.retryAfter, 12); // 5 per minute: one token every 12 s
    clock.advance(denied.retryAfter * 1000 - 1000);
    assert.equal((await store.take("k", 5)).allowed, false);
    clock.advance(1000);
    assert.equal((await store.take("k", 5)).allowed, true);
  });

  test("refills proportionally over 60 s: after 30 s, capacity 100 allows about 50", async () => {
    const clock = fakeClock();
    const store = new MemoryBucketStore(clock.now);
    assert.equal((await drain(store, "k", 100)).allowed, 100);
    clock.advance(30_000);
    const { allowed } = await drain(store, "k", 100);
    assert.ok(allowed >= 49 && allowed <= 51, `allowed ${allowed} after 30 s`);
  });

  test("refill never exceeds capacity", async () => {
    const clock = fakeClock();
    const store = new MemoryBucketStore(clock.now);
    await store.take("k", 10);
    clock.advance(10 * 60_000);
    const { allowed } = await drain(store, "k", 10);
    assert.equal(allowed, 10);
  });

  test("a full minute refills an empty bucket completely", async () => {
    const clock = fakeClock();
    const store = new MemoryBucketStore(clock.now);
    await drain(store, "k", 20);
    clock.advance(60_000);
    assert.equal((await drain(store, "k", 20)).allowed, 20);
  });

  test("separate keys are independent", async () => {
    const store = new MemoryBucketStore(fakeClock().now);
    assert.equal((await drain(store, "merchant-a", 3)).allowed, 3);
    const b = await store.take("merchant-b", 3);
    assert.equal(b.allowed, true);
    assert.equal(b.remaining, 2);
    assert.equal((await store.take("merchant-a", 3)).allowed, false);
  });

  test("resetAt is when the bucket is full again, in epoch seconds", async () => {
    const clock = fakeClock(1_700_000_000_000);
    const store = new MemoryBucketStore(clock.now);
    const first = await store.take("k", 60); // one token used; one token per second refills it
    assert.equal(first.resetAt, 1_700_000_001);
    const { denied } = await drain(store, "k", 60);
    assert.ok(denied);
    assert.equal(denied.resetAt, 1_700_000_060);
  });
});

describe("rateLimitHeaders", () => {
  const base: Verdict = { allowed: true, limit: 100, remaining: 42, resetAt: 1_700_000_060, retryAfter: 0 };

  test("allowed: limit, remaining and reset, no Retry-After", () => {
    const h = rateLimitHeaders(base);
    assert.deepEqual(h, { "X-RateLimit-Limit": "100", "X-RateLimit-Remaining": "42", "X-RateLimit-Reset": "1700000060" });
    assert.equal("Retry-After" in h, false);
  });

  test("denied: adds Retry-After", () => {
    const h = rateLimitHeaders({ ...base, allowed: false, remaining: 0, retryAfter: 7 });
    assert.equal(h["Retry-After"], "7");
    assert.equal(h["X-RateLimit-Remaining"], "0");
  });

  test("works with a real verdict from the store", async () => {
    const store = new MemoryBucketStore(fakeClock().now);
    assert.equal("Retry-After" in rateLimitHeaders(await store.take("k", 1)), false);
    const denied = rateLimitHeaders(await store.take("k", 1));
    assert.equal(denied["Retry-After"], "60");
  });
});

describe("RedisBucketStore (real Redis)", () => {
  const url = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
  const prefix = `rl-test:${process.pid}:${randomUUID()}:`;
  // maxRetriesPerRequest: a missing Redis fails the test instead of hanging it.
  const clients: Redis[] = [];
  const connect = () => {
    const r = new Redis(url, { maxRetriesPerRequest: 1 });
    clients.push(r);
    return r;
  };

  after(async () => {
    const r = clients[0];
    if (r) {
      const keys = await r.keys(`${prefix}*`);
      if (keys.length > 0) await r.del(...keys);
    }
    await Promise.all(clients.map((c) => c.quit()));
  });

  test("capacity 5: 5 allowed, then denied", async () => {
    const store = new RedisBucketStore(connect(), prefix);
    for (let i = 1; i <= 5; i++) {
      const v = await store.take("solo", 5);
      assert.equal(v.allowed, true, `take ${i}`);
      assert.equal(v.limit, 5);
      assert.equal(v.remaining, 5 - i);
    }
    const denied = await store.take("solo", 5);
    assert.equal(denied.allowed, false);
    assert.equal(denied.remaining, 0);
    assert.ok(denied.retryAfter >= 1);
    assert.ok(denied.retryAfter <= 12);
    assert.equal(rateLimitHeaders(denied)["Retry-After"], String(denied.retryAfter));
  });

  test("the bucket lives under the given prefix and expires", async () => {
    const redis = connect();
    await new RedisBucketStore(redis, prefix).take("ttl", 5);
    const ttl = await redis.pttl(`${prefix}ttl`);
    assert.ok(ttl > 0 && ttl <= 120_000, `pttl ${ttl}`);
  });

  test("two instances sharing a prefix share the bucket", async () => {
    const a = new RedisBucketStore(connect(), prefix);
    const b = new RedisBucketStore(connect(), prefix);
    const verdicts: boolean[] = [];
    for (let i = 0; i < 6; i++) verdicts.push((await (i % 2 === 0 ? a : b).take("shared", 5)).allowed);
    assert.deepEqual(verdicts, [true, true, true, true, true, false]);
    assert.equal((await a.take("shared", 5)).allowed, false);
    assert.equal((await b.take("shared", 5)).allowed, false);
  });

  test("concurrent takes from two instances never exceed capacity", async () => {
    const a = new RedisBucketStore(connect(), prefix);
    const b = new RedisBucketStore(connect(), prefix);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).take("race", 5)));
    assert.equal(results.filter((v) => v.allowed).length, 5);
  });

  test("different prefixes do not share buckets", async () => {
    const redis = connect();
    const a = new RedisBucketStore(redis, prefix + "a:");
    const b = new RedisBucketStore(redis, prefix + "b:");
    for (let i = 0; i < 5; i++) await a.take("k", 5);
    assert.equal((await a.take("k", 5)).allowed, false);
    assert.equal((await b.take("k", 5)).allowed, true);
  });
});
