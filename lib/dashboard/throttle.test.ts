import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import Redis from "ioredis";
import { MAX_PER_EMAIL, MAX_PER_IP, MemoryCounter, RedisCounter, WINDOW_MS, signInThrottle, type Counter } from "@/lib/dashboard/throttle";

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

describe("sign-in throttle", () => {
  for (const [name, store] of stores()) {
    test(`${name}: ${MAX_PER_EMAIL} failures throttle the email; other emails and a success reset behave`, async () => {
      const t = signInThrottle(store);
      for (let i = 0; i < MAX_PER_EMAIL - 1; i++) await t.recordFailure("A@x.test", "1.1.1.1");
      assert.equal(await t.isThrottled("a@x.test", "2.2.2.2"), false);
      await t.recordSuccess("a@x.test");
      await t.recordFailure("a@x.test", "1.1.1.1");
      assert.equal(await t.isThrottled("a@x.test", "2.2.2.2"), false, "a success cleared the earlier failures");
      for (let i = 0; i < MAX_PER_EMAIL - 1; i++) await t.recordFailure("a@x.test", "1.1.1.1");
      assert.equal(await t.isThrottled("a@x.test", "2.2.2.2"), true);
      assert.equal(await t.isThrottled("b@x.test", "2.2.2.2"), false);
    });

    test(`${name}: ${MAX_PER_IP} failures from one address throttle every email from it`, async () => {
      const t = signInThrottle(store);
      for (let i = 0; i < MAX_PER_IP; i++) await t.recordFailure(`u${i}@x.test`, "9.9.9.9");
      assert.equal(await t.isThrottled("fresh@x.test", "9.9.9.9"), true);
      assert.equal(await t.isThrottled("fresh@x.test", "8.8.8.8"), false);
    });
  }

  test("memory: the window ends", async () => {
    let now = 1_000_000;
    const memory = new MemoryCounter(() => now);
    const t = signInThrottle(() => memory);
    for (let i = 0; i < MAX_PER_EMAIL; i++) await t.recordFailure("c@x.test", "3.3.3.3");
    assert.equal(await t.isThrottled("c@x.test", "4.4.4.4"), true);
    now += WINDOW_MS + 1;
    assert.equal(await t.isThrottled("c@x.test", "4.4.4.4"), false);
  });
});
