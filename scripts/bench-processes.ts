// POST /payments throughput with 1, 2 and 4 server processes (WEB_CONCURRENCY, node:cluster) on
// this machine, and with one process pinned to one core (taskset), so the scaling per core is
// known. One fresh database, one premium merchant per run (no rate limit reached: RATE_LIMIT_SCALE),
// autocannon on the same machine (it takes CPU too), 10 s per run at 40 connections.
//   npx tsx scripts/bench-processes.ts
import path from "node:path";
import { randomUUID } from "node:crypto";
import { spawn } from "node:child_process";
import autocannon from "autocannon";
import { deployMigrations } from "./lib/schema-engine.ts";
import { freePort } from "./lib/embedded-db.ts";
import { buildIfStale } from "./lib/build.ts";
import { scratchDatabase } from "./lib/scratch-database.ts";
import { root } from "./lib/schema-engine.ts";
import { serveArgs } from "./lib/server.ts";

const DURATION = Number(process.env.BENCH_DURATION ?? 10);

async function measure(label: string, workers: number, pinned: boolean, databaseUrl: string) {
  const port = await freePort();
  const args = serveArgs();
  const child = pinned ? spawn("taskset", ["-c", "0", process.execPath, ...args], { cwd: root, env: envFor(port, workers, databaseUrl), stdio: "ignore" }) : spawn(process.execPath, args, { cwd: root, env: envFor(port, workers, databaseUrl), stdio: "ignore" });
  try {
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 600; i++) {
      if ((await fetch(`${url}/readyz`).catch(() => null))?.status === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    process.env.DATABASE_URL = databaseUrl;
    const { createMerchant } = await import("../lib/merchants/create-merchant.ts");
    const m = await createMerchant({ name: `Bench ${label}`, tier: "premium" });
    const opts = {
      url: `${url}/api/v1/payments`,
      method: "POST" as const,
      headers: { authorization: `Bearer ${m.sandbox.secretKey}`, "content-type": "application/json" },
      body: JSON.stringify({ amount: 12.5, paymentMethodId: "sbx_card" }),
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      requests: [{ setupRequest: (r: any) => ({ ...r, headers: { ...r.headers, "idempotency-key": randomUUID() } }) }],
    };
    await autocannon({ ...opts, connections: 10, amount: 300 }); // warm-up: JIT, pools, plans
    const r = await autocannon({ ...opts, connections: 40, duration: DURATION });
    return { label, rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts };
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  }
}

function envFor(port: number, workers: number, databaseUrl: string) {
  return { ...process.env, PORT: String(port), HOST: "127.0.0.1", WEB_CONCURRENCY: String(workers), DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: "10", RATE_LIMIT_SCALE: "1000", APP_ENV: "test", LOG_LEVEL: "warn" };
}

const scratch = await scratchDatabase("lp_bench_proc");
const u = new URL(scratch.url);
try {
  await deployMigrations(u.toString());
  await buildIfStale();
  const rows = [];
  rows.push(await measure("1 process, pinned to 1 core", 1, true, u.toString()));
  for (const n of [1, 2, 4]) rows.push(await measure(`${n} process${n > 1 ? "es" : ""}, 2 cores`, n, false, u.toString()));
  console.log("POST /payments (sandbox), 40 connections, autocannon on the same machine");
  console.log("setup                          req/s   p50 ms   p99 ms   non-2xx  errors");
  for (const r of rows) console.log(`${r.label.padEnd(30)} ${String(r.rps).padStart(6)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(8)} ${String(r.non2xx).padStart(9)} ${String(r.errors).padStart(7)}`);
  const base = rows[0]!.rps;
  console.log(`per-core scaling: 2 processes on 2 cores give ${(rows[2]!.rps / base).toFixed(2)}x one pinned process; 4 give ${(rows[3]!.rps / base).toFixed(2)}x`);
} finally {
  const { db } = await import("../lib/platform/db.ts").catch(() => ({ db: null as never }));
  await db?.().$disconnect().catch(() => {});
  await scratch.drop();
}
