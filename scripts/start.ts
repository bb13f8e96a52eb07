// `npm start`: the whole service with nothing installed but Node. Without DATABASE_URL it runs
// an embedded PostgreSQL (PGlite) keeping its data in .data/; it applies migrations, in a
// development deployment (APP_ENV unset or development) makes sure a demo merchant exists and
// prints its sandbox keys, builds the app if the sources changed, and serves it on PORT (default
// 3000). `npm run dev` does the same with `next dev`. Production (APP_ENV=production) gets no
// demo data at all: merchants come from `npm run merchant:create`.
// `npm start` runs this file compiled (`node .next/node/start.js`, built by its `prestart`,
// scripts/lib/compile-server.ts), with no transpiler in the process; `npm run dev` runs it
// through tsx.
import "./lib/tracing-first.ts";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseConfig, ConfigError } from "../lib/platform/config.ts";
import { DATA_DIR, EMBEDDED_DATA_DIR, EMBEDDED_DB_ENV, EMBEDDED_STATE_FILE } from "./lib/database.ts";
import { startEmbeddedPostgres } from "./lib/embedded-db.ts";
import { serve, serveOptionsFromEnv } from "./serve.ts";
import { freePort } from "./lib/embedded-db.ts";
import { memoryMark } from "./lib/memory-marks.ts";
import { migrationsUpToDate } from "./lib/migrations-applied.ts";
import { randomBytes } from "node:crypto";
import { spawn } from "node:child_process";
// The simulators (scripts/psp, scripts/custody) are imported where a development start runs
// them: a production process never loads them (compiled, each is a chunk of its own).

const started = Date.now();
const dev = process.argv.includes("--dev");
const say = (s: string) => console.log(`[start] ${s}`);

export const DEMO_EMAIL = "demo@example.test";

type Demo = { merchantId: string; sandbox: { publishableKey: string; secretKey: string }; password?: string };

/**
 * The demo merchant of a development deployment: sandbox keys only (its live key pair is
 * revoked at once), and a dashboard owner whose random password is printed once, at creation
 * (`npm run user:password -- --email demo@example.test` sets a new one). Never called in
 * production.
 */
async function ensureDemoMerchant(databaseKey: string): Promise<Demo> {
  // Keyed by the database's stable name (the embedded one listens on a new port every start).
  const file = path.join(DATA_DIR, `demo-merchant-${createHash("sha256").update(databaseKey).digest("hex").slice(0, 12)}.json`);
  const { db } = await import("../lib/platform/db.ts");
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, "utf8")) as Demo & { production?: unknown };
    const exists = await db().merchant.findUnique({ where: { id: saved.merchantId }, select: { id: true } });
    if (exists) {
      // Demos made before live keys were withheld: revoke them and forget them.
      await db().apiKeyPair.updateMany({ where: { merchantId: saved.merchantId, environment: "production", revokedAt: null }, data: { revokedAt: new Date() } });
      const kept: Demo = { merchantId: saved.merchantId, sandbox: saved.sandbox };
      if (saved.production) writeFileSync(file, JSON.stringify(kept, null, 2), { mode: 0o600 });
      return kept;
    }
  }
  const { createMerchant } = await import("../lib/merchants/create-merchant.ts");
  const { randomPassword } = await import("../lib/dashboard/reset-password.ts");
  const password = randomPassword();
  // A clone whose .data/ was removed keeps its database user: give it a fresh password.
  const existingUser = await db().dashboardUser.findUnique({ where: { email: DEMO_EMAIL }, select: { id: true } });
  const created = await createMerchant({ name: "Demo Store", industry: "retail", tier: "standard", ...(existingUser ? {} : { email: DEMO_EMAIL, password }) });
  await db().apiKeyPair.updateMany({ where: { merchantId: created.merchantId, environment: "production" }, data: { revokedAt: new Date() } });
  const demo: Demo = { merchantId: created.merchantId, sandbox: created.sandbox };
  mkdirSync(path.dirname(file), { recursive: true });
  // Local development only: the demo's sandbox keys are kept in .data/ (git-ignored, owner-only);
  // the password is not kept anywhere.
  writeFileSync(file, JSON.stringify(demo, null, 2), { mode: 0o600 });
  return { ...demo, password: existingUser ? undefined : password };
}

