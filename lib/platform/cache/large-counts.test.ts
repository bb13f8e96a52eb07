import { test, beforeEach, mock } from "node:test";
import assert from "node:assert/strict";
import { countOfList, forgetCounts, FRESH_MS, LARGE, STALE_MS } from "./large-counts.ts";

beforeEach(() => {
  forgetCounts();
  mock.timers.reset();
  mock.timers.enable({ apis: ["Date"], now: 1_000_000 });
});

/** A count whose answers are given one by one, counting its calls. */
function counter(...answers: number[]) {
  const c = { calls: 0, load: async () => answers[Math.min(c.calls++, answers.length - 1)]! };
  return c;
}

test("a small total is counted for every request", async () => {
  const c = counter(3, 4);
  assert.equal(await countOfList("k", c.load), 3);
  assert.equal(await countOfList("k", c.load), 4, "what the caller just wrote is in its total");
  assert.equal(c.calls, 2);
});

test("a large total is served as kept while fresh, then while one background count refreshes it", async () => {
  let finish!: (n: number) => void;
  let calls = 0;
  const load = () => (++calls === 1 ? Promise.resolve(LARGE + 5) : new Promise<number>((resolve) => (finish = resolve)));
  assert.equal(await countOfList("k", load), LARGE + 5);
  mock.timers.tick(FRESH_MS - 1);
  assert.equal(await countOfList("k", load), LARGE + 5);
  assert.equal(calls, 1, "fresh: no count");

  mock.timers.tick(2);
  assert.equal(await countOfList("k", load), LARGE + 5, "stale: served at once");
  assert.equal(await countOfList("k", load), LARGE + 5);
  assert.equal(calls, 2, "one refresh for any number of requests");
  finish(LARGE + 9);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(await countOfList("k", load), LARGE + 9, "the refreshed total");
  assert.equal(calls, 2);
});

test("a total older than STALE_MS is counted again before the answer", async () => {
  const c = counter(LARGE, 7);
  assert.equal(await countOfList("k", c.load), LARGE);
  mock.timers.tick(STALE_MS + 1);
  assert.equal(await countOfList("k", c.load), 7);
  assert.equal(await countOfList("k", c.load), 7, "shrunk below LARGE: counted every time again");
  assert.equal(c.calls, 3);
});

test("totals are kept per key; a failed refresh leaves the kept total and lets the next request try", async () => {
  const a = counter(LARGE * 2);
  const b = counter(LARGE * 3);
  assert.equal(await countOfList("a", a.load), LARGE * 2);
  assert.equal(await countOfList("b", b.load), LARGE * 3);
  mock.timers.tick(FRESH_MS + 1);
  let fails = 0;
  const failing = async () => {
    fails++;
    throw new Error("database gone");
  };
  assert.equal(await countOfList("a", failing), LARGE * 2);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(await countOfList("a", failing), LARGE * 2);
  assert.equal(fails, 2, "the failed refresh did not block the next");
  await assert.rejects(countOfList("new", failing), /database gone/, "nothing kept: the error is the caller's");
});
