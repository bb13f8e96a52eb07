// Rate limits (decisions.md): token bucket per key, by tier; X-RateLimit-* on every answer;
// 429 rate_limited with Retry-After. In memory on the main server, and in Redis shared by two
// instances.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { api, assertEnvelope, extraServer, newMerchant } from "./helpers.ts";
import { db } from "@/lib/platform/db";

after(() => db().$disconnect());

/**
 * Sends `n` requests at once and checks the bucket: at most `capacity` plus what refilled while
 * they ran got through (tokens refill continuously at capacity/60 per second), the rest were 429.
 */
async function burst(n: number, capacity: number, send: (i: number) => ReturnType<typeof api>) {
  const started = Date.now();
  const results = await Promise.all(Array.from({ length: n }, (_, i) => send(i)));
  const refill = Math.ceil(((Date.now() - started) / 1000) * (capacity / 60)) + 1;
  const ok = results.filter((r) => r.status === 200).length;
  const limited = results.filter((r) => r.status === 429);
  assert.equal(ok + limited.length, n, "only 200s and 429s");
  assert.ok(ok >= capacity && ok <= capacity + refill, `${ok} passed; expected ${capacity}..${capacity + refill}`);
  assert.ok(limited.length > 0, "the excess was refused");
  for (const r of limited) {
    assertEnvelope(r, "rate_limited", 429);
    assert.ok(Number(r.headers.get("retry-after")) >= 1);
    assert.equal(r.headers.get("x-ratelimit-remaining"), "0");
  }
}

test("memory store: a starter key gets 100 requests a minute, then 429 with Retry-After", async () => {
  const m = await newMerchant({ tier: "starter" });
  const first = await api("/ping", { key: m.sandbox.secretKey });
  assert.equal(first.headers.get("x-ratelimit-limit"), "100");
  assert.equal(first.headers.get("x-ratelimit-remaining"), "99");
  assert.ok(Number(first.headers.get("x-ratelimit-reset")) >= Math.floor(Date.now() / 1000));
  await burst(130, 99, () => api("/ping", { key: m.sandbox.secretKey }));
  // Another merchant's key has its own bucket.
  const other = await newMerchant({ tier: "starter" });
  assert.equal((await api("/ping", { key: other.sandbox.secretKey })).status, 200);
});

test("tiers: standard 500 and premium 2,000 per minute", async () => {
  const s = await newMerchant({ tier: "standard" });
  const p = await newMerchant({ tier: "premium" });
  assert.equal((await api("/ping", { key: s.sandbox.secretKey })).headers.get("x-ratelimit-limit"), "500");
  assert.equal((await api("/ping", { key: p.sandbox.secretKey })).headers.get("x-ratelimit-limit"), "2000");
});

test("Redis store: two instances share one bucket per key", async () => {
  const env = { ...(process.env as Record<string, string>), REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379" };
  const [a, b] = await Promise.all([extraServer(env), extraServer(env)]);
  try {
    const m = await newMerchant({ tier: "starter" });
    // Half the requests to each instance: with per-process buckets all 160 would pass.
    await burst(160, 100, (i) => api("/ping", { key: m.sandbox.secretKey, base: (i % 2 ? a : b).url }));
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
});
