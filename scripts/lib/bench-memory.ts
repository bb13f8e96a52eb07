// The memory and start-up rows of `npm run bench` (issue 44): a start as `npm start` runs it
// (`node .next/node/start.js`, the compiled server), timed from the spawn to the first 200 of
// /readyz, its process tree listed (no tsx, no esbuild may be in it), and its memory idle, after a
// warm-up and during and after a soak.
//
// Where the numbers come from:
// - RSS: /proc/<pid>/status VmRSS of every process of the server's tree (the process spawned and
//   its descendants), summed: what the machine gives the service, transpiler services included
//   when there are any. VmHWM is the kernel's peak of the server process itself.
// - Heap: the server's own process.memoryUsage(), read from /metrics (prom-client's default
//   metrics, lib/platform/metrics/registry.ts: lp_nodejs_heap_size_used_bytes and _total_bytes,
//   lp_nodejs_external_memory_bytes), with METRICS_TOKEN as production demands it.
import { spawn, type ChildProcess } from "node:child_process";
import { SERVER_PROCESS_ENV, serverProcessEnv } from "./process-env.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { freePort } from "./embedded-db.ts";
import { root } from "./schema-engine.ts";
import { isTranspiler, proc, processTree, type Proc } from "./process-tree.ts";

export type Memory = { treeRssKiB: number; serverRssKiB: number; heapUsedMiB: number; heapTotalMiB: number; externalMiB: number };
export type StartRow = {
  what: string;
  readyMs: number;
  tree: Proc[];
  transpilers: Proc[];
  idle: Memory;
  warm: Memory;
  soakPeakTreeKiB: number;
  soak: Memory;
  hwmKiB: number;
  soakRequests: number;
  /** The server's own `[memory]` lines (MEMORY_MARKS=1, scripts/lib/memory-marks.ts): each step of its start. */
  marks: string[];
};


async function memory(pid: number, base: string, token: string): Promise<Memory> {
  const tree = processTree(pid);
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
  const metric = (name: string) => Number(text.match(new RegExp(`^${name}(?:\\{[^}]*\\})? ([\\d.e+]+)$`, "m"))?.[1] ?? NaN) / 2 ** 20;
  return {
    treeRssKiB: tree.reduce((s, p) => s + p.rssKiB, 0),
    serverRssKiB: tree.find((p) => p.pid === pid)?.rssKiB ?? 0,
    heapUsedMiB: metric("lp_nodejs_heap_size_used_bytes"),
    heapTotalMiB: metric("lp_nodejs_heap_size_total_bytes"),
    externalMiB: metric("lp_nodejs_external_memory_bytes"),
  };
}

