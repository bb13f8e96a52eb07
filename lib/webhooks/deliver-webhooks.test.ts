// The delivery pipeline against the test database and real HTTP receivers on loopback: the
// per-subscription cap, a known subscription's claim that no other backlog stands in front of,
// discovery of the others, exactly-once claims across two runners, a lease abandoned by a crash,
// keep-alive reuse (a reset pooled connection sent again on a fresh one), and a failed attempt's
// retry as before. No sleeps: conditions with deadlines.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { db, sql } from "@/lib/platform/db";
import { newId } from "@/lib/platform/ids";
import { seal } from "@/lib/platform/crypto/secret-box";
import { config } from "@/lib/platform/config";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { closeAgents } from "@/lib/webhooks/agents";
import { createDeliverer } from "@/lib/webhooks/delivery-pipeline";
import { claimDeliveries } from "@/lib/webhooks/claim-deliveries";
import { leaseMs, RETRY_SCHEDULE_SECONDS } from "@/lib/webhooks/delivery-schedule";

type Receiver = { url: string; ids: string[]; sockets: number; open: number; maxOpen: number; answered: number; release: () => void; close: () => Promise<void> };

/** A receiver answering 200 (or `status`), at once or, when `held`, only once released. */
async function receiver(opts: { held?: boolean; status?: number } = {}): Promise<Receiver> {
  let releaseAll: () => void = () => {};
  const released = opts.held ? new Promise<void>((r) => (releaseAll = r)) : Promise.resolve();
  const r: Receiver = { url: "", ids: [], sockets: 0, open: 0, maxOpen: 0, answered: 0, release: () => releaseAll(), close: async () => {} };
  const server = http.createServer((req, res) => {
    r.open++;
    r.maxOpen = Math.max(r.maxOpen, r.open);
    r.ids.push(String(req.headers["x-service-delivery"]));
    req.resume();
    req.on("end", () => void released.then(() => {
      r.open--;
      r.answered++;
      res.writeHead(opts.status ?? 200).end("ok");
    }));
  });
  server.on("connection", () => r.sockets++);
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", () => ok()));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  r.close = () => new Promise<void>((ok) => {
    server.closeAllConnections();
    server.close(() => ok());
  });
  return r;
}

const merchant = createMerchant({ name: "Webhook pipeline" });

/** A subscription to `url` with `n` due deliveries (events written as fan-out would have). */
async function subscriptionWith(url: string, n: number): Promise<string> {
  const m = await merchant;
  const id = newId("webhook");
  await db().webhookSubscription.create({ data: { id, merchantId: m.merchantId, environment: "sandbox", url, events: ["*"], secretEncrypted: seal("whsec_dGVzdC1zZWNyZXQtdGVzdC1zZWNyZXQ=") } });
  await sql(
    `WITH ev AS (
       INSERT INTO events (id, merchant_id, environment, type, payload, created_at, fanned_out_at)
       SELECT $2 || '_' || g, $3, 'sandbox', 'payment.completed', jsonb_build_object('id', $2 || '_' || g, 'type', 'payment.completed'), now(), now()
       FROM generate_series(1, $4::int) g RETURNING id)
     INSERT INTO webhook_deliveries (id, subscription_id, event_id, event, next_attempt_at, created_at, updated_at)
     SELECT 'dlv_' || ev.id, $1, ev.id, 'payment.completed', now(), now(), now() FROM ev`,
    [id, `evt_${id}`, m.merchantId, n],
  );
  return id;
}

