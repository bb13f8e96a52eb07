// `npm test`: every test against real parts. Unit tests (beside the code), then API tests over
// real HTTP against a production build of the app on a fresh database of the local PostgreSQL,
// then browser tests in Debian's Chromium against the same server. The database is created
// here and dropped at the end.
//   npm test                 all of it
//   npm test -- --unit       unit tests only      (--api, --e2e likewise; combinable)
// TEST_DATABASE_ADMIN_URL (default postgresql://postgres@127.0.0.1:5432/postgres) names the server.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, existsSync, rmSync } from "node:fs";
import path from "node:path";
import { deployMigrations, root } from "./lib/schema-engine.ts";
import { scratchDatabase, type ScratchDatabase } from "./lib/scratch-database.ts";
import { freePorts } from "./lib/embedded-db.ts";
import { buildIfStale } from "./lib/build.ts";
import { startNext, waitForHttp, type RunningServer } from "./lib/server.ts";
import { startSimulatedProvider } from "./psp/simulator.ts";
import { SIMULATED_PROVIDERS, providerEnv } from "./psp/providers.ts";
import { startCustodySimulator } from "./custody/simulator.ts";

const args = new Set(process.argv.slice(2));
const only = ["--unit", "--api", "--e2e"].filter((a) => args.has(a));
const run = (part: string) => only.length === 0 || only.includes(part);
// Other arguments narrow each part to the test files whose path contains one of them.
const filters = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const matches = (file: string) => filters.length === 0 || filters.some((f) => file.includes(f));
const say = (s: string) => console.log(`\n[test] ${s}`);

type Tally = { passed: number; failed: number; skipped: number };
const total: Tally = { passed: 0, failed: 0, skipped: 0 };

function findTests(dir: string, re: RegExp, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name === "generated") continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) findTests(p, re, out);
    else if (re.test(e.name)) out.push(path.relative(root, p));
  }
  return out.sort();
}

/** Runs a command, echoing its output, and returns what it printed. */
function exec(cmd: string, argv: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (process.stdout.write(d), (output += d)));
    child.stderr.on("data", (d) => (process.stderr.write(d), (output += d)));
    child.on("exit", (code) => resolve({ code: code ?? 1, output }));
  });
}

