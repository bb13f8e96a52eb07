// The request path, side by side in one run on one server machine: a raw node:http server
// answering a JSON constant (the runtime's ceiling), then the API and the buyer page through the
// fast path (scripts/lib/api-dispatch.ts) and through Next (API_FAST_PATH=off), each a production
// build on its own fresh database of the local PostgreSQL, rate limits scaled away. autocannon
// runs on the same cores, so read the ratios (absolute figures move with the machine's load).
//   npm run bench [-- --duration 8 --connections 50 --only fast]
import { parseArgs } from "node:util";
import http from "node:http";
import { gzipSync } from "node:zlib";
import pg from "pg";
import autocannon from "autocannon";
import { deployMigrations, parseDatabaseUrl } from "./lib/schema-engine.ts";
import { freePort } from "./lib/embedded-db.ts";
import { buildIfStale } from "./lib/build.ts";
import { startNext, waitForHttp } from "./lib/server.ts";

const { values } = parseArgs({ options: { duration: { type: "string", default: "8" }, connections: { type: "string", default: "50" }, only: { type: "string" } } });
const duration = Number(values.duration);
const connections = Number(values.connections);
const adminUrl = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

async function admin(sql: string) {
  const c = new pg.Client(parseDatabaseUrl(adminUrl));
  await c.connect();
  await c.query(sql);
  await c.end();
}

type Row = { what: string; rps: number; p50: number; p99: number; bad: number };

async function load(what: string, opts: autocannon.Options): Promise<Row> {
  const r = await autocannon({ connections, duration, ...opts });
  return { what, rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, bad: r.errors + r.timeouts + r.non2xx };
}

/** The runtime's ceiling: node:http answering a JSON constant. */
async function rawNode(): Promise<Row> {
  const body = JSON.stringify({ ok: true, environment: "sandbox" });
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  await autocannon({ url: `http://127.0.0.1:${port}/`, connections: 10, amount: 5000 });
  const row = await load("raw node:http, JSON constant", { url: `http://127.0.0.1:${port}/` });
  await new Promise((r) => server.close(r));
  return row;
}

/** Gzip bytes of the scripts a page loads (what a buyer's phone downloads). */
async function pageScripts(base: string, pageUrl: string): Promise<{ scripts: number; gzipBytes: number }> {
  const html = await (await fetch(pageUrl)).text();
  const srcs = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]!);
  let gzipBytes = 0;
  for (const src of srcs) gzipBytes += gzipSync(Buffer.from(await (await fetch(new URL(src, base))).arrayBuffer())).length;
  const inline = [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!).join("");
  gzipBytes += inline ? gzipSync(Buffer.from(inline)).length : 0;
  return { scripts: srcs.length, gzipBytes };
}

async function measure(label: string, env: Record<string, string>): Promise<{ rows: Row[]; js: { scripts: number; gzipBytes: number } }> {
  const name = `lp_bench_${Date.now().toString(36)}`;
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const databaseUrl = u.toString();
  await admin(`CREATE DATABASE "${name}"`);
  await deployMigrations(databaseUrl);
  const port = await freePort();
  const server = startNext({ port, stdio: "ignore", env: { DATABASE_URL: databaseUrl, APP_URL: `http://127.0.0.1:${port}`, RATE_LIMIT_SCALE: "100000", APP_ENV: "test", LOG_LEVEL: "warn", ...env } });
  try {
    await waitForHttp(`${server.url}/api/v1/ping`);
    process.env.DATABASE_URL = databaseUrl;
    const { createMerchant } = await import("../lib/merchants/create-merchant.ts");
    const m = await createMerchant({ name: "Bench", tier: "premium" });
    const headers = { authorization: `Bearer ${m.sandbox.secretKey}` };
    const api = `${server.url}/api/v1`;
    // A small merchant's history: 60 payments.
    for (let i = 0; i < 60; i++) await fetch(`${api}/payments`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify({ amount: 10 + i, paymentMethodId: "sbx_card" }) });
    const session = (await (
      await fetch(`${api}/checkout/sessions`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ amount: 100, country: "BR", customer: { firstName: "Ana", lastName: "Souza", email: "ana@example.com", phone: "+55 11 98765-4321" } }),
      })
    ).json()) as { checkoutUrl: string };
    const pageUrl = session.checkoutUrl.replace(/^https?:\/\/[^/]+/, server.url);
    // Warm-up: JIT, pools, caches.
    await autocannon({ url: `${api}/ping`, connections: 10, amount: 3000, headers });
    await autocannon({ url: pageUrl, connections: 5, amount: 300, headers: { "accept-language": "pt-BR" } });
    let n = 0;
    const rows = [
      await load(`${label}: GET /api/v1/ping`, { url: `${api}/ping`, headers }),
      await load(`${label}: POST /api/v1/payments`, {
        url: `${api}/payments`,
        method: "POST",
        setupClient: (client) => {
          const id = ++n;
          let i = 0;
          client.setHeaders({ ...headers, "content-type": "application/json", "idempotency-key": `bench-${id}-${i}` });
          client.on("response", () => client.setHeaders({ ...headers, "content-type": "application/json", "idempotency-key": `bench-${id}-${++i}` }));
        },
        body: JSON.stringify({ amount: 12, paymentMethodId: "sbx_card" }),
      }),
      await load(`${label}: GET /api/v1/payments?limit=50`, { url: `${api}/payments?limit=50`, headers }),
      await load(`${label}: GET /checkout/<token> (pt-BR)`, { url: pageUrl, headers: { "accept-language": "pt-BR" } }),
    ];
    const js = await pageScripts(server.url, pageUrl);
    const { db } = await import("../lib/db.ts");
    await db().$disconnect();
    delete (globalThis as Record<symbol, unknown>)[Symbol.for("latam-payments.db")];
    return { rows, js };
  } finally {
    await server.stop();
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}

async function main() {
  buildIfStale();
  const raw = await rawNode();
  const runs: Array<{ rows: Row[]; js: { scripts: number; gzipBytes: number } }> = [];
  if (values.only !== "next") runs.push(await measure("fast path", {}));
  if (values.only !== "fast") runs.push(await measure("through Next", { API_FAST_PATH: "off" }));
  console.log(`\n${connections} connections, ${duration} s per row after a warm-up, load generator on the same ${(await import("node:os")).availableParallelism()} cores\n`);
  console.log(`${"what".padEnd(46)} ${"req/s".padStart(7)} ${"vs ping".padStart(8)} ${"vs raw".padStart(7)} ${"p50 ms".padStart(7)} ${"p99 ms".padStart(7)} ${"bad".padStart(5)}`);
  const line = (r: Row, ping: number) =>
    console.log(`${r.what.padEnd(46)} ${String(r.rps).padStart(7)} ${`${(r.rps / ping).toFixed(2)}x`.padStart(8)} ${`${(r.rps / raw.rps).toFixed(3)}x`.padStart(7)} ${String(r.p50).padStart(7)} ${String(r.p99).padStart(7)} ${String(r.bad).padStart(5)}`);
  line(raw, raw.rps);
  for (const run of runs) {
    const ping = run.rows[0]!.rps;
    for (const r of run.rows) line(r, ping);
  }
  for (const run of runs.slice(0, 1)) console.log(`\ncheckout page scripts: ${run.js.scripts}, ${(run.js.gzipBytes / 1024).toFixed(1)} KiB gzip`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
