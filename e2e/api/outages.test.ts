// Database outages answered as outages, over real processes: a server of the test's own reaches
// PostgreSQL through a TCP proxy on loopback that the test cuts (the database "paused" or gone)
// and whose backend connections it kills with pg_terminate_backend (a restart). Every answer is
// 200 or the contract's 503 service_unavailable with Retry-After, never 500 internal_error; the
// log has one warning per outage and no stack trace; nothing is lost or doubled; the server
// recovers by itself, and so does its cache-invalidation listener (reported by /readyz), so a
// suspended merchant is refused at once again, without waiting for a cache TTL.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { spawn, type ChildProcess } from "node:child_process";
import pg from "pg";
import { api, assertEnvelope, newMerchant, waitFor, type ApiResponse } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { setMerchantStatus } from "@/lib/merchants/set-status";
import { freePort } from "../../scripts/lib/embedded-db.ts";
import { serveArgs } from "../../scripts/lib/server.ts";

const root = path.resolve(import.meta.dirname, "../..");
const target = new URL(process.env.DATABASE_URL!);

/** A TCP proxy to PostgreSQL: `cut()` stops it (nothing reaches the database), `restore()` starts it again. */
function dbProxy(port: number) {
  const sockets = new Set<net.Socket>();
  const upstream = new Set<net.Socket>();
  let server: net.Server | null = null;
  const start = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((c) => {
        const up = net.connect(Number(target.port || 5432), target.hostname);
        sockets.add(c).add(up);
        upstream.add(up);
        c.pipe(up).pipe(c);
        const end = () => (c.destroy(), up.destroy(), sockets.delete(c), sockets.delete(up), upstream.delete(up));
        c.on("error", end).on("close", end);
        up.on("error", end).on("close", end);
      });
      server.listen(port, "127.0.0.1", () => resolve());
    });
  return {
    start,
    cut: async () => {
      const s = server!;
      server = null;
      const closed = new Promise((r) => s.close(r));
      for (const c of sockets) c.destroy();
      await closed;
    },
    /** The local ports of the proxy's connections to PostgreSQL: pg_stat_activity.client_port of the server's backends. */
    backendPorts: () => [...upstream].map((u) => u.localPort).filter((p): p is number => typeof p === "number"),
  };
}

let proxy: ReturnType<typeof dbProxy>;
let child: ChildProcess;
let exited: Promise<unknown>;
let output = "";
let base = "";
let m: Awaited<ReturnType<typeof newMerchant>>;

before(async () => {
  const proxyPort = await freePort();
  proxy = dbProxy(proxyPort);
  await proxy.start();
  const viaProxy = new URL(target);
  viaProxy.port = String(proxyPort);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, serveArgs(), {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", APP_URL: base, DATABASE_URL: viaProxy.toString(), DATABASE_POOL_SIZE: "4", LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  exited = new Promise((r) => child.once("exit", r));
  m = await newMerchant({ tier: "premium" });
  await waitFor(async () => (await fetch(`${base}/readyz`).catch(() => null))?.status === 200, "the server to be ready", 60_000);
  // A first authenticated request caches the key and starts the invalidation listener.
  assert.equal((await call("/payments?limit=1")).status, 200);
  await waitFor(async () => (await readyz()).body.checks.cacheInvalidation === "ok", "the invalidation listener to listen", 10_000);
});

after(async () => {
  child?.kill("SIGKILL");
  await exited;
  await proxy?.cut().catch(() => {});
  await db().$disconnect();
});

const call = (p: string, opts: { body?: unknown; idem?: string } = {}): Promise<ApiResponse> =>
  api(p, { base, key: m.sandbox.secretKey, ...(opts.body !== undefined ? { body: opts.body } : {}), headers: opts.idem ? { "idempotency-key": opts.idem } : {} });
const readyz = async () => {
  const r = await fetch(`${base}/readyz`);
  return { status: r.status, body: (await r.json()) as { checks: Record<string, string> } };
};
const logLines = () => output.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as { level: number; msg: string; err?: unknown });
const count = (msg: string) => logLines().filter((l) => l.msg === msg).length;

/** An invalidation sent now (a merchant suspended) reaches the server well within the caches' 5 s TTL. */
async function invalidationCrosses() {
  await setMerchantStatus(m.merchantId, "active");
  await waitFor(async () => (await call("/payments?limit=1")).status === 200, "the merchant active again", 10_000);
  // The key is cached (fresh) now; only the notification can drop it within 2 s.
  await setMerchantStatus(m.merchantId, "suspended");
  const started = Date.now();
  const refused = await waitFor(async () => {
    const r = await call("/payments?limit=1");
    return r.status === 403 ? r : null;
  }, "the suspension to reach the server through the listener", 2_000);
  assertEnvelope(refused, "merchant_suspended", 403);
  await setMerchantStatus(m.merchantId, "active");
  return Date.now() - started;
}

