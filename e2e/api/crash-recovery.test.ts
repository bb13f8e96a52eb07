// Crash safety of idempotent money requests (issue 16, "Done when" #1): a server under a load of
// idempotent POST /payments, refunds, payout sends and transfers is killed with SIGKILL (its
// whole process group) at random points, several times, and restarted on the same database.
// Every request is retried with its own Idempotency-Key until it gets a final answer. Then every
// key has exactly one effect, nothing is lost, every posting balances per currency and
// ledgerWarnings is empty. Runs on its own database, ports and simulated providers, so that no
// other server or job runner touches its rows.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { api, waitFor, type ApiResponse } from "./helpers.ts";
import { startNext, waitForHttp, type RunningServer } from "../../scripts/lib/server.ts";
import { freePort } from "../../scripts/lib/embedded-db.ts";
import { clabeCheckDigit } from "@/lib/rails/document-rules";
import { SIMULATED_PROVIDERS, providerEnv, startSimulatedProvider } from "../../scripts/psp/simulator.ts";

const KILLS = 3;
const PAYMENTS = 90;
const REFUNDS = 30;
const PAYOUTS = 30;
const TRANSFERS = 30;
const WORKERS = 8;
const LEASE_MS = 1000;
/** Every request gets a final answer within this, across kills and restarts. */
const DEADLINE_MS = 150_000;