async function counts(subscriptionId: string): Promise<Record<string, number>> {
  const rows = await sql<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE subscription_id = $1 GROUP BY status`, [subscriptionId]);
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

async function waitFor(what: string, cond: () => Promise<boolean> | boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

after(async () => {
  closeAgents();
  await db().$disconnect();
});

test("a receiver that holds its answers takes only its own slots: another subscription is delivered meanwhile", async () => {
  const slow = await receiver({ held: true });
  const fast = await receiver();
  try {
    const slowSub = await subscriptionWith(slow.url, 12);
    const fastSub = await subscriptionWith(fast.url, 60);
    // No ticker period to fall back on: the run must claim again as the fast answers come, not
    // wait for answers the held receiver is sitting on (it waited a whole tick for them before).
    const deliverer = createDeliverer({ concurrency: 16, perSubscription: 4, tickMs: 600_000 });
    const run = deliverer.run({ subscriptionIds: [slowSub, fastSub], limit: 10, fanOut: false, budgetMs: 600_000 });
    await waitFor("every fast delivery recorded", async () => (await counts(fastSub)).succeeded === 60);
    assert.equal(fast.ids.length, 60);
    assert.equal(slow.answered, 0, "the slow receiver has not answered anything yet");
    assert.equal(slow.maxOpen, 4, "it holds exactly its cap of requests, no more");
    assert.equal((await counts(slowSub)).pending, 12);
    slow.release();
    const r = await run;
    assert.equal(r.attempted, 72);
    assert.equal(r.succeeded, 72);
    assert.deepEqual(await counts(slowSub), { succeeded: 12 });
    assert.ok(slow.maxOpen <= 4);
  } finally {
    slow.release();
    await Promise.all([slow.close(), fast.close()]);
  }
});

test("two runners claiming in batches at once deliver every due delivery exactly once", async () => {
  const rcv = await receiver();
  try {
    const sub = await subscriptionWith(rcv.url, 400);
    const a = createDeliverer({ concurrency: 32, perSubscription: 16 });
    const b = createDeliverer({ concurrency: 32, perSubscription: 16 });
    const [ra, rb] = await Promise.all([a.run({ subscriptionIds: [sub], limit: 25, fanOut: false }), b.run({ subscriptionIds: [sub], limit: 25, fanOut: false })]);
    assert.equal(ra.attempted + rb.attempted, 400);
    assert.ok(ra.attempted > 0 && rb.attempted > 0, `both runners took a share (${ra.attempted}/${rb.attempted})`);
    assert.equal(rcv.ids.length, 400);
    assert.equal(new Set(rcv.ids).size, 400, "no delivery sent twice");
    assert.deepEqual(await counts(sub), { succeeded: 400 });
    const [row] = await sql<{ max: number }>(`SELECT max(attempts)::int AS max FROM webhook_deliveries WHERE subscription_id = $1`, [sub]);
    const max = row?.max;
    assert.equal(max, 1);
  } finally {
    await rcv.close();
  }
});

test("a lease abandoned by a crash holds until it expires, then the delivery is sent (at least once)", async () => {
  const rcv = await receiver();
  try {
    const sub = await subscriptionWith(rcv.url, 5);
    // A runner claimed them (its lease committed) and died before any outcome was written.
    await sql(`UPDATE webhook_deliveries SET locked_until = now() + make_interval(secs => $2::int / 1000.0) WHERE subscription_id = $1`, [sub, leaseMs()]);
    const d = createDeliverer();
    const held = await d.run({ subscriptionIds: [sub], fanOut: false });
    assert.equal(held.attempted, 0, "not while the lease holds");
    assert.equal(rcv.ids.length, 0);
    const later = await d.run({ subscriptionIds: [sub], fanOut: false, now: new Date(Date.now() + leaseMs() + 1_000) });
    assert.equal(later.attempted, 5);
    assert.equal(later.succeeded, 5);
    assert.equal(new Set(rcv.ids).size, 5);
    assert.deepEqual(await counts(sub), { succeeded: 5 });
  } finally {
    await rcv.close();
  }
});

test("keep-alive: many deliveries to one receiver reuse a few connections", async () => {
  const rcv = await receiver();
  try {
    const sub = await subscriptionWith(rcv.url, 300);
    const r = await createDeliverer({ concurrency: 64, perSubscription: 8 }).run({ subscriptionIds: [sub], limit: 50, fanOut: false });
    assert.equal(r.succeeded, 300);
    assert.equal(rcv.ids.length, 300);
    assert.ok(rcv.sockets <= 8, `${rcv.sockets} connections for 300 deliveries`);
    assert.ok(rcv.maxOpen <= 8);
  } finally {
    await rcv.close();
  }
});

test("a pooled connection the receiver reset is sent again at once on a fresh one, not recorded as a failed attempt", async () => {
  // The first connection answers its first request, then resets when reused (a receiver that closed
  // it while it sat idle in the pool: the keep-alive race); later connections answer.
  let connections = 0;
  let resets = 0;
  const answered: string[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const socket = req.socket as import("node:net").Socket & { served?: number };
      socket.served = (socket.served ?? 0) + 1;
      if (socket.served === 2 && resets === 0) {
        resets++;
        socket.resetAndDestroy();
        return;
      }
      answered.push(String(req.headers["x-service-delivery"]));
      res.writeHead(200).end("ok");
    });
  });
  server.on("connection", () => connections++);
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", () => ok()));
  try {
    const sub = await subscriptionWith(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, 2);
    const r = await createDeliverer({ concurrency: 1, perSubscription: 1 }).run({ subscriptionIds: [sub], limit: 1, fanOut: false });
    assert.deepEqual([r.attempted, r.succeeded], [2, 2]);
    assert.equal(resets, 1, "the reused connection was reset once");
    assert.equal(connections, 2, "the second request went out again on a fresh connection");
    assert.equal(new Set(answered).size, 2);
    const rows = await db().webhookDelivery.findMany({ where: { subscriptionId: sub } });
    assert.deepEqual(rows.map((d) => [d.status, d.attempts, d.responseStatus]), [["succeeded", 1, 200], ["succeeded", 1, 200]]);
  } finally {
    await new Promise<void>((ok) => {
      server.closeAllConnections();
      server.close(() => ok());
    });
  }
});

test("a failed attempt is recorded in the batch write and scheduled by the retry table", async () => {
  const rcv = await receiver({ status: 500 });
  try {
    const sub = await subscriptionWith(rcv.url, 3);
    const before = Date.now();
    const r = await createDeliverer().run({ subscriptionIds: [sub], fanOut: false });
    assert.deepEqual([r.attempted, r.succeeded], [3, 0]);
    const rows = await db().webhookDelivery.findMany({ where: { subscriptionId: sub } });
    const firstWait = RETRY_SCHEDULE_SECONDS[0]! * 1000 * config().WEBHOOK_RETRY_SCALE;
    for (const d of rows) {
      assert.equal(d.status, "pending");
      assert.equal(d.attempts, 1);
      assert.equal(d.responseStatus, 500);
      assert.equal(d.responseBody, "ok");
      assert.equal(d.lockedUntil, null);
      assert.ok(d.nextAttemptAt!.getTime() >= before + firstWait - 1_000 && d.nextAttemptAt!.getTime() <= Date.now() + firstWait + 1_000);
    }
    const s = await db().webhookSubscription.findUniqueOrThrow({ where: { id: sub } });
    assert.ok(s.failingSince, "the subscription's failure run started");
  } finally {
    await rcv.close();
  }
});

test("a known subscription is claimed from its own rows: an older backlog of another with one free slot does not fill the claim", async () => {
  // The backlog is written first, so every one of its rows is due before any of the other's.
  const backlog = await subscriptionWith("http://127.0.0.1:9/never", 300);
  const other = await subscriptionWith("http://127.0.0.1:9/never", 30);
  const known = new Map([[backlog, { held: 7, cap: 8 }], [other, { held: 0, cap: 8 }]]);
  const rows = await claimDeliveries(10, known, 8, false, { subscriptionIds: [backlog, other] });
  const bySub = (id: string) => rows.filter((r) => r.subscription_id === id).length;
  // One scan of every due row in next-attempt order (the claim before) read the backlog's rows
  // first: its one free slot took one, and the other subscription got none of this claim.
  assert.equal(bySub(backlog), 1, "the backlog takes only the room it has");
  assert.equal(bySub(other), 8, "the other takes its whole room in the same claim");
  const [leased] = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE subscription_id = ANY($1::text[]) AND locked_until > now()`, [[backlog, other]]);
  assert.equal(leased?.n, 9, "only the rows taken are leased");
});

test("a subscription this process does not know is claimed only by a discovering claim, up to the cap", async () => {
  const sub = await subscriptionWith("http://127.0.0.1:9/never", 20);
  assert.equal((await claimDeliveries(10, new Map(), 4, false, { subscriptionIds: [sub] })).length, 0);
  const found = await claimDeliveries(10, new Map(), 4, true, { subscriptionIds: [sub] });
  assert.equal(found.length, 4);
  assert.ok(found.every((r) => r.subscription_id === sub && r.body !== null && r.url.endsWith("/never")));
  // Known now, with room for 4 more: its own rows, no discovery needed.
  assert.equal((await claimDeliveries(10, new Map([[sub, { held: 4, cap: 8 }]]), 4, false, { subscriptionIds: [sub] })).length, 4);
});
