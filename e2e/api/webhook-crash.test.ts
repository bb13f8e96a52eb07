// Crash safety of webhook delivery: a server is killed (SIGKILL) while 200 deliveries are due and
// the receiver is slow. After a restart every event is delivered at least once, and no delivery
// is marked succeeded unless the receiver answered it with a 2xx. Runs on its own database so
// that no other server's job runner can deliver in its place.
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import pg from "pg";
import { api, ownDatabase, tsx, waitFor } from "./helpers.ts";
import { startNext, waitForHttp } from "../../scripts/lib/server.ts";
import { freePort } from "../../scripts/lib/embedded-db.ts";

test("SIGKILL mid-delivery: after restart every event is delivered, none succeeded without a 2xx", async () => {
  const own = await ownDatabase("lp_crash");
  const crashDb = own.url;
  const db = new pg.Client({ connectionString: crashDb });

  // The receiver: slow, and it records which deliveries it answered with a 2xx.
  const answered = new Set<string>();
  const events = new Set<string>();
  const receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () =>
      setTimeout(() => {
        res.writeHead(200).end("ok", () => {
          answered.add(String(req.headers["x-service-delivery"]));
          events.add(JSON.parse(body).id);
        });
      }, 250),
    );
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as import("node:net").AddressInfo).port}/hook`;

  const port = await freePort();
  const env = { ...(process.env as Record<string, string>), DATABASE_URL: crashDb, APP_URL: `http://127.0.0.1:${port}`, JOBS_TICK_MS: "50", WEBHOOK_TIMEOUT_MS: "1500", LOG_LEVEL: "warn" };
  let server = startNext({ port, env, stdio: "ignore" });
  try {
    tsx(["scripts/migrate.ts", "deploy"], { DATABASE_URL: crashDb });
    const merchant = JSON.parse(tsx(["scripts/cli.ts", "merchant:create", "--name", "Crash", "--tier", "premium", "--json"], { DATABASE_URL: crashDb }));
    await waitForHttp(`${server.url}/api/v1/ping`);
    const sub = await api("/webhooks", { base: server.url, key: merchant.sandbox.secretKey, body: { url: receiverUrl, events: ["*"] } });
    assert.equal(sub.status, 200, sub.text);

    await db.connect();
    await db.query(
      `INSERT INTO events (id, merchant_id, environment, type, payload, created_at)
       SELECT 'evt_crash' || g, $1, 'sandbox', 'payment.completed',
              jsonb_build_object('id', 'evt_crash' || g, 'type', 'payment.completed', 'environment', 'sandbox', 'apiVersion', '2026-05-01', 'data', jsonb_build_object('object', jsonb_build_object('id', 'tx_' || g))),
              now()
       FROM generate_series(1, 200) g`,
      [merchant.merchantId],
    );

    // Kill the server while deliveries are in flight.
    await waitFor(async () => answered.size >= 20, "the first deliveries", 30_000);
    process.kill(-server.child.pid!, "SIGKILL");
    await new Promise((r) => server.child.once("exit", r));

    const succeededAtKill = (await db.query<{ id: string }>(`SELECT id FROM webhook_deliveries WHERE status = 'succeeded'`)).rows.map((r) => r.id);
    assert.ok(succeededAtKill.length < 200, "the kill came before the end");
    for (const id of succeededAtKill) assert.ok(answered.has(id), `${id} is succeeded but was never answered 2xx`);

    // Restart on the same database: in-flight leases expire and the rest is delivered.
    server = startNext({ port, env, stdio: "ignore" });
    await waitForHttp(`${server.url}/api/v1/ping`);
    await waitFor(async () => Number((await db.query(`SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'succeeded'`)).rows[0].n) === 200, "all 200 deliveries succeeded", 60_000);
    assert.equal(events.size, 200, "every event reached the receiver at least once");
    const succeeded = (await db.query<{ id: string }>(`SELECT id FROM webhook_deliveries WHERE status = 'succeeded'`)).rows.map((r) => r.id);
    for (const id of succeeded) assert.ok(answered.has(id), `${id} is succeeded but was never answered 2xx`);
  } finally {
    await server.stop();
    await db.end().catch(() => {});
    receiver.closeAllConnections();
    await new Promise((r) => receiver.close(r));
    await own.drop();
  }
});
