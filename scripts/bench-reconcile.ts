// Reconciliation under a backlog of open vouchers ("Paid is never lost"): in a fresh database of
// the local PostgreSQL, N pending OXXO vouchers (created over the last three days, open for three
// more) are seeded at one simulated provider (scripts/psp, over HTTP) and in the database, each on
// the steady-state schedule of lib/payments/check-schedule.ts. Then the buyers of 200 random
// vouchers pay and every notice is lost. The job function itself (reconcilePending) is driven as
// the ticker drives it, every check floor, until all 200 are completed. Printed per backlog: how
// long until each lost payment completed (max, in reconciliation periods), the checks made per
// second, and the lag (how far the job was behind its schedule: the age of the oldest due check,
// /metrics' lp_reconcile_lag_seconds) at its worst. Run for N = 2,000 and 20,000.
//   npm run bench:reconcile [-- --period-ms 60000 --sizes 2000,20000 --lost 200]
import os from "node:os";
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { deployMigrations } from "./lib/schema-engine.ts";
import { scratchDatabase } from "./lib/scratch-database.ts";
import { freePort } from "./lib/embedded-db.ts";
import { startSimulatedProvider } from "./psp/simulator.ts";
import { SIMULATED_PROVIDERS, providerEnv } from "./psp/providers.ts";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}
const PERIOD_MS = Number(arg("period-ms", "60000"));
const SIZES = arg("sizes", "2000,20000").split(",").map(Number);
const LOST = Number(arg("lost", "200"));
const MERCHANTS = Number(arg("merchants", "20"));

// The simulated provider runs in a child process of its own (over HTTP, like a real one), so
// the job and the provider do not share one event loop.
if (process.argv[2] === "--serve-simulator") {
  const [p] = SIMULATED_PROVIDERS([Number(process.argv[3]), 0, 0], ["bench-pagosur-secret", "bench-andespay-secret", "bench-rapidpay-secret"]);
  await startSimulatedProvider(p!);
  process.send?.("ready");
  process.on("disconnect", () => process.exit(0));
  await new Promise(() => {});
}

