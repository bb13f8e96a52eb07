// Where a request's CPU goes (issue 23, item 1): the production server under --cpu-prof while
// autocannon drives one endpoint, then the profile's self time grouped by where the code lives
// (Next's server, our app, Prisma, pg, zod, node internals…). Profiles are written outside the
// repository (PROFILE_DIR, default /tmp/lp-profiles) for a flame graph viewer (e.g. speedscope).
//   npx tsx scripts/profile-api.ts [--path /api/v1/ping] [--method GET] [--fast on|off] [--duration 10] [--payments 0]
// --payments N: the merchant first makes N sandbox card payments (a list worth reading).
// --path '/checkout/<token>': the buyer's selector page of a new session (Brazil, pt-BR).
import { parseArgs } from "node:util";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { freePort } from "./lib/embedded-db.ts";
import { deployMigrations } from "./lib/schema-engine.ts";
import { buildIfStale } from "./lib/build.ts";
import { spawn } from "node:child_process";
import { waitForHttp } from "./lib/server.ts";
import { scratchDatabase } from "./lib/scratch-database.ts";

const { values } = parseArgs({ options: { path: { type: "string", default: "/api/v1/ping" }, method: { type: "string", default: "GET" }, fast: { type: "string", default: "on" }, duration: { type: "string", default: "10" }, payments: { type: "string", default: "0" } } });
const dir = path.join(process.env.PROFILE_DIR ?? "/tmp/lp-profiles", `${values.method}-${values.path!.replace(/\W+/g, "_")}-fast-${values.fast}`);

type Node = { id: number; callFrame: { functionName: string; url: string }; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

function bucket(url: string, fn: string): string {
  if (!url) return fn === "(garbage collector)" ? "GC" : fn === "(idle)" ? "idle" : fn === "(program)" ? "program" : "native/builtins";
  if (url.startsWith("node:")) return "node internals";
  if (/next\/dist\/compiled\/next-server|next\/dist\/server|next\/dist\/compiled/.test(url)) return "Next server";
  if (/react-dom|react-server|\/react\//.test(url)) return "React";
  if (/@prisma|prisma/.test(url)) return "Prisma";
  if (/node_modules\/pg|pg-protocol|pg-pool/.test(url)) return "pg";
  if (/zod/.test(url)) return "zod";
  if (/pino/.test(url)) return "logging (pino)";
  if (/ioredis/.test(url)) return "ioredis";
  if (/\.next\/server\/chunks|\/lib\/|\/app\//.test(url)) return "our code (bundled)";
  if (/tsx|esbuild/.test(url)) return "tsx";
  if (/scripts\//.test(url)) return "our server (scripts)";
  return `other: ${url.replace(/.*node_modules\//, "").split("/")[0]}`;
}

async function main() {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const scratch = await scratchDatabase("lp_prof");
  const databaseUrl = scratch.url;
  try {
    await deployMigrations(databaseUrl);
    await buildIfStale();
    const port = await freePort();
    // --cpu-prof is not allowed in NODE_OPTIONS: the server is started here with it (as startNext would).
    const child = spawn(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${dir}`, "--import", "tsx", path.join(import.meta.dirname, "serve.ts")], {
      detached: true,
      stdio: "ignore",
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", SERVE_WITH_PARENT: "1", PORT: String(port), HOST: "127.0.0.1", DATABASE_URL: databaseUrl, APP_URL: `http://127.0.0.1:${port}`, RATE_LIMIT_SCALE: "100000", APP_ENV: "test", LOG_LEVEL: "warn", API_FAST_PATH: values.fast },
    });
    const server = {
      url: `http://127.0.0.1:${port}`,
      stop: () => new Promise<void>((resolve) => (child.once("exit", () => resolve()), process.kill(-child.pid!, "SIGTERM"))),
    };
    try {
      await waitForHttp(`${server.url}/api/v1/ping`);
      process.env.DATABASE_URL = databaseUrl;
      const { createMerchant } = await import("../lib/merchants/create-merchant.ts");
      const m = await createMerchant({ name: "Profile", tier: "premium" });
      let n = 0;
      for (let i = 0; i < Number(values.payments); i++) {
        const res = await fetch(`${server.url}/api/v1/payments`, { method: "POST", headers: { authorization: `Bearer ${m.sandbox.secretKey}`, "content-type": "application/json" }, body: JSON.stringify({ amount: 15, paymentMethodId: "sbx_card", merchantOrderId: `seed-${i}` }) });
        if (!res.ok) throw new Error(`seeding payment ${i}: ${res.status} ${await res.text()}`);
      }
      let target = values.path!;
      if (target.includes("<token>")) {
        const res = await fetch(`${server.url}/api/v1/checkout/sessions`, { method: "POST", headers: { authorization: `Bearer ${m.sandbox.secretKey}`, "content-type": "application/json" }, body: JSON.stringify({ amount: 100, country: "BR", customer: { firstName: "Ana", lastName: "Souza", email: "ana@example.com", phone: "+55 11 98765-4321" } }) });
        if (!res.ok) throw new Error(`creating a checkout session: ${res.status} ${await res.text()}`);
        target = target.replace("<token>", ((await res.json()) as { sessionId: string }).sessionId);
      }
      const opts: autocannon.Options = {
        url: `${server.url}${target}`,
        method: values.method as "GET",
        connections: 50,
        headers: { authorization: `Bearer ${m.sandbox.secretKey}`, "content-type": "application/json", "accept-language": "pt-BR" },
        requests: values.method === "POST" ? [{ setupRequest: (r) => ({ ...r, headers: { ...r.headers, "idempotency-key": `p-${++n}` }, body: JSON.stringify({ amount: 15, paymentMethodId: "sbx_card", merchantOrderId: `p-${n}` }) }) }] : undefined,
      };
      await autocannon({ ...opts, duration: 3 });
      const r = await autocannon({ ...opts, duration: Number(values.duration) });
      console.log(`${values.method} ${values.path} (fast path ${values.fast}): ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, ${r.requests.total} requests`);
    } finally {
      await server.stop();
    }
  } finally {
    await scratch.drop();
  }
  // The server process's profile is the largest (the tsx/npm wrappers have small ones).
  const files = readdirSync(dir).filter((f) => f.endsWith(".cpuprofile")).map((f) => path.join(dir, f));
  const biggest = files.sort((a, b) => readFileSync(b).byteLength - readFileSync(a).byteLength)[0]!;
  const prof = JSON.parse(readFileSync(biggest, "utf8")) as Profile;
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  prof.samples.forEach((id, i) => {
    const node = byId.get(id)!;
    const b = bucket(node.callFrame.url, node.callFrame.functionName);
    if (b === "idle") return;
    const dt = prof.timeDeltas[i] ?? 0;
    total += dt;
    self.set(b, (self.get(b) ?? 0) + dt);
  });
  console.log(`\nCPU self time by where the code lives (${(total / 1e6).toFixed(1)} s busy; profile: ${biggest}):`);
  for (const [b, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 14)) console.log(`  ${b.padEnd(28)} ${((100 * t) / total).toFixed(1).padStart(5)} %`);
}

main().then(() => process.exit(0), (err) => (console.error(err), process.exit(1)));
