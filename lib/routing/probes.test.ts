// A fallen provider's scheduled probe, through the routing stats of one process (lib/routing/
// stats.ts) on the real Redis store: one probe in flight at a time, however long its answer
// takes. Buckets of 10 ms make "longer than a few buckets" a matter of milliseconds.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import Redis from "ioredis";

process.env.ROUTING_BUCKET_MS = "10";
process.env.ROUTING_PROBE_INTERVAL_MS = "2000";
process.env.ROUTING_PROBE_MAX_INTERVAL_MS = "8000";

const prefix = `routing-probes-test:${process.pid}:${randomUUID()}:`;
const redis = new Redis(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379", { maxRetriesPerRequest: 1 });
after(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

/** Waits (with a deadline) until `ms` have passed: the gate under test is measured in time. */
async function elapse(ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) await new Promise((r) => setImmediate(r));
}

test("a fallen provider gets one probe at a time: the next waits for the first one's answer, not a fixed few buckets", async () => {
  const { RedisRoutingStore } = await import("./store.ts");
  const stats = await import("./stats.ts");
  (globalThis as Record<symbol, unknown>)[Symbol.for("latam-payments.routing-store")] = new RedisRoutingStore(redis, () => ({ windowMs: 600_000, bucketMs: 10 }), prefix, false);
  await stats.refreshRoutingStats();
  const o = { provider: "pagosur", rail: "1003", band: "lt50", latencyMs: 3 } as const;
  const t0 = Date.now() - 60_000;
  // A long good history (one answer per bucket), then it falls: refusals only, long enough ago
  // that its first probe is due now.
  for (let k = 0; k < 60; k++) stats.recordOutcome({ ...o, outcome: k % 10 ? "approved" : "hard", declineCode: k % 10 ? null : "do_not_honor", at: new Date(t0 + k * 500) });
  for (let k = 0; k < 5; k++) stats.recordOutcome({ ...o, outcome: "hard", declineCode: "do_not_honor", at: new Date(t0 + 40_000 + k * 500) });
  const view = () => stats.routingSnapshot().then((s) => s.fallen("pagosur", "1003", "lt50"));
  assert.equal(await view(), "due", "fallen, and its first probe is due");
  // The probe is in flight (no answer yet): no second one, even well past a few buckets.
  assert.equal(await view(), "fallen");
  await elapse(50);
  assert.equal(await view(), "fallen", "still one probe in flight after five buckets");
  // Its answer comes: an approval, so the next probe is due at once (a recovery is confirmed quickly).
  stats.recordOutcome({ ...o, outcome: "approved", declineCode: null });
  assert.equal(await view(), "due");
  // That one is refused: the schedule waits again (interval doubled by each refusal since the fall).
  stats.recordOutcome({ ...o, outcome: "hard", declineCode: "do_not_honor" });
  assert.equal(await view(), "fallen");
});
