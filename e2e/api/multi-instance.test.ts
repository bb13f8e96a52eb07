// Two instances of two worker processes each on one PostgreSQL and one Redis (besides the suite's
// own server): 2,000 due webhook deliveries reach the receiver exactly once each, 500 due
// scheduled actions complete their payments exactly once each, and one premium key's rate limit
// holds across all four processes.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { spawn, type ChildProcess } from "node:child_process";
import { api, newMerchant, waitFor } from "./helpers.ts";
import { db, sql } from "@/lib/platform/db";
import { newId } from "@/lib/platform/ids";
import { freePort } from "../../scripts/lib/embedded-db.ts";
import { serveArgs } from "../../scripts/lib/server.ts";

const root = path.resolve(import.meta.dirname, "../..");
const instances: { child: ChildProcess; port: number; output: () => string }[] = [];
const seen = new Map<string, number>();
let receiver: http.Server;
let hookUrl = "";

before(async () => {
  receiver = http.createServer((req, res) => {
    const id = String(req.headers["x-service-delivery"]);
    seen.set(id, (seen.get(id) ?? 0) + 1);
    req.resume();
    req.on("end", () => res.end("ok"));
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    const child = spawn(process.execPath, serveArgs(), {
      cwd: root,
      env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", WEB_CONCURRENCY: "2", REDIS_URL: process.env.TEST_REDIS_URL!, RATE_LIMIT_SCALE: "0.02", DATABASE_POOL_SIZE: "5" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout!.on("data", (d) => (out += d));
    child.stderr!.on("data", (d) => (out += d));
    instances.push({ child, port, output: () => out });
  }
  for (const s of instances) await waitFor(async () => (await fetch(`http://127.0.0.1:${s.port}/readyz`).catch(() => null))?.status === 200, `instance ${s.port} ready`, 90_000);
});

after(async () => {
  for (const s of instances) s.child.kill("SIGTERM");
  await Promise.all(instances.map((s) => new Promise((r) => (s.child.exitCode !== null ? r(null) : s.child.once("exit", r)))));
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
  await db().$disconnect();
});

test("2,000 due webhook deliveries are delivered exactly once each across every process", { timeout: 180_000 }, async () => {
  const m = await newMerchant();
  const sub = await api("/webhooks", { key: m.sandbox.secretKey, body: { url: hookUrl, events: ["payment.completed"] } });
  assert.equal(sub.status, 200, sub.text);
  const eventId = newId("event");
  await db().event.create({ data: { id: eventId, merchantId: m.merchantId, environment: "sandbox", type: "payment.completed", payload: { id: eventId, type: "payment.completed", data: { object: {} } }, fannedOutAt: new Date() } });
  // 2,000 due deliveries (one per event, as a busy merchant's backlog would be).
  await sql(
    `WITH ev AS (
       INSERT INTO events (id, merchant_id, environment, type, payload, fanned_out_at, created_at)
       SELECT 'evt_mi' || g, $1, 'sandbox', 'payment.completed', jsonb_build_object('id', 'evt_mi' || g, 'type', 'payment.completed', 'data', jsonb_build_object('object', '{}'::jsonb)), now(), now()
       FROM generate_series(1, 2000) g RETURNING id)
     INSERT INTO webhook_deliveries (id, subscription_id, event_id, event, status, attempts, next_attempt_at, created_at, updated_at)
     SELECT 'dlv_mi' || substr(id, 7), $2, id, 'payment.completed', 'pending', 0, now(), now(), now() FROM ev`,
    [m.merchantId, sub.body.id],
  );
  await waitFor(async () => (await db().webhookDelivery.count({ where: { subscriptionId: sub.body.id, status: "succeeded" } })) === 2000, "all 2,000 delivered", 150_000);
  const mine = [...seen.entries()].filter(([id]) => id.startsWith("dlv_mi"));
  assert.equal(mine.length, 2000);
  assert.deepEqual(mine.filter(([, n]) => n !== 1), [], "none twice");
});

test("500 due scheduled actions complete their payments exactly once each", { timeout: 180_000 }, async () => {
  const m = await newMerchant({ tier: "premium" });
  const ids: string[] = [];
  for (let i = 0; i < 20; i++) {
    const batch = await Promise.all(Array.from({ length: 25 }, () => api("/payments", { key: m.sandbox.secretKey, body: { amount: 3, paymentMethodId: "sbx_card" } })));
    for (const r of batch) ids.push(r.body.transactionId);
  }
  assert.equal(new Set(ids).size, 500);
  await db().scheduledAction.createMany({ data: ids.map((id) => ({ id: newId("scheduledAction"), kind: "payment_simulation", transactionId: id, action: "paid", dueAt: new Date() })) });
  await waitFor(async () => (await db().transaction.count({ where: { id: { in: ids }, status: "completed" } })) === 500, "all 500 completed", 150_000);
  const postings = await db().ledgerPosting.groupBy({ by: ["transactionId"], where: { transactionId: { in: ids }, kind: "payment_completed" }, _count: true });
  assert.equal(postings.length, 500);
  assert.deepEqual(postings.filter((p) => p._count !== 1), [], "one completion posting each");
  const events = await sql<{ id: string; n: string }>(
    `SELECT payload->'data'->'object'->>'id' AS id, count(*)::text AS n FROM events WHERE type = 'payment.completed' AND payload->'data'->'object'->>'id' = ANY($1) GROUP BY 1`,
    [ids],
  );
  assert.equal(events.length, 500);
  assert.deepEqual(events.filter((e) => e.n !== "1"), [], "one payment.completed each");
});

test("a premium key's rate limit holds across the four processes", async () => {
  const m = await newMerchant({ tier: "premium" });
  // RATE_LIMIT_SCALE 0.02: the premium 2,000 per minute becomes 40, shared through Redis.
  const results: number[] = [];
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: 100 }, (_, i) =>
      fetch(`http://127.0.0.1:${instances[i % 2]!.port}/api/v1/me`, { headers: { authorization: `Bearer ${m.sandbox.secretKey}` } }).then((r) => results.push(r.status)),
    ),
  );
  const allowed = results.filter((s) => s === 200).length;
  // The bucket refills 40 a minute while the requests are under way (seconds on a loaded machine).
  const refill = Math.ceil(((Date.now() - t0) / 60_000) * 40);
  assert.ok(allowed >= 40 && allowed <= 41 + refill, `${allowed} allowed of 100 (limit 40 per minute across all processes, +${refill} refilled)`);
  assert.equal(results.filter((s) => s === 429).length, 100 - allowed);
});
