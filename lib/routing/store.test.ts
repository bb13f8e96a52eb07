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
