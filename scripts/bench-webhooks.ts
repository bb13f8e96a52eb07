// Benchmark of webhook delivery through the server's own job ticker (production build), two
// scenarios in one run:
//   1. a fast receiver alone (keep-alive, answers 200 at once): deliveries/s from the moment the
//      events are written until the last delivery is recorded as succeeded;
//   2. the same, while another subscription with a backlog of its own has a receiver that answers
//      after 2 s and already holds every slot it may take: the fast one's deliveries/s and its
//      change against scenario 1 (the per-subscription cap keeps the slow one to its own slots).
// The load average is printed with each figure: the machine may be shared.
//   npm run bench:webhooks [-- --events 10000]
import { parseArgs } from "node:util";
import http from "node:http";
import os from "node:os";
import pg from "pg";
import { deployMigrations, parseDatabaseUrl } from "./lib/schema-engine.ts";
import { freePort } from "./lib/embedded-db.ts";
import { buildIfStale } from "./lib/build.ts";
import { startNext, waitForHttp } from "./lib/server.ts";

const { values } = parseArgs({ options: { events: { type: "string", default: "10000" } } });
const total = Number(values.events);
const adminUrl = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");

type Receiver = { url: string; received: number; sockets: number; close: () => void };

async function receiver(delayMs: number): Promise<Receiver> {
  const r: Receiver = { url: "", received: 0, sockets: 0, close: () => {} };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      r.received++;
      if (delayMs) setTimeout(() => res.writeHead(200).end("ok"), delayMs);
      else res.writeHead(200).end("ok");
    });
  });
  server.on("connection", () => r.sockets++);
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", () => ok()));
  r.url = `http://127.0.0.1:${(server.address() as import("node:net").AddressInfo).port}/hook`;
  r.close = () => {
    server.closeAllConnections();
    server.close();
  };
  return r;
}

async function main() {
  const name = `lp_bench_wh_${Date.now().toString(36)}`;
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const databaseUrl = u.toString();
  const admin = new pg.Client(parseDatabaseUrl(adminUrl));
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const fast = await receiver(0);
  const slow = await receiver(2_000);
  const port = await freePort();
  await deployMigrations(databaseUrl);
  buildIfStale();
  const server = startNext({ port, stdio: "ignore", env: { DATABASE_URL: databaseUrl, APP_URL: `http://127.0.0.1:${port}`, JOBS_TICK_MS: "50", LOG_LEVEL: "warn", APP_ENV: "test" } });
  const db = new pg.Client(parseDatabaseUrl(databaseUrl));
  try {
    await waitForHttp(`${server.url}/api/v1/ping`);
    process.env.DATABASE_URL = databaseUrl;
    const { createMerchant } = await import("../lib/merchants/create-merchant.ts");
    await db.connect();
    const subscribe = async (key: string, url: string) => {
      const res = await fetch(`${server.url}/api/v1/webhooks`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ url, events: ["*"] }) });
      if (res.status !== 200) throw new Error(`subscription: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { id: string }).id;
    };
    const insertEvents = (merchantId: string, prefix: string, n: number) =>
      db.query(
        `INSERT INTO events (id, merchant_id, environment, type, payload, created_at)
         SELECT $3 || g, $1, 'sandbox', 'payment.completed',
                jsonb_build_object('id', $3 || g, 'type', 'payment.completed', 'environment', 'sandbox', 'apiVersion', '2026-05-01', 'data', jsonb_build_object('object', jsonb_build_object('id', 'tx_' || g, 'status', 'completed', 'amount', 12.5))),
                now()
         FROM generate_series(1, $2::int) g`,
        [merchantId, n, prefix],
      );
    // Writes `total` events of a merchant and waits until `subscriptionId` has them all delivered.
    const scenario = async (merchantId: string, prefix: string, subscriptionId: string) => {
      const loadBefore = load();
      const started = Date.now();
      await insertEvents(merchantId, prefix, total);
      let done = 0;
      while (done < total) {
        await new Promise((r) => setTimeout(r, 100));
        done = Number((await db.query(`SELECT count(*) AS n FROM webhook_deliveries WHERE subscription_id = $1 AND status = 'succeeded'`, [subscriptionId])).rows[0].n);
        if (Date.now() - started > 600_000) throw new Error(`only ${done} of ${total} delivered in 10 minutes`);
      }
      const seconds = (Date.now() - started) / 1000;
      return { seconds, rate: total / seconds, loadBefore, loadAfter: load() };
    };

    const a = await createMerchant({ name: "Bench fast", tier: "premium" });
    const aSub = await subscribe(a.sandbox.secretKey, `${fast.url}/alone`);
    const alone = await scenario(a.merchantId, "evt_bench_a", aSub);
    const fastSockets = fast.sockets;
    console.log(`\n1. fast receiver alone: ${total.toLocaleString("en")} deliveries in ${alone.seconds.toFixed(1)} s: ${Math.round(alone.rate).toLocaleString("en")} deliveries/s over ${fastSockets} connections (load average ${alone.loadBefore} -> ${alone.loadAfter})`);

    // The slow subscription gets a backlog of its own first and holds every slot it may take
    // (its cap) before the fast one's events are written.
    const slowMerchant = await createMerchant({ name: "Bench slow", tier: "premium" });
    await subscribe(slowMerchant.sandbox.secretKey, slow.url);
    await insertEvents(slowMerchant.merchantId, "evt_bench_slow", total);
    const saturated = Date.now();
    let last = -1;
    // Saturated: requests have arrived and none more for a while (every slot it may take is held).
    const unfanned = async () => Number((await db.query(`SELECT count(*) AS n FROM events WHERE fanned_out_at IS NULL`)).rows[0].n);
    while (slow.received === 0 || slow.received !== last || (await unfanned()) > 0) {
      last = slow.received;
      await new Promise((r) => setTimeout(r, 500));
      if (Date.now() - saturated > 60_000) throw new Error("the slow receiver never got its requests");
    }
    const slowHeld = slow.received;
    const b = await createMerchant({ name: "Bench fast beside slow", tier: "premium" });
    const bFast = await subscribe(b.sandbox.secretKey, `${fast.url}/beside-slow`);
    const beside = await scenario(b.merchantId, "evt_bench_b", bFast);
    const change = ((beside.rate - alone.rate) / alone.rate) * 100;
    console.log(`2. fast receiver beside a receiver that answers after 2 s: ${Math.round(beside.rate).toLocaleString("en")} deliveries/s (${change >= 0 ? "+" : ""}${change.toFixed(1)} % against 1.); the slow one held ${slowHeld} requests open when it started and got ${slow.received.toLocaleString("en")} over ${slow.sockets} connections by its end (load average ${beside.loadBefore} -> ${beside.loadAfter})`);
    const { db: prisma } = await import("../lib/db.ts");
    await prisma().$disconnect();
  } finally {
    await db.end().catch(() => {});
    await server.stop();
    fast.close();
    slow.close();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

// The schema engine keeps its pool open: exit explicitly.
main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
