import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import Redis from "ioredis";
import { MAX_PER_EMAIL, MAX_PER_IP, MemoryCounter, RedisCounter, WINDOW_MS, signInThrottle, type Counter } from "@/lib/accounts/throttle";

const redis = new Redis(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379", { lazyConnect: true, maxRetriesPerRequest: 1 });
after(() => redis.disconnect());

function stores(): Array<[string, () => Counter]> {
  const memory = new MemoryCounter();
  const red = new RedisCounter(redis, `test:${randomUUID()}:`);
  return [
    ["memory", () => memory],
    ["redis", () => red],
  ];
}

/** `n` failed attempts (counted, never refunded). */
async function fail(t: ReturnType<typeof signInThrottle>, n: number, email: (i: number) => string, ip: string) {
  for (let i = 0; i < n; i++) await t.attempt(email(i), ip);
}

describe("sign-in throttle", () => {
  for (const [name, store] of stores()) {
    test(`${name}: ${MAX_PER_EMAIL} failures throttle the email; other emails and a success reset behave`, async () => {
      const t = signInThrottle(store);
      await fail(t, MAX_PER_EMAIL - 1, () => "A@x.test", "1.1.1.1");
      assert.equal(await t.attempt("a@x.test", "2.2.2.2"), false);
      await t.recordSuccess("a@x.test", "2.2.2.2");
      await fail(t, 1, () => "a@x.test", "1.1.1.1");
      await fail(t, MAX_PER_EMAIL - 1, () => "a@x.test", "1.1.1.1");
      assert.equal(await t.attempt("a@x.test", "2.2.2.2"), true, "a success cleared only the failures before it");
      assert.equal(await t.attempt("b@x.test", "2.2.2.2"), false);
    });

    test(`${name}: ${MAX_PER_IP} failures from one address throttle every email from it; an IPv6 client counts by its /64`, async () => {
      const t = signInThrottle(store);
      await fail(t, MAX_PER_IP, (i) => `u${i}@x.test`, "9.9.9.9");
      assert.equal(await t.attempt("fresh@x.test", "9.9.9.9"), true);
      assert.equal(await t.attempt("fresh@x.test", "8.8.8.8"), false);
      const net = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:7`;
      await fail(t, MAX_PER_IP, (i) => `v${i}@x.test`, `${net}::${(1).toString(16)}`);
      assert.equal(await t.attempt("fresh6@x.test", `${net}:dead:beef:1:2`), true, "another address of the same /64");
      assert.equal(await t.attempt("fresh6@x.test", "2001:db8:ffff:8::1"), false);
    });

    test(`${name}: a burst of 500 attempts at once gets ${MAX_PER_EMAIL} past the email check, not 500`, async () => {
      const t = signInThrottle(store, () => 1_000);
      const verdicts = await Promise.all(Array.from({ length: 500 }, (_, i) => t.attempt("burst@x.test", `10.0.${i >> 8}.${i & 255}`)));
      assert.equal(verdicts.filter((throttled) => !throttled).length, MAX_PER_EMAIL);
    });

    test(`${name}: a right password gives its attempt back (a busy office is not throttled by its own sign-ins)`, async () => {
      const t = signInThrottle(store);
      for (let i = 0; i < MAX_PER_IP * 2; i++) {
        assert.equal(await t.attempt(`ok${i}@x.test`, "7.7.7.7"), false);
        await t.recordSuccess(`ok${i}@x.test`, "7.7.7.7");
      }
      assert.equal(await t.attempt("code@x.test", "7.7.7.7"), false);
      await t.refund("code@x.test", "7.7.7.7");
      assert.equal(await t.attempt("another@x.test", "7.7.7.7"), false);
    });
  }

  test("memory: the window ends", async () => {
    let now = 1_000_000;
    const memory = new MemoryCounter(() => now);
    const t = signInThrottle(() => memory);
    await fail(t, MAX_PER_EMAIL, () => "c@x.test", "3.3.3.3");
    assert.equal(await t.attempt("c@x.test", "4.4.4.4"), true);
    now += WINDOW_MS + 1;
    assert.equal(await t.attempt("c@x.test", "4.4.4.4"), false);
  });
});

test("in memory, a flood of new keys cannot reset a counter that is being counted", async () => {
  const memory = new MemoryCounter();
  for (let i = 0; i < 3; i++) await memory.incr("victim@example.com");
  for (let i = 0; i < 150_000; i++) {
    await memory.incr(`flood-${i}`);
    if (i % 50_000 === 0) await memory.incr("victim@example.com");
  }
  assert.equal(await memory.get("victim@example.com"), 6, "every failure still counted");
});