async function nodeTests(files: string[], env: Record<string, string>): Promise<boolean> {
  files = files.filter(matches);
  if (files.length === 0) return true;
  const { code, output } = await exec(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=2", "--test-reporter=spec", ...files], env);
  const n = (label: string) => Number(new RegExp(`ℹ ${label} (\\d+)`).exec(output)?.[1] ?? 0);
  total.passed += n("pass");
  total.failed += n("fail") + (code !== 0 && n("fail") === 0 ? 1 : 0);
  total.skipped += n("skipped") + n("todo");
  return code === 0;
}

async function playwright(env: Record<string, string>): Promise<boolean> {
  const report = path.join(root, "test-results/playwright.json");
  rmSync(report, { force: true });
  const { code } = await exec(path.join(root, "node_modules/.bin/playwright"), ["test", ...filters, ...(filters.length ? ["--pass-with-no-tests"] : [])], { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: report });
  if (existsSync(report)) {
    const stats = JSON.parse(readFileSync(report, "utf8")).stats ?? {};
    total.passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
    total.failed += stats.unexpected ?? 0;
    total.skipped += stats.skipped ?? 0;
  } else if (code !== 0) total.failed += 1;
  return code === 0;
}

async function main(): Promise<number> {
  let ok = true;
  const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
  const jwtSecret = "test-jwt-secret-0123456789abcdef0123456789";
  let server: RunningServer | undefined;
  const stops: Array<() => Promise<void>> = [];
  let database: ScratchDatabase | undefined;

  try {
    database = await scratchDatabase(`lp_test_${process.pid}`);
    const databaseUrl = database.url;
    const applied = await deployMigrations(databaseUrl);
    say(`database ${database.name}: ${applied.length} migrations applied`);
    const baseEnv = { APP_ENV: "test", DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: "10", JWT_SECRET: jwtSecret, TEST_REDIS_URL: redisUrl, LOG_LEVEL: "warn" };

    if (run("--unit")) {
      say("unit tests");
      ok = (await nodeTests(["lib", "scripts", "inngest"].flatMap((d) => findTests(path.join(root, d), /\.test\.ts$/)), baseEnv)) && ok;
    }
    if (run("--api") || run("--e2e")) {
      await buildIfStale((s) => say(s));
      // Every port of the run chosen at once, so that none is handed out twice (freePorts).
      const [pagosurPort, andespayPort, rapidpayPort, custodyPort, port] = (await freePorts(5)) as [number, number, number, number, number];
      // The simulated upstream providers: separate HTTP services on loopback.
      const providers = SIMULATED_PROVIDERS([pagosurPort, andespayPort, rapidpayPort], ["sim-pagosur-secret", "sim-andespay-secret", "sim-rapidpay-secret"], ["sim-pagosur-notices", "sim-andespay-notices", "sim-rapidpay-notices"]);
      for (const p of providers) stops.push((await startSimulatedProvider(p)).stop);
      // The simulated custody provider (crypto withdrawals), its own HTTP service as well. Its
      // notices go to the server; tests turn them on per transfer (a rule's `notify`), so the
      // status job's own path stays testable.
      const custody = await startCustodySimulator({ port: custodyPort, secret: "sim-custody-secret-0123456789", noticeSecret: "sim-custody-notices-0123456789", noticeUrl: `http://127.0.0.1:${port}/api/v1/custody/notifications`, notify: false });
      stops.push(custody.close);
      // Sandbox delays ×0.01 (5 s -> 50 ms) and a 100 ms job tick keep timed flows fast.
      const serverEnv = { ...baseEnv, APP_URL: `http://127.0.0.1:${port}`, ENABLE_TEST_FIXTURES: "1", TRUSTED_PROXIES: "127.0.0.1/32",
        // Every test client is 127.0.0.1: the failed-authentication limit is shown by security.test.ts on its own server.
        AUTH_FAILURES_PER_MINUTE: "100000", SIGN_IN_FAILURES_PER_ADDRESS: "100000", SANDBOX_DELAY_SCALE: "0.01", JOBS_TICK_MS: "100",
        RECONCILE_INTERVAL_MS: "1000", WEBHOOK_RETRY_SCALE: "0.001", METRICS_TOKEN: "test-metrics-token-0123456789", ...providerEnv(providers), PROVIDER_PAGOSUR_TIMEOUT_MS: "1500", PROVIDER_ANDESPAY_TIMEOUT_MS: "1500", PROVIDER_RAPIDPAY_TIMEOUT_MS: "1500",
        CUSTODY_URL: custody.url, CUSTODY_SECRET: custody.secret, CUSTODY_NOTICE_SECRET: custody.noticeSecret, CUSTODY_TIMEOUT_MS: "1500" };
      server = startNext({ port, env: serverEnv });
      await waitForHttp(`${server.url}/api/v1/ping`);
      say(`server at ${server.url}`);
      const testEnv = { ...serverEnv, API_URL: server.url, BASE_URL: server.url };
      if (run("--api")) {
        say("API tests");
        // The SDK's own suite (sdk/test) drives the same server through the generated client.
        ok = (await nodeTests([...findTests(path.join(root, "e2e/api"), /\.test\.ts$/), ...findTests(path.join(root, "sdk/test"), /\.test\.ts$/)], testEnv)) && ok;
      }
      if (run("--e2e")) {
        say("browser tests (Playwright, Debian's Chromium)");
        ok = (await playwright(testEnv)) && ok;
      }
    }
  } catch (err) {
    console.error(err instanceof Error ? err.stack : err);
    ok = false;
    total.failed += 1;
  } finally {
    await server?.stop();
    for (const stop of stops) await stop();
    await database?.drop().catch((e) => console.error(`could not drop ${database?.name}: ${e.message}`));
  }
  console.log(`\ntests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
  return ok && total.failed === 0 ? 0 : 1;
}

main().then((code) => process.exit(code));
