// `npm start`: the whole service with nothing installed but Node. Without DATABASE_URL it runs
// an embedded PostgreSQL (PGlite) keeping its data in .data/; it applies migrations, makes sure a
// demo merchant exists and prints its sandbox keys, builds the app if the sources changed, and
// serves it on PORT (default 3000). `npm run dev` does the same with `next dev`.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseConfig, ConfigError } from "../lib/config.ts";
import { EMBEDDED_DATA_DIR, EMBEDDED_DB_ENV, EMBEDDED_STATE_FILE } from "./lib/database.ts";
import { startEmbeddedPostgres } from "./lib/embedded-db.ts";
import { deployMigrations, root } from "./lib/schema-engine.ts";
import { buildIfStale } from "./lib/build.ts";
import { startNext, waitForHttp } from "./lib/server.ts";
import { freePort } from "./lib/embedded-db.ts";
import { SIMULATED_PROVIDERS, providerEnv, startSimulatedProvider } from "./psp/simulator.ts";

const started = Date.now();
const dev = process.argv.includes("--dev");
const say = (s: string) => console.log(`[start] ${s}`);

async function ensureDemoMerchant(databaseUrl: string) {
  const file = path.join(root, ".data", `demo-merchant-${createHash("sha256").update(databaseUrl).digest("hex").slice(0, 12)}.json`);
  const { db } = await import("../lib/db.ts");
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, "utf8"));
    const exists = await db().merchant.findUnique({ where: { id: saved.merchantId }, select: { id: true } });
    if (exists) return saved;
  }
  const { createMerchant } = await import("../lib/merchants/create-merchant.ts");
  const created = await createMerchant({ name: "Demo Store", industry: "retail", tier: "premium", email: "demo@example.test", password: "demo-password-123" });
  mkdirSync(path.dirname(file), { recursive: true });
  // Local development only: the demo's secrets are kept in .data/ (git-ignored, owner-only).
  writeFileSync(file, JSON.stringify(created, null, 2), { mode: 0o600 });
  return created;
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

  let stopDb = async () => {};
  let databaseUrl = config.DATABASE_URL;
  let poolSize = String(config.DATABASE_POOL_SIZE);
  if (!databaseUrl) {
    const embedded = await startEmbeddedPostgres({ dataDir: EMBEDDED_DATA_DIR });
    databaseUrl = embedded.url;
    Object.assign(process.env, EMBEDDED_DB_ENV);
    poolSize = process.env.DATABASE_POOL_SIZE ?? "4";
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

  const applied = await deployMigrations(databaseUrl);
  say(applied.length ? `migrations applied: ${applied.join(", ")}` : "database schema is up to date");
  const demo = await ensureDemoMerchant(databaseUrl);
  if (config.APP_ENV !== "production") {
    // Development: today's production FX rates from the sandbox table, so production rails price.
    const { SANDBOX_RATES, setRate } = await import("../lib/money/rates.ts");
    for (const [quote, rate] of Object.entries(SANDBOX_RATES)) if (quote !== "USD") await setRate(quote, rate, "development-seed");
  }
  const { db } = await import("../lib/db.ts");
  await db().$disconnect();

  // Development: simulated upstream providers on loopback make the production rails routable.
  // Real deployments set PROVIDER_<CODE>_URL/_SECRET themselves (or PSP_SIMULATORS=off).
  let pspEnv: Record<string, string> = {};
  if (process.env.PSP_SIMULATORS !== "off" && config.APP_ENV !== "production" && !Object.keys(process.env).some((k) => /^PROVIDER_\w+_URL$/.test(k))) {
    const sims = SIMULATED_PROVIDERS([await freePort(), await freePort(), await freePort()], ["dev-pagosur-secret", "dev-andespay-secret", "dev-rapidpay-secret"]);
    for (const p of sims) await startSimulatedProvider(p);
    pspEnv = providerEnv(sims);
    say(`simulated providers: ${sims.map((p) => `${p.code} :${p.port}`).join(", ")}`);
  }

  if (!dev) buildIfStale(say);
  const server = startNext({ port: config.PORT, dev, host: config.HOST, env: { DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: poolSize, ...pspEnv } });
  const shutdown = async (code: number) => {
    await server.stop();
    await stopDb();
    process.exit(code);
  };
  process.on("SIGINT", () => void shutdown(0));
  process.on("SIGTERM", () => void shutdown(0));
  server.child.once("exit", (code) => void shutdown(code ?? 1));

  await waitForHttp(`${server.url}/api/v1/ping`, 120_000);
  const base = config.APP_URL;
  console.log(`
  Latam Payments is running at ${base}   (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)

  Demo merchant ${demo.merchantId}, sandbox keys:
    publishable  ${demo.sandbox.publishableKey}
    secret       ${demo.sandbox.secretKey}
  Dashboard owner: demo@example.test / demo-password-123

  Try:  curl ${base}/api/v1/me -H "Authorization: Bearer ${demo.sandbox.secretKey}"
  API:  ${base}/api/v1/openapi.json
`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack ?? err.message : err);
  process.exit(1);
});
