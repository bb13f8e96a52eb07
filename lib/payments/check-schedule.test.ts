import { test } from "node:test";
import assert from "node:assert/strict";
import { checkFloorMs, firstCheckAt, nextCheckAt } from "@/lib/payments/check-schedule";

const MIN = 60_000;
const P = 5 * MIN;
const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);
const wait = (created: number, expires: number, now: number) => nextCheckAt({ createdAt: at(created), expiresAt: at(expires) }, at(now), P).getTime() - at(now).getTime();

test("fresh payments are asked often, old vouchers once per period, never less", () => {
  assert.equal(checkFloorMs(P), 30_000);
  assert.equal(firstCheckAt(at(0), P).getTime(), at(MIN).getTime());
  assert.equal(wait(0, 3 * 1440 * MIN, MIN), 30_000, "a minute old: the floor");
  assert.equal(wait(0, 3 * 1440 * MIN, 8 * MIN), 2 * MIN, "a quarter of its age");
  assert.equal(wait(0, 3 * 1440 * MIN, 2 * 1440 * MIN), P, "a two-day-old voucher: once per period");
  assert.equal(wait(0, 10 * 1440 * MIN, 9 * 1440 * MIN), P, "past its deadline too");
});

test("the deadline is asked right after it passes", () => {
  // 3 days old, expiring in 10 s: asked 10 s + the floor from now, not a period later.
  assert.equal(wait(0, 3 * 1440 * MIN, 3 * 1440 * MIN - 10_000), 40_000);
  // A 30-minute PIX charge near its end.
  assert.equal(wait(0, 30 * MIN, 29 * MIN), MIN + 30_000);
});

test("a short period (tests) keeps a 1 s floor", () => {
  assert.equal(checkFloorMs(1_000), 1_000);
  assert.equal(nextCheckAt({ createdAt: at(0), expiresAt: at(1440 * MIN) }, at(MIN), 1_000).getTime() - at(MIN).getTime(), 1_000);
});