async function until(what: string, ok: () => Promise<boolean>, timeoutMs: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what}: the server exited (${child.exitCode}):\n${output().slice(-3000)}`);
    if (await ok().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms:\n${output().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export type StartSpec = {
  what: string;
  /** node's argv: the compiled start by default. */
  argv?: string[];
  env: Record<string, string>;
  /** A sandbox secret key once the server is ready: from the start's own output (quick start) or made by the caller. */
  key: (output: string) => Promise<string>;
  /** Start without package.json's process environment (SERVER_PROCESS_ENV): glibc's default malloc arenas, to show what they cost. */
  bare?: boolean;
  /** The embedded database's directory (kept: a second start finds it); a fresh one, removed after, when unset. */
  dataDir?: string;
};

/**
 * One start measured: spawn, first 200 of /readyz, `idleMs` idle, a warm-up of every kind of
 * request the soak sends, then `soakSeconds` of them at `connections`, sampling the tree's RSS.
 */
export async function measureStart(spec: StartSpec, opts: { idleMs: number; soakSeconds: number; connections: number }): Promise<StartRow> {
  const port = await freePort();
  const token = "bench-metrics-token-0123456789abcdef";
  const base = `http://127.0.0.1:${port}`;
  const dataDir = spec.dataDir ?? mkdtempSync(path.join(tmpdir(), "lp-bench-data-"));
  const own = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", PORT: String(port), HOST: "127.0.0.1", METRICS_TOKEN: token, DATA_DIR: dataDir, LOG_LEVEL: "warn", MEMORY_MARKS: "1", ...spec.env };
  const env = (spec.bare ? own : serverProcessEnv(own)) as NodeJS.ProcessEnv;
  for (const k of ["NODE_OPTIONS", "npm_lifecycle_event", "TEST_REDIS_URL", ...(spec.bare ? Object.keys(SERVER_PROCESS_ENV) : [])]) delete env[k];
  let out = "";
  const t0 = performance.now();
  const child = spawn(process.execPath, spec.argv ?? [path.join(root, ".next/node/start.js")], { cwd: root, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout!.on("data", (d: Buffer) => (out += d));
  child.stderr!.on("data", (d: Buffer) => (out += d));
  const output = () => out;
  try {
    await until("GET /readyz 200", async () => (await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(2_000) })).status === 200, 600_000, child, output);
    const readyMs = performance.now() - t0;
    const pid = child.pid!;
    // Idle: the start's own after-listen work (the fast path loads every route module) included.
    await new Promise((r) => setTimeout(r, opts.idleMs));
    const tree = processTree(pid);
    const idle = await memory(pid, base, token);

    const key = await spec.key(out);
    const auth = { authorization: `Bearer ${key}` };
    const session = (await (
      await fetch(`${base}/api/v1/checkout/sessions`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ amount: 100, country: "BR", customer: { firstName: "Ana", lastName: "Souza", email: "ana@example.com", phone: "+55 11 98765-4321" } }),
      })
    ).json()) as { checkoutUrl?: string };
    const checkoutPath = session.checkoutUrl ? new URL(session.checkoutUrl).pathname : "/api/v1/ping";
    let n = 0;
    const mixed = (connections: number, duration: number) =>
      autocannon({
        url: base,
        connections,
        duration,
        requests: [
          { method: "GET", path: "/api/v1/ping", headers: auth },
          { method: "POST", path: "/api/v1/payments", headers: { ...auth, "content-type": "application/json" }, setupRequest: (req) => ({ ...req, headers: { ...req.headers, "idempotency-key": `mem-${process.pid}-${++n}` }, body: JSON.stringify({ amount: 15, paymentMethodId: "sbx_card", merchantOrderId: `mem-${n}` }) }) },
          { method: "GET", path: "/api/v1/payments?limit=50", headers: auth },
          { method: "GET", path: checkoutPath, headers: { "accept-language": "pt-BR" } },
          { method: "GET", path: "/readyz" },
        ],
      });
    await mixed(4, 3);
    const warm = await memory(pid, base, token);
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, processTree(pid).reduce((s, p) => s + p.rssKiB, 0))), 250);
    const soaked = await mixed(opts.connections, opts.soakSeconds);
    clearInterval(sampler);
    const soak = await memory(pid, base, token);
    const hwmKiB = proc(pid)?.hwmKiB ?? 0;
    return { what: spec.what, readyMs, tree, transpilers: tree.filter(isTranspiler), idle, warm, soakPeakTreeKiB: Math.max(peak, soak.treeRssKiB), soak, hwmKiB, soakRequests: soaked.requests.total, marks: out.split("\n").filter((l) => l.startsWith("[memory]")) };
  } finally {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {}
    const exited = child.exitCode !== null || (await Promise.race([new Promise<boolean>((r) => child.once("exit", () => r(true))), new Promise<boolean>((r) => setTimeout(() => r(false), 15_000))]));
    if (!exited)
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {}
    if (!spec.dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

const mib = (kib: number) => (kib / 1024).toFixed(0);
const heap = (m: Memory) => `${m.heapUsedMiB.toFixed(0)} / ${m.heapTotalMiB.toFixed(0)}`;

/** The rows as a Markdown table, then each start's process tree. */
export function printStartRows(rows: StartRow[]): void {
  console.log("\n| Start | spawn → /readyz 200 | RSS idle (tree) | heap used/total idle | RSS after warm-up | heap after warm-up | RSS soak peak (tree) | RSS after soak | heap after soak | server VmHWM | tsx/esbuild in tree |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|");
  for (const r of rows)
    console.log(
      `| ${r.what} | ${(r.readyMs / 1000).toFixed(1)} s | ${mib(r.idle.treeRssKiB)} MiB | ${heap(r.idle)} MiB | ${mib(r.warm.treeRssKiB)} MiB | ${heap(r.warm)} MiB | ${mib(r.soakPeakTreeKiB)} MiB | ${mib(r.soak.treeRssKiB)} MiB | ${heap(r.soak)} MiB | ${mib(r.hwmKiB)} MiB | ${r.transpilers.length ? r.transpilers.map((p) => p.comm).join(", ") : "none"} |`,
    );
  for (const r of rows) {
    console.log(`\n${r.what}: process tree at idle (${r.soakRequests.toLocaleString("en")} requests in the soak)`);
    for (const p of r.tree) console.log(`  ${p.pid} (parent ${p.ppid}) ${mib(p.rssKiB)} MiB  ${p.cmd.slice(0, 140)}`);
    for (const m of r.marks) console.log(`  ${m}`);
  }
}
