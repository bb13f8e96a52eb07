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