test("the database gone: 503 service_unavailable with Retry-After and one warning; back by itself, nothing lost or doubled, the listener reconnects", async () => {
  const baseline = logLines().length;
  await proxy.cut();
  // Requests during the outage, some with keys (retried after it), reads and creates at once.
  const keys = Array.from({ length: 6 }, () => randomUUID());
  const body = (i: number) => ({ amount: 12, paymentMethodId: "sbx_card", merchantOrderId: `outage-${keys[i]}` });
  const answers = await Promise.all([
    ...keys.map((idem, i) => call("/payments", { body: body(i), idem })),
    ...Array.from({ length: 10 }, () => call("/payments?limit=5")),
  ]);
  for (const r of answers) {
    assertEnvelope(r, "service_unavailable", 503);
    assert.equal(r.headers.get("retry-after"), "5");
  }
  // /readyz says so, and that the listener is lost; it keeps trying while the outage lasts
  // (a single retry a second later would have given up by now).
  const down = await waitFor(async () => {
    const r = await readyz();
    return r.status === 503 && /for [3-9]\d* s/.test(r.body.checks.cacheInvalidation ?? "") ? r : null;
  }, "/readyz 503 with the listener lost for 3 s", 15_000);
  assert.notEqual(down.body.checks.database, "ok");
  // More requests while it lasts: still 503, still one warning.
  for (let i = 0; i < 5; i++) assertEnvelope(await call("/payments?limit=5"), "service_unavailable", 503);

  await proxy.start();
  await waitFor(async () => (await readyz()).status === 200, "/readyz 200 again", 30_000);
  assert.equal((await readyz()).body.checks.cacheInvalidation, "ok");
  // The keyed creates, retried with their keys: one payment each.
  for (let i = 0; i < keys.length; i++) assert.equal((await call("/payments", { body: body(i), idem: keys[i] })).status, 200);
  for (let i = 0; i < keys.length; i++) assert.equal(await db().transaction.count({ where: { merchantId: m.merchantId, merchantOrderId: `outage-${keys[i]}` } }), 1);
  const tookMs = await invalidationCrosses();
  assert.ok(tookMs < 2_000);

  const lines = logLines().slice(baseline);
  assert.equal(lines.filter((l) => l.msg.startsWith("database unavailable")).length, 1, "one warning for the outage");
  assert.equal(lines.filter((l) => l.msg === "unhandled error").length, 0, "no request logged as a bug");
  assert.equal(lines.filter((l) => l.msg === "job failed").length, 0, "no job logged as a bug");
  assert.ok(!/\n\s+at .+\(.+:\d+:\d+\)/.test(output), "no stack trace in the log");
  assert.equal(count("database reachable again") >= 1, true);
});

test("the server's backends killed under load (pg_terminate_backend, as a restart does): only 200 or 503, and it recovers by itself", async () => {
  const baseline = logLines().length;
  const admin = new pg.Client({ connectionString: target.toString() });
  await admin.connect();
  const statuses: number[] = [];
  const bad: string[] = [];
  let stop = false;
  const worker = async (w: number) => {
    for (let i = 0; !stop; i++) {
      const r = w % 2 ? await call("/payments", { body: { amount: 5, paymentMethodId: "sbx_card" }, idem: randomUUID() }) : await call("/payments?limit=5");
      statuses.push(r.status);
      if (r.status !== 200 && r.status !== 503) bad.push(`${r.status} ${r.text.slice(0, 200)}`);
      if (r.status === 503) assert.equal(r.headers.get("retry-after"), "5");
    }
  };
  const loops = Array.from({ length: 6 }, (_, w) => worker(w));
  try {
    await waitFor(async () => statuses.length >= 30, "load under way", 30_000);
    for (let round = 0; round < 3; round++) {
      const n = statuses.length;
      const killed = await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE client_port = ANY($1::int[]) AND pid <> pg_backend_pid()`, [proxy.backendPorts()]);
      assert.ok(killed.rowCount! > 0, "killed the server's backends");
      await waitFor(async () => statuses.length >= n + 30, `requests after kill ${round + 1}`, 30_000);
    }
  } finally {
    stop = true;
    await Promise.all(loops);
    await admin.end();
  }
  assert.deepEqual(bad, [], "only 200 or 503");
  await waitFor(async () => {
    const r = await readyz();
    return r.status === 200 && r.body.checks.cacheInvalidation === "ok";
  }, "/readyz 200 with the listener back", 30_000);
  assert.ok(statuses.slice(-10).every((s) => s === 200), "served normally again");
  assert.ok((await invalidationCrosses()) < 2_000);
  const lines = logLines().slice(baseline);
  assert.equal(lines.filter((l) => l.msg === "unhandled error").length, 0, "no request logged as a bug");
});
