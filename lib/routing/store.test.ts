// The routing window in Redis (lib/routing/store.ts) against the real local Redis: what one
// instance records, another instance (its own connection, its own store object) reads — the
// state every server shares when REDIS_URL is configured. The PostgreSQL store is covered over
// HTTP by e2e/api/routing-rules.test.ts (two servers, one database).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import Redis from "ioredis";
import { RedisRoutingStore } from "./store.ts";

const url = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const prefix = `routing-test:${process.pid}:${randomUUID()}:`;
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
    if (keys.length) await r.del(...keys);
  }
  await Promise.all(clients.map((c) => c.quit()));
});

const spec = () => ({ windowMs: 60_000, bucketMs: 1_000 });

test("two instances share the routing window through Redis: buckets, evidence and the circuit's last error/answer", async () => {
  const a = new RedisRoutingStore(connect(), spec, prefix, false);
  const b = new RedisRoutingStore(connect(), spec, prefix, false);
  const now = Date.now();
  const at = (ms: number) => new Date(now - ms);
  const o = { rail: "1003", band: "lt50", latencyMs: 3 };
  // Instance A records; B records one more for the same provider.
  await a.record([
    { ...o, provider: "pagosur", outcome: "approved", declineCode: null, at: at(3_000) },
    { ...o, provider: "pagosur", outcome: "hard", declineCode: "do_not_honor", at: at(2_500) },
    { ...o, provider: "pagosur", outcome: "hard", declineCode: "insufficient_funds", at: at(2_400) },
    { ...o, provider: "andespay", outcome: "error", declineCode: "provider_unavailable", at: at(1_000) },
  ]);
  await b.record([{ ...o, provider: "pagosur", outcome: "approved", declineCode: null, at: at(2_900) }]);
  for (const store of [a, b]) {
    const w = await store.read(now);
    const pagosur = w.buckets.get("pagosur|1003|lt50")!;
    const sum = pagosur.reduce((s, x) => ({ approved: s.approved + x.approved, declined: s.declined + x.declined, errors: s.errors + x.errors }), { approved: 0, declined: 0, errors: 0 });
    assert.deepEqual(sum, { approved: 2, declined: 1, errors: 0 }, "both instances' outcomes; the buyer's decline is no evidence");
    assert.equal(w.buckets.get("andespay|1003|lt50")![0]!.errors, 1);
    assert.deepEqual(w.last.get("andespay|1003"), { lastErrorAt: now - 1_000, lastAnswerAt: null });
    assert.equal(w.last.get("pagosur|1003")!.lastAnswerAt, now - 2_400, "the latest answer, whichever instance recorded it");
  }
  // Outcomes older than the window are dropped on read.
  await a.record([{ ...o, provider: "rapidpay", outcome: "approved", declineCode: null, at: at(120_000) }]);
  const w = await b.read(now);
  assert.equal(w.buckets.get("rapidpay|1003|lt50"), undefined);
});

test("a refresh never hides this instance's own outcomes: recorded while the shared window was being read, they are in the new snapshot", async () => {
  const stats = await import("./stats.ts");
  // The real store, with a read that answers only when the test says (what it read is already
  // fixed then): the outcomes below are recorded while the read is in flight.
  const real = new RedisRoutingStore(connect(), spec, `${prefix}refresh:`, false);
  let release!: () => void;
  let reading!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const started = new Promise<void>((r) => (reading = r));
  let gated = false;
  const store = {
    record: (batch: Parameters<typeof real.record>[0]) => real.record(batch),
    read: async (now: number) => {
      const data = await real.read(now);
      if (gated) (reading(), await gate);
      return data;
    },
  };
  (globalThis as Record<symbol, unknown>)[Symbol.for("latam-payments.routing-store")] = store;
  const o = { rail: "1003", band: "lt50", latencyMs: 3 };
  stats.recordOutcome({ ...o, provider: "pagosur", outcome: "approved", declineCode: null });
  await stats.refreshRoutingStats();
  const before = (await stats.routingSnapshot()).score("pagosur", "1003", "lt50");
  assert.equal(Math.round(before.approved), 1);

  gated = true;
  const refresh = stats.refreshRoutingStats();
  await started;
  for (let k = 0; k < 3; k++) stats.recordOutcome({ ...o, provider: "pagosur", outcome: "hard", declineCode: "do_not_honor" });
  release();
  await refresh;
  gated = false;
  const after = (await stats.routingSnapshot()).score("pagosur", "1003", "lt50");
  assert.deepEqual([Math.round(after.approved), Math.round(after.failed)], [1, 3], "the three refusals recorded during the read count at once");
  // And they reach the shared window (written once the read is done), exactly once.
  await stats.refreshRoutingStats();
  const shared = await real.read(Date.now());
  const sum = shared.buckets.get("pagosur|1003|lt50")!.reduce((s, b) => ({ a: s.a + b.approved, d: s.d + b.declined }), { a: 0, d: 0 });
  assert.deepEqual(sum, { a: 1, d: 3 });
});

test("outcomes still being written when the process stops are in the shared window once its shutdown is done", async () => {
  const stats = await import("./stats.ts");
  const { shutdownResources } = await import("../platform/lifecycle.ts");
  const real = new RedisRoutingStore(connect(), spec, `${prefix}shutdown:`, false);
  // A store that takes its time to write (a loaded Redis): the stop must wait for it.
  const store = { read: (now: number) => real.read(now), record: async (batch: Parameters<typeof real.record>[0]) => (await new Promise((r) => setTimeout(r, 100)), real.record(batch)) };
  (globalThis as Record<symbol, unknown>)[Symbol.for("latam-payments.routing-store")] = store;
  stats.recordOutcome({ provider: "rapidpay", rail: "1003", band: "lt50", latencyMs: 3, outcome: "approved", declineCode: null });
  assert.deepEqual(await shutdownResources(5_000), [], "every step finished in time");
  const w = await real.read(Date.now());
  assert.equal(w.buckets.get("rapidpay|1003|lt50")?.[0]?.approved, 1);
});
