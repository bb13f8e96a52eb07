// Benchmark of the foundation: requests/s and latency of GET /api/v1/ping and GET /api/v1/me at
// 50 connections against a production build on a fresh database of the local PostgreSQL.
// The load generator (autocannon) runs on the same machine, so it shares the CPU with the server.
//   npm run bench [-- --duration 10 --connections 50]
import { parseArgs } from "node:util";
import pg from "pg";
import autocannon from "autocannon";
import { deployMigrations, parseDatabaseUrl } from "./lib/schema-engine.ts";
import { freePort } from "./lib/embedded-db.ts";
import { buildIfStale } from "./lib/build.ts";
import { startNext, waitForHttp } from "./lib/server.ts";

const { values } = parseArgs({ options: { duration: { type: "string", default: "10" }, connections: { type: "string", default: "50" } } });
const duration = Number(values.duration);
const connections = Number(values.connections);
const adminUrl = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

async function admin(sql: string) {
  const c = new pg.Client(parseDatabaseUrl(adminUrl));
  await c.connect();
  await c.query(sql);
  await c.end();
}

type Row = { target: string; rps: number; p50: number; p99: number; errors: number; non2xx: number };

async function load(url: string, key: string): Promise<Row> {
  const r = await autocannon({ url, connections, duration, headers: { authorization: `Bearer ${key}` } });
  return { target: new URL(url).pathname, rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
}

async function main() {
  const name = `lp_bench_${Date.now().toString(36)}`;
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const databaseUrl = u.toString();
  await admin(`CREATE DATABASE "${name}"`);
  const port = await freePort();
  const server = startNext({
    port,
    stdio: "ignore",
    // Limits scaled up so the benchmark measures the service, not the 429 path.
    env: { DATABASE_URL: databaseUrl, APP_URL: `http://127.0.0.1:${port}`, RATE_LIMIT_SCALE: "100000", APP_ENV: "test" },
  });
  try {
    await deployMigrations(databaseUrl);
    buildIfStale();
    await waitForHttp(`${server.url}/api/v1/ping`);
    process.env.DATABASE_URL = databaseUrl;
    const { createMerchant } = await import("../lib/merchants/create-merchant.ts");
    const m = await createMerchant({ name: "Bench", tier: "premium" });
    const key = m.sandbox.secretKey;
    // Warm-up: JIT, connection pool, key cache.
    await autocannon({ url: `${server.url}/api/v1/me`, connections: 10, amount: 2000, headers: { authorization: `Bearer ${key}` } });
    const rows = [await load(`${server.url}/api/v1/ping`, key), await load(`${server.url}/api/v1/me`, key)];
    console.log(`\n${connections} connections, ${duration} s each, load generator on the same ${(await import("node:os")).availableParallelism()} cores\n`);
    console.log("endpoint           req/s    p50 ms   p99 ms   errors  non-2xx");
    for (const r of rows) console.log(`${r.target.padEnd(18)} ${String(r.rps).padStart(6)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(8)} ${String(r.errors).padStart(8)} ${String(r.non2xx).padStart(8)}`);
    const { db } = await import("../lib/db.ts");
    await db().$disconnect();
  } finally {
    await server.stop();
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