/**
 * Applies pending migrations in a child process (`migrate deploy`, compiled beside this file or
 * through tsx from source) that exits when done: the schema engine (5 MB of WASM and the heap it
 * grows) is not kept for the server's whole life by the process that serves, as it was when the
 * migrations ran here (docs/operators/memory-and-startup.md). A database already up to date
 * (./lib/migrations-applied.ts) needs no child at all.
 */
async function migrate(databaseUrl: string): Promise<string[]> {
  // Up to date (every start after the first): nothing to apply, no child to spawn.
  if (await migrationsUpToDate(databaseUrl)) return [];
  const compiled = !import.meta.url.endsWith(".ts");
  const args = compiled ? [path.join(import.meta.dirname, "migrate.js")] : ["--import", "tsx", path.join(import.meta.dirname, "migrate.ts")];
  const child = spawn(process.execPath, [...args, "deploy", "--json"], { env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d));
  const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  const result = out.split("\n").reverse().find((l) => l.startsWith('{"applied"'));
  if (code !== 0 || !result) throw new Error(`migrations failed (exit ${code})${out ? `:\n${out}` : ""}`);
  return (JSON.parse(result) as { applied: string[] }).applied;
}

async function main() {
  let config;
  try {
    config = parseConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }

  memoryMark("start: modules loaded, configuration read");
  let stopDb = async () => {};
  let databaseUrl = config.DATABASE_URL;
  let poolSize = String(config.DATABASE_POOL_SIZE);
  if (!databaseUrl) {
    const embedded = await startEmbeddedPostgres({ dataDir: EMBEDDED_DATA_DIR });
    databaseUrl = embedded.url;
    Object.assign(process.env, EMBEDDED_DB_ENV);
    // One connection: PGlite runs one statement stream at a time, and its socket server queues
    // what each connection sends chunk by chunk, so two connections' extended-protocol messages
    // (Parse/Bind/Execute) can interleave outside a transaction ("bind message supplies 5
    // parameters, but prepared statement requires 2"). A transaction already held the whole
    // database, so one connection loses no concurrency the embedded database ever had.
    poolSize = "1";
    writeFileSync(EMBEDDED_STATE_FILE, JSON.stringify({ url: embedded.url, port: embedded.port, pid: process.pid }));
    stopDb = async () => {
      rmSync(EMBEDDED_STATE_FILE, { force: true });
      await embedded.stop();
    };
    say(`embedded PostgreSQL (PGlite) on 127.0.0.1:${embedded.port}, data in .data/pglite`);
  } else {
    say("using DATABASE_URL");
  }
  process.env.DATABASE_URL = databaseUrl;
  process.env.DATABASE_POOL_SIZE = "2";

  memoryMark("start: database open");
  const applied = await migrate(databaseUrl);
  memoryMark("start: migrations applied");
  say(applied.length ? `migrations applied: ${applied.join(", ")}` : "database schema is up to date");
  const demo = config.APP_ENV === "development" ? await ensureDemoMerchant(config.DATABASE_URL ?? EMBEDDED_DATA_DIR) : null;
  if (config.APP_ENV !== "production") {
    // Development: today's production FX rates from the sandbox table, so production rails price.
    const { SANDBOX_RATES, setRate } = await import("../lib/money/rates.ts");
    for (const [quote, rate] of Object.entries(SANDBOX_RATES)) if (quote !== "USD") await setRate(quote, rate, "development-seed");
  }
  // The server runs in this process and shares its globals: it must open its own pool, with its
  // own size, not find this closed one. A production start never opened one (migrations have
  // their own connection): it does not load the Prisma client just to close nothing.
  const dbKey = Symbol.for("latam-payments.db");
  if (dbKey in globalThis) {
    const { db } = await import("../lib/platform/db.ts");
    await db().$disconnect();
    delete (globalThis as Record<symbol, unknown>)[dbKey];
  }

  // Development: simulated upstream providers on loopback make the production rails routable.
  // Real deployments set their providers' variables themselves (or PSP_SIMULATORS=off).
  let pspEnv: Record<string, string> = {};
  if (process.env.PSP_SIMULATORS !== "off" && config.APP_ENV !== "production" && !Object.keys(process.env).some((k) => /^PROVIDER_\w+_(URL|SECRET|SECRET_KEY|ACCESS_TOKEN|INTEGRATION_KEY)$/.test(k))) {
    // A free port is free only until someone binds it: the server's PORT is bound after the
    // simulators, so a simulator must never be handed it (a clean clone's test met that: EADDRINUSE).
    const simPort = async (): Promise<number> => {
      for (;;) {
        const p = await freePort();
        if (p !== config.PORT) return p;
      }
    };
    const { startSimulatedProvider } = await import("./psp/simulator.ts");
    const { SIMULATED_PROVIDERS, providerEnv } = await import("./psp/providers.ts");
    const { startRealSimulators } = await import("./psp/real-simulators.ts");
    const sims = SIMULATED_PROVIDERS([await simPort(), await simPort(), await simPort()], ["dev-pagosur-secret", "dev-andespay-secret", "dev-rapidpay-secret"]);
    for (const p of sims) await startSimulatedProvider(p);
    pspEnv = providerEnv(sims);
    say(`simulated providers: ${sims.map((p) => `${p.code} :${p.port}`).join(", ")}`);
    // And the real providers' simulators (Stripe's, Mercado Pago's, EBANX's wire formats), first
    // in each rail's cascade as the real providers are: a development payment takes their paths.
    const real = await startRealSimulators(config.APP_URL, { port: simPort });
    Object.assign(pspEnv, real.env);
    say(`simulated real providers: ${real.sims.map((p) => `${p.code} ${p.url}`).join(", ")}`);
  }
  // Development: a simulated custody provider makes production withdrawals work end to end.
  if (process.env.PSP_SIMULATORS !== "off" && config.APP_ENV !== "production" && !process.env.CUSTODY_URL) {
    const { startCustodySimulator } = await import("./custody/simulator.ts");
    const custody = await startCustodySimulator({ secret: randomBytes(24).toString("hex"), noticeSecret: randomBytes(24).toString("hex"), noticeUrl: `http://127.0.0.1:${config.PORT}/api/v1/custody/notifications` });
    Object.assign(pspEnv, { CUSTODY_URL: custody.url, CUSTODY_SECRET: custody.secret, CUSTODY_NOTICE_SECRET: custody.noticeSecret });
    say(`simulated custody provider :${custody.port}`);
  }

  // Compiled (.next/node/start.js, what `npm start` runs) it builds nothing: its `prestart` built
  // what was stale before this process started, so the server it runs is of the same sources.
  // Run from source (node --import tsx scripts/start.ts) it builds what is stale here.
  memoryMark("start: demo data, simulators");
  if (!dev && import.meta.url.endsWith(".ts")) await (await import("./lib/build.ts")).buildIfStale(say);
  // The server runs in this process (or its WEB_CONCURRENCY workers, forked from it): one tree
  // that stops as one (scripts/serve.ts). APP_ENV and the database go to it through the
  // environment; `next` sets NODE_ENV=production itself for a built app.
  Object.assign(process.env, { APP_ENV: config.APP_ENV, DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: poolSize, ...pspEnv });
  const opts = { ...serveOptionsFromEnv(), port: config.PORT, host: config.HOST, dev };
  await new Promise<void>((resolve, reject) => serve({ ...opts, onReady: () => resolve(), afterStop: stopDb }).catch(reject));
  const base = config.APP_URL;
  const ready = `Latam Payments is running at ${base}   (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`;
  if (!demo) {
    console.log(`\n  ${ready}\n\n  Create a merchant: npm run merchant:create -- --name "Acme" --email owner@acme.example --password …\n  API:  ${base}/api/v1/openapi.json\n`);
    return;
  }
  const owner = demo.password
    ? `${DEMO_EMAIL} / ${demo.password}   (shown once; new one: npm run user:password -- --email ${DEMO_EMAIL})`
    : `${DEMO_EMAIL}   (password shown at first start; new one: npm run user:password -- --email ${DEMO_EMAIL})`;
  console.log(`
  ${ready}

  Demo merchant ${demo.merchantId} (development only), sandbox keys:
    publishable  ${demo.sandbox.publishableKey}
    secret       ${demo.sandbox.secretKey}
  Dashboard owner: ${owner}

  Try:  curl ${base}/api/v1/me -H "Authorization: Bearer ${demo.sandbox.secretKey}"
  API:  ${base}/api/v1/openapi.json
`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack ?? err.message : err);
  process.exit(1);
});
