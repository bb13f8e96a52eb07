// Benchmark of webhook delivery with the in-process ticker: 10,000 due events for one
// subscription, delivered to a local receiver that answers 200 at once; prints deliveries/s
// from the moment the events are written until the last delivery is marked succeeded.
//   npm run bench:webhooks [-- --events 10000]
import { parseArgs } from "node:util";
import http from "node:http";
import pg from "pg";
import { deployMigrations, parseDatabaseUrl } from "./lib/schema-engine.ts";
import { freePort } from "./lib/embedded-db.ts";
import { buildIfStale } from "./lib/build.ts";
import { startNext, waitForHttp } from "./lib/server.ts";

const { values } = parseArgs({ options: { events: { type: "string", default: "10000" } } });
const total = Number(values.events);
const adminUrl = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

async function main() {
  const name = `lp_bench_wh_${Date.now().toString(36)}`;
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const databaseUrl = u.toString();
  const admin = new pg.Client(parseDatabaseUrl(adminUrl));
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  let received = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received++;
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as import("node:net").AddressInfo).port}/hook`;
  const port = await freePort();
  await deployMigrations(databaseUrl);
  buildIfStale();
  const server = startNext({ port, stdio: "ignore", env: { DATABASE_URL: databaseUrl, APP_URL: `http://127.0.0.1:${port}`, JOBS_TICK_MS: "50", LOG_LEVEL: "warn", APP_ENV: "test" } });
  const db = new pg.Client(parseDatabaseUrl(databaseUrl));
  try {
    await waitForHttp(`${server.url}/api/v1/ping`);
    process.env.DATABASE_URL = databaseUrl;
    const { createMerchant } = await import("../lib/merchants/create-merchant.ts");
    const m = await createMerchant({ name: "Bench", tier: "premium" });
    const sub = await fetch(`${server.url}/api/v1/webhooks`, { method: "POST", headers: { authorization: `Bearer ${m.sandbox.secretKey}`, "content-type": "application/json" }, body: JSON.stringify({ url: receiverUrl, events: ["*"] }) });
    if (sub.status !== 200) throw new Error(`subscription: ${sub.status} ${await sub.text()}`);
    await db.connect();
    const started = Date.now();
    await db.query(
      `INSERT INTO events (id, merchant_id, environment, type, payload, created_at)
       SELECT 'evt_bench' || g, $1, 'sandbox', 'payment.completed',
              jsonb_build_object('id', 'evt_bench' || g, 'type', 'payment.completed', 'environment', 'sandbox', 'apiVersion', '2026-05-01', 'data', jsonb_build_object('object', jsonb_build_object('id', 'tx_' || g, 'status', 'completed', 'amount', 12.5))),
              now()
       FROM generate_series(1, $2::int) g`,
      [m.merchantId, total],
    );
    let done = 0;
    while (done < total) {
      await new Promise((r) => setTimeout(r, 250));
      done = Number((await db.query(`SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'succeeded'`)).rows[0].n);
      if (Date.now() - started > 600_000) throw new Error(`only ${done} of ${total} delivered in 10 minutes`);
    }
    const seconds = (Date.now() - started) / 1000;
    console.log(`\n${total.toLocaleString("en")} deliveries (ticker driver, 16 in flight per tick) in ${seconds.toFixed(1)} s: ${Math.round(total / seconds)} deliveries/s; receiver saw ${received.toLocaleString("en")} requests`);
    const { db: prisma } = await import("../lib/db.ts");
    await prisma().$disconnect();
  } finally {
    await db.end().catch(() => {});
    await server.stop();
    receiver.close();
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