const scratch = await scratchDatabase("lp_bench_reconcile");
const databaseUrl = scratch.url;
// Interrupted: the scratch database and the simulator go too.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    child?.kill();
    void scratch.drop().finally(() => process.exit(130));
  });
}
let child: ReturnType<typeof fork> | undefined;
const ports = [await freePort(), await freePort(), await freePort()] as [number, number, number];
const [pagosur] = SIMULATED_PROVIDERS(ports, ["bench-pagosur-secret", "bench-andespay-secret", "bench-rapidpay-secret"]);
child = fork(fileURLToPath(import.meta.url), ["--serve-simulator", String(ports[0])], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
await new Promise<void>((resolve, reject) => (child!.once("message", () => resolve()), child!.once("exit", (code) => reject(new Error(`simulator exited ${code}`)))));
const sim = { url: `http://127.0.0.1:${ports[0]}`, stop: async () => void child?.kill() };
let failed = false;
try {
  await deployMigrations(databaseUrl);
  Object.assign(process.env, { DATABASE_URL: databaseUrl, APP_ENV: "test", LOG_LEVEL: "warn", RECONCILE_INTERVAL_MS: String(PERIOD_MS), DATABASE_POOL_SIZE: "10", ...providerEnv([pagosur!]) });
  const { createMerchant } = await import("../lib/merchants/create-merchant.ts");
  const { insertTransaction } = await import("../lib/payments/store.ts");
  const { railById } = await import("../lib/rails/rails.ts");
  const { db } = await import("../lib/platform/db.ts");
  const { newId } = await import("../lib/platform/ids.ts");
  const { reconcilePending } = await import("../lib/outcomes/reconcile-pending.ts");
  const { checkFloorMs, nextCheckAt } = await import("../lib/payments/check-schedule.ts");
  const { seedPendingFrom } = await import("./lib/seed-pending.ts");
  const { config } = await import("../lib/platform/config.ts");
  const tickMs = Math.max(config().JOBS_TICK_MS, Math.min(checkFloorMs(PERIOD_MS), 5_000));

  // A platform's open vouchers belong to many merchants (completions of one merchant take its
  // ledger lock one at a time).
  const merchants: Array<Awaited<ReturnType<typeof createMerchant>>> = [];
  for (let i = 0; i < MERCHANTS; i++) merchants.push(await createMerchant({ name: `Reconcile bench ${i}`, tier: "premium" }));
  const m = merchants[0]!;
  const rail = railById("1004")!;
  const DAY = 86_400_000;
  // The template every seeded voucher copies (a real row through the real insert).
  const templateId = newId("transaction");
  const t0 = new Date();
  await db().$transaction((tx) =>
    insertTransaction(
      {
        id: templateId, merchantId: m.merchantId, shopId: m.shopId, environment: "production", status: "expired", amountUsd: 2500n, amountLocal: 45500n, currencyLocal: "MXN",
        inputCurrency: null, inputAmount: null, paymentMethodId: rail.paymentMethodId, method: rail.method, railName: rail.name, country: rail.countryIso3,
        feePlatform: 90n, feeProvider: 63n, feeNetwork: 50n, reserveAmount: 0n, settlementDelay: rail.settlementDelay, provider: "pagosur", providerRef: "template",
        paymentFormUrl: null, instructions: null, hostedCheckout: false, returnUrl: null, merchantOrderId: null, qrOrderId: null, tag1: null, tag2: null, tag3: null,
        userName: "Ana Ruiz", userEmail: "ana@example.com", userPhone: "+525512345678", userIp: null, expiresAt: t0, createdAt: t0, attempts: [],
        settlementStatus: "pending", settleAt: null, refundedLocal: 0n, pendingDebited: 0n, reserveReleaseAt: null, reserveReleasedAt: null, completedAt: null,
      },
      "18.2",
      tx,
    ),
  );

  const lines: string[] = [];
  for (const size of SIZES) {
    // Leftovers of a previous size leave the schedule.
    await db().$executeRaw`UPDATE transactions SET next_check_at = NULL, status = 'expired' WHERE status = 'pending'`;
    const seedStart = Date.now();
    const refs: string[] = [];
    const notifyUrl = "http://127.0.0.1:9/unused"; // notices are lost in this benchmark
    for (let i = 0; i < size; i += 5_000) {
      const n = Math.min(5_000, size - i);
      const r = await fetch(`${sim.url}/_control/charges/bulk`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ charges: Array.from({ length: n }, (_, j) => ({ reference: `bench-${size}-${i + j}`, amount: "45500", currency: "MXN", method: "oxxo", notifyUrl })) }) });
      refs.push(...((await r.json()) as { ids: string[] }).ids);
    }
    // Steady state: each voucher's next check somewhere within its current interval.
    const now = new Date();
    const rows = refs.map((ref) => {
      const createdAt = new Date(now.getTime() - Math.floor(Math.random() * 3 * DAY));
      const expiresAt = new Date(createdAt.getTime() + 3 * DAY);
      const interval = nextCheckAt({ createdAt, expiresAt }, now, PERIOD_MS).getTime() - now.getTime();
      const owner = merchants[Math.floor(Math.random() * merchants.length)]!;
      // Asked one interval before its next check (vouchers days old are long past their first).
      const nextCheck = now.getTime() + Math.floor(Math.random() * interval);
      return { id: newId("transaction"), provider: "pagosur", providerRef: ref, createdAt, expiresAt, nextCheckAt: new Date(nextCheck), checkedAt: new Date(nextCheck - interval), merchantId: owner.merchantId, shopId: owner.shopId };
    });
    await seedPendingFrom(templateId, rows);
    await db().$executeRawUnsafe("ANALYZE transactions");
    const seededMs = Date.now() - seedStart;

    // The buyers of LOST random vouchers pay; every notice is lost.
    const lost = new Set<number>();
    while (lost.size < Math.min(LOST, size)) lost.add(Math.floor(Math.random() * size));
    const lostIds = [...lost].map((i) => rows[i]!.id);
    const paidAt = Date.now();
    await Promise.all([...lost].map((i) => fetch(`${sim.url}/_control/charges/${refs[i]}/paid`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ notify: false }) })));

    // The ticker: a run every tick, each claiming whatever is due.
    let checks = 0;
    let worstLagMs = 0;
    let worstClaimLagMs = 0;
    let runs = 0;
    let done = 0;
    const deadline = paidAt + 4 * PERIOD_MS;
    while (Date.now() < deadline) {
      const started = Date.now();
      const [lag] = await db().$queryRaw<{ s: number | null }[]>`SELECT extract(epoch FROM now() - min(next_check_at))::float8 AS s FROM transactions WHERE next_check_at <= now()`;
      worstLagMs = Math.max(worstLagMs, (lag?.s ?? 0) * 1000);
      const r = await reconcilePending({ periodMs: PERIOD_MS, concurrency: 32, budgetMs: tickMs * 4 });
      runs++;
      checks += r.checked;
      worstClaimLagMs = Math.max(worstClaimLagMs, r.maxLagMs);
      done = await db().transaction.count({ where: { id: { in: lostIds }, status: "completed" } });
      if (done === lostIds.length) break;
      await sleep(Math.max(0, tickMs - (Date.now() - started)));
    }
    const completed = await db().transaction.findMany({ where: { id: { in: lostIds }, status: "completed" }, select: { completedAt: true } });
    const delays = completed.map((c) => c.completedAt!.getTime() - paidAt).sort((a, b) => a - b);
    const elapsed = (Date.now() - paidAt) / 1000;
    const maxDelay = delays.at(-1) ?? NaN;
    const ok = completed.length === lostIds.length && maxDelay <= 2 * PERIOD_MS;
    if (!ok) failed = true;
    const line = `backlog ${String(size).padStart(6)}: ${completed.length}/${lostIds.length} lost notices completed, slowest after ${(maxDelay / 1000).toFixed(1)} s = ${(maxDelay / PERIOD_MS).toFixed(2)} periods (median ${((delays[Math.floor(delays.length / 2)] ?? NaN) / 1000).toFixed(1)} s); ${checks} checks in ${elapsed.toFixed(1)} s (${Math.round(checks / elapsed)}/s, ${runs} runs); worst lag ${(worstLagMs / 1000).toFixed(2)} s (oldest due check at a run's start), ${(worstClaimLagMs / 1000).toFixed(2)} s (due to claimed); seeded in ${(seededMs / 1000).toFixed(1)} s${ok ? "" : "  <-- NOT within two periods"}`;
    console.log(line);
    lines.push(line);
  }
  console.log(`\nload average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")} on ${os.cpus().length} cores`);
  console.log(`period (RECONCILE_INTERVAL_MS) ${PERIOD_MS / 1000} s, job every ${tickMs / 1000} s, ${LOST} lost notices per backlog, ${MERCHANTS} merchants, provider calls 32 at once`);
  await db().$disconnect();
} catch (err) {
  failed = true;
  console.error(err);
} finally {
  await sim.stop();
  await scratch.drop().catch(() => undefined);
}
process.exit(failed ? 1 : 0);
