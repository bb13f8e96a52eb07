import { test } from "node:test";
import assert from "node:assert/strict";
import { MemoryFailureCounter } from "./failed-auth.ts";

test("failures count per key in a one-minute window", async () => {
  let now = 1_000_000;
  const c = new MemoryFailureCounter(() => now);
  await c.incr("a");
  await c.incr("a");
  assert.equal((await c.get("a")).n, 2);
  assert.equal((await c.get("b")).n, 0);
  now += 60_001;
  assert.equal((await c.get("a")).n, 0);
});

test("a flood of addresses forgets the oldest, never everything", async () => {
  const c = new MemoryFailureCounter(Date.now, 100);
  for (let i = 0; i < 5; i++) await c.incr("victim");
  for (let i = 0; i < 99; i++) await c.incr(`a${i}`);
  assert.equal((await c.get("victim")).n, 5);
  for (let i = 99; i < 300; i++) await c.incr(`a${i}`);
  assert.equal((await c.get("a299")).n, 1);
  assert.equal((await c.get("a250")).n, 1);
});

test("count before check: 300 lookups at once from one address get the allowance, not 300; found keys give their place back", async () => {
  const c = new MemoryFailureCounter();
  const limit = 30;
  process.env.AUTH_FAILURES_PER_MINUTE ??= String(limit);
  const { failedAuthGuard } = await import("./failed-auth.ts");
  const { AppError } = await import("@/lib/platform/errors");
  let lookups = 0;
  const attempt = async (address: string, found: boolean) => {
    const guard = failedAuthGuard(address, () => c, () => c);
    try {
      await guard.beforeLookup();
      lookups++;
      await new Promise((r) => setImmediate(r)); // the lookup takes a while: the rest of the burst arrives meanwhile
      const err = found ? null : new AppError("invalid_api_key", "no such key");
      await guard.record(err);
    } catch (err) {
      await guard.record(err);
    }
  };
  await Promise.all(Array.from({ length: 300 }, () => attempt("203.0.113.5", false)));
  assert.equal(lookups, limit);
  // Found keys from another address never use up its allowance.
  lookups = 0;
  for (let i = 0; i < 100; i++) await attempt("2001:db8:9:9::1", true);
  assert.equal(lookups, 100);
  assert.equal((await c.get("2001:db8:9:9::/64")).n, 0);
  // An IPv6 client's whole /64 shares one allowance.
  lookups = 0;
  await Promise.all(Array.from({ length: 100 }, (_, i) => attempt(`2001:db8:5:5::${(i + 1).toString(16)}`, false)));
  assert.equal(lookups, limit);
});