const tsx = (args: string[], env: Record<string, string>) => {
  const r = spawnSync(process.execPath, ["--import", "tsx", ...args], { env: { ...process.env, ...env }, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${args.join(" ")} failed: ${r.stderr}`);
  return r.stdout.trim().split("\n").pop()!;
};

type Job = { kind: "payment" | "refund" | "payout" | "transfer"; key: string; path: string; body: Record<string, unknown>; tag: string; answer?: ApiResponse };

test("SIGKILL under idempotent money requests: after restarts and retries, one effect per key, postings balance, no ledger warnings", { timeout: 240_000 }, async () => {
  const admin = new URL(process.env.DATABASE_URL!);
  const name = `lp_crashidem_${Date.now().toString(36)}`;
  const url = new URL(admin);
  url.pathname = `/${name}`;
  admin.pathname = "/postgres";
  const adminClient = new pg.Client({ connectionString: admin.toString() });
  await adminClient.connect();
  await adminClient.query(`CREATE DATABASE "${name}"`);
  const crashDb = url.toString();
  const db = new pg.Client({ connectionString: crashDb });

  const providers = SIMULATED_PROVIDERS([await freePort(), await freePort(), await freePort()], ["crash-pagosur-secret", "crash-andespay-secret", "crash-rapidpay-secret"]);
  const stops: Array<() => Promise<void>> = [];
  for (const p of providers) stops.push((await startSimulatedProvider(p)).stop);
  const port = await freePort();
  const env = {
    ...(process.env as Record<string, string>),
    ...providerEnv(providers),
    DATABASE_URL: crashDb,
    APP_URL: `http://127.0.0.1:${port}`,
    ENABLE_TEST_FIXTURES: "0",
    SANDBOX_DELAY_SCALE: "0.01",
    JOBS_TICK_MS: "100",
    IDEMPOTENCY_LEASE_MS: String(LEASE_MS),
    LOG_LEVEL: "fatal",
  };
  let server: RunningServer = startNext({ port, env, stdio: "ignore" });
  try {
    tsx(["scripts/migrate.ts", "deploy"], { DATABASE_URL: crashDb });
    const merchant = JSON.parse(tsx(["scripts/cli.ts", "merchant:create", "--name", "Crash Idem", "--tier", "premium", "--json"], { DATABASE_URL: crashDb }));
    const key = merchant.sandbox.secretKey as string;
    await waitForHttp(`${server.url}/api/v1/ping`);
    await db.connect();

    // Setup, before any kill: completed payments to refund, and a settled pay-in balance to transfer from.
    const base = server.url;
    const setup = await Promise.all(
      Array.from({ length: REFUNDS }, (_, i) => api("/payments", { base, key, body: { amount: 50, paymentMethodId: "sbx_card", merchantOrderId: `setup-${i}` }, headers: { "sandbox-simulate": "paid" } })),
    );
    for (const r of setup) assert.equal(r.status, 200, r.text);
    const setupIds = setup.map((r) => r.body.transactionId as string);
    await waitFor(async () => (await db.query(`SELECT count(*)::int AS n FROM transactions WHERE id = ANY($1) AND status = 'completed'`, [setupIds])).rows[0].n === REFUNDS, "setup payments completed", 30_000);
    tsx(["--eval", `import("./lib/jobs/settle-balances.ts").then((m) => m.settleDueBalances({ now: new Date(Date.now() + 90 * 86400e3) })).then(() => process.exit(0))`], { DATABASE_URL: crashDb });
    // A GET is safe to repeat: a keep-alive socket the server closed while the settle job ran is not a finding.
    const balance = await api("/me/balance", { base, key }).catch(() => api("/me/balance", { base, key }));
    assert.ok(balance.body.balance.available > TRANSFERS * 2, `available ${balance.text}`);

    // The load: each job has its own key and a tag that marks its effect in the database.
    const jobs: Job[] = [];
    for (let i = 0; i < PAYMENTS; i++) {
      const tag = `crash-${i}-${randomUUID().slice(0, 8)}`;
      jobs.push({ kind: "payment", key: `pay-${tag}`, path: "/payments", body: { amount: 10 + (i % 7), paymentMethodId: "sbx_card", merchantOrderId: tag }, tag });
    }
    for (let i = 0; i < REFUNDS; i++) jobs.push({ kind: "refund", key: `ref-${randomUUID()}`, path: `/payments/${setupIds[i]}/refund`, body: { amount: 5, reason: "crash test" }, tag: setupIds[i]! });
    for (let i = 0; i < PAYOUTS; i++) {
      const tag = `Crash Payee ${i} ${randomUUID().slice(0, 8)}`;
      jobs.push({ kind: "payout", key: `po-${randomUUID()}`, path: "/me/payout/send", body: { methodId: "sbx_po_mx_spei", amount: 100 + i, recipient: { name: tag, account: `00218001234567890${clabeCheckDigit("00218001234567890")}`, bankCode: "002", documentId: "GODE561231GR8", documentType: "RFC" } }, tag });
    }
    // Distinct amounts tell the transfers apart in the database.
    for (let i = 0; i < TRANSFERS; i++) jobs.push({ kind: "transfer", key: `tr-${randomUUID()}`, path: "/me/payout/transfer", body: { amountUsd: (100 + i) / 100 }, tag: String(100 + i) });
    // Interleave the kinds so every kind is in flight at each kill.
    jobs.sort(() => Math.random() - 0.5);

    const deadline = Date.now() + DEADLINE_MS;
    let answered = 0;
    let retries = 0;
    // A final answer: anything but a lost connection, a 5xx, or a 409 for a key still in progress.
    const final = (r: ApiResponse) => r.status < 500 && !(r.status === 409 && r.body?.error?.details?.reason === "in_progress");
    async function runJob(job: Job) {
      let pause = 20;
      for (;;) {
        assert.ok(Date.now() < deadline, `${job.kind} ${job.key} got no final answer in time`);
        try {
          const r = await api(job.path, { base, key, body: job.body, headers: { "idempotency-key": job.key } });
          if (final(r)) {
            job.answer = r;
            answered++;
            return;
          }
        } catch {
          // The server is down (killed): retry once it is back.
        }
        retries++;
        await new Promise((r) => setTimeout(r, pause));
        pause = Math.min(pause * 2, 250);
      }
    }
    const queue = [...jobs];
    const workers = Promise.all(Array.from({ length: WORKERS }, async () => {
      for (let job = queue.shift(); job; job = queue.shift()) await runJob(job);
    }));

    // The killer: at a random count of answers, SIGKILL the whole process group, then restart.
    const total = jobs.length;
    for (let k = 0; k < KILLS; k++) {
      const at = Math.floor(((k + 0.2 + Math.random() * 0.6) / (KILLS + 1)) * total);
      await waitFor(async () => answered >= at || queue.length === 0, `${at} answers before kill ${k + 1}`, DEADLINE_MS);
      process.kill(-server.child.pid!, "SIGKILL");
      await new Promise((r) => (server.child.exitCode !== null || server.child.signalCode !== null ? r(null) : server.child.once("exit", r)));
      server = startNext({ port, env, stdio: "ignore" });
      await waitForHttp(`${server.url}/api/v1/ping`, DEADLINE_MS);
    }
    await workers;
    assert.ok(retries > 0, "the kills interrupted some requests");
    const replayed = jobs.filter((j) => j.answer!.headers.get("idempotent-replayed") === "true").length;
    console.log(`crash-recovery: ${jobs.length} requests, ${KILLS} kills, ${retries} retries, ${replayed} answered by a replay`);

    // Every request ended in success: the load was sized to fit the balances.
    for (const j of jobs) assert.ok(j.answer!.status === 200 || j.answer!.status === 201, `${j.kind} ${j.key}: ${j.answer!.status} ${j.answer!.text.slice(0, 300)}`);

    const mid = merchant.merchantId as string;
    // Payments: one row per merchantOrderId, the one the answer named.
    const payments = await db.query<{ merchant_order_id: string; n: number; id: string }>(
      `SELECT merchant_order_id, count(*)::int AS n, min(id) AS id FROM transactions WHERE merchant_id = $1 AND merchant_order_id LIKE 'crash-%' GROUP BY merchant_order_id`,
      [mid],
    );
    const byOrder = new Map(payments.rows.map((r) => [r.merchant_order_id, r]));
    for (const j of jobs.filter((j) => j.kind === "payment")) {
      const row = byOrder.get(j.tag);
      assert.ok(row, `payment ${j.tag} was lost`);
      assert.equal(row.n, 1, `payment ${j.tag} has ${row.n} rows`);
      assert.equal(j.answer!.body.transactionId, row.id);
    }
    assert.equal(payments.rows.length, PAYMENTS);
    // Refunds: one refund claim per refunded payment.
    const refunds = await db.query<{ transaction_id: string; n: number; id: string }>(
      `SELECT transaction_id, count(*)::int AS n, min(id) AS id FROM claims WHERE merchant_id = $1 AND kind = 'user_dispute' GROUP BY transaction_id`,
      [mid],
    );
    assert.equal(refunds.rows.length, REFUNDS);
    for (const j of jobs.filter((j) => j.kind === "refund")) {
      const row = refunds.rows.find((r) => r.transaction_id === j.tag);
      assert.ok(row, `refund of ${j.tag} was lost`);
      assert.equal(row.n, 1, `payment ${j.tag} was refunded ${row.n} times`);
      assert.equal(j.answer!.body.refundId, row.id);
    }
    // Payouts: one per beneficiary name.
    const payouts = await db.query<{ name: string; n: number; id: string }>(
      `SELECT recipient->>'name' AS name, count(*)::int AS n, min(id) AS id FROM payouts WHERE merchant_id = $1 GROUP BY 1`,
      [mid],
    );
    assert.equal(payouts.rows.length, PAYOUTS);
    for (const j of jobs.filter((j) => j.kind === "payout")) {
      const row = payouts.rows.find((r) => r.name === j.tag);
      assert.ok(row, `payout ${j.tag} was lost`);
      assert.equal(row.n, 1, `payout ${j.tag} was sent ${row.n} times`);
      assert.equal(j.answer!.body.payout.id, row.id);
    }
    // Transfers: one per amount (in cents).
    const transfers = await db.query<{ cents: string; n: number; id: string }>(
      `SELECT amount_usd::text AS cents, count(*)::int AS n, min(id) AS id FROM payout_transfers WHERE merchant_id = $1 GROUP BY amount_usd`,
      [mid],
    );
    assert.equal(transfers.rows.length, TRANSFERS);
    for (const j of jobs.filter((j) => j.kind === "transfer")) {
      const row = transfers.rows.find((r) => r.cents === j.tag);
      assert.ok(row, `transfer of ${j.tag} cents was lost`);
      assert.equal(row.n, 1, `transfer of ${j.tag} cents ran ${row.n} times`);
      assert.equal(j.answer!.body.transfer.id, row.id);
    }
    // The money: every posting balances per currency, and the ledger's own checks are clean.
    const unbalanced = await db.query(`SELECT posting_id, currency, sum(amount)::text AS sum FROM ledger_entries GROUP BY posting_id, currency HAVING sum(amount) <> 0`);
    assert.deepEqual(unbalanced.rows, []);
    // ledgerWarnings is the verification job's stored result: run it now over the whole history.
    tsx(["--eval", `import("./lib/jobs/verify-ledgers.ts").then((m) => m.verifyLedgers({ merchantId: ${JSON.stringify(mid)}, force: true })).then(() => process.exit(0))`], { DATABASE_URL: crashDb });
    const after = await api("/me/balance", { base, key });
    assert.equal(after.status, 200, after.text);
    assert.deepEqual(after.body.ledgerWarnings, []);
    // No record is left claimed by a dead attempt.
    const stuck = await db.query(`SELECT idempotency_key, state FROM idempotency_records WHERE merchant_id = $1 AND state <> 'completed'`, [mid]);
    assert.deepEqual(stuck.rows, []);
  } finally {
    await server.stop();
    for (const stop of stops) await stop().catch(() => {});
    await db.end().catch(() => {});
    await adminClient.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
    await adminClient.end();
  }
});
