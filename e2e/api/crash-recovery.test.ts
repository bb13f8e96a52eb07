// Crash safety of idempotent money requests (issue 16, "Done when" #1): a server under a load of
// idempotent POST /payments, refunds, payout sends and transfers is killed with SIGKILL (its
// whole process group) at random points, several times, and restarted on the same database.
// Every request is retried with its own Idempotency-Key until it gets a final answer. Then every
// key has exactly one effect, nothing is lost, every posting balances per currency and
// ledgerWarnings is empty. The payouts go through a provider (production po_mx_spei to the
// simulated pagosur): debited, handed over with our payout id as the reference, unknown outcomes
// held as processing, finished by the status job and the dispatch sweep; the simulator pays them
// (PAID notices) while the kills go on. So a kill between the debit, the provider call, recording
// its answer and taking the notice must still pay each beneficiary exactly once, complete each
// payout once and debit the MXN payout balance once per payout. Runs on its own database, ports and simulated providers, so that no
// other server or job runner touches its rows. The load (its size, its requests) is crash-recovery-load.ts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { api, ownDatabase, tsx, waitFor, type ApiResponse } from "./helpers.ts";
import { startNext, waitForHttp, type RunningServer } from "../../scripts/lib/server.ts";
import { freePort } from "../../scripts/lib/embedded-db.ts";
import { startSimulatedProvider } from "../../scripts/psp/simulator.ts";
import { SIMULATED_PROVIDERS, providerEnv } from "../../scripts/psp/providers.ts";
import { KILLS, REFUNDS, PAYMENTS, PAYOUTS, TRANSFERS, WORKERS, LEASE_MS, DEADLINE_MS, DEPOSIT_MXN_MINOR, PAYOUT_USD, loadJobs, type Job } from "./crash-recovery-load.ts";

test("SIGKILL under idempotent money requests: after restarts and retries, one effect per key, postings balance, no ledger warnings", { timeout: 240_000 }, async () => {
  const own = await ownDatabase("lp_crashidem");
  const crashDb = own.url;
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
    const liveKey = merchant.production.secretKey as string;
    tsx(["scripts/cli.ts", "fx:set", "--currency", "MXN", "--rate", "18.20"], { DATABASE_URL: crashDb });
    tsx(["scripts/cli.ts", "shop:deposit-methods", "--shop", merchant.shopId, "--enable", "dm_spei_pagosur"], { DATABASE_URL: crashDb });
    await waitForHttp(`${server.url}/api/v1/ping`);
    await db.connect();
    const pagosur = providers.find((p) => p.code === "pagosur")!;
    const psp = async (path: string, body?: unknown) => {
      const r = await fetch(`http://127.0.0.1:${pagosur.port}${path}`, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      return { status: r.status, body: (await r.json()) as any };
    };

    // Setup, before any kill: completed payments to refund, and a settled pay-in balance to transfer from.
    const base = server.url;
    const setup = await Promise.all(
      Array.from({ length: REFUNDS }, (_, i) => api("/payments", { base, key, body: { amount: 50, paymentMethodId: "sbx_card", merchantOrderId: `setup-${i}` }, headers: { "sandbox-simulate": "paid" } })),
    );
    for (const r of setup) assert.equal(r.status, 200, r.text);
    // Production MXN for the payouts: a SPEI deposit through pagosur, settled below with the rest.
    const account = await api("/me/deposit-accounts", { base, key: liveKey, body: { endUserRef: `u-${randomUUID()}`, name: "Pay In", email: "payin@example.com" } });
    assert.ok(account.status === 201 || account.status === 200, account.text);
    const deposit = await psp("/_control/deposits", { clabe: account.body.account.clabe, amount: DEPOSIT_MXN_MINOR, payerName: "Payer", payerBank: "Banorte" });
    assert.deepEqual(deposit.body.statuses, [200]);
    const setupIds = setup.map((r) => r.body.transactionId as string);
    await waitFor(async () => (await db.query(`SELECT count(*)::int AS n FROM transactions WHERE id = ANY($1) AND status = 'completed'`, [setupIds])).rows[0].n === REFUNDS, "setup payments completed", 30_000);
    tsx(["--eval", `import("./lib/settlements/settle-balances.ts").then((m) => m.settleDueBalances({ now: new Date(Date.now() + 90 * 86400e3) })).then(() => process.exit(0))`], { DATABASE_URL: crashDb });
    // A GET is safe to repeat: a keep-alive socket the server closed while the test was busy
    // elsewhere (a job run, the drain) is not a finding.
    const get = (path: string, apiKey: string) => api(path, { base, key: apiKey }).catch(() => api(path, { base, key: apiKey }));
    const balance = await get("/me/balance", key);
    assert.ok(balance.body.balance.available > TRANSFERS * 2, `available ${balance.text}`);
    const moved = await api("/me/payout/transfer", { base, key: liveKey, body: { amountUsd: PAYOUT_USD } });
    assert.equal(moved.status, 200, moved.text);
    const quote = await api(`/me/payout/swap?currency=MXN&amountUsd=${PAYOUT_USD}`, { base, key: liveKey });
    assert.equal(quote.status, 200, quote.text);
    const swapped = await api("/me/payout/swap", { base, key: liveKey, body: { quoteId: quote.body.quoteId } });
    assert.equal(swapped.status, 200, swapped.text);
    // Major units with at most 2 decimals: compare in cents.
    const cents = (major: number) => Math.round(major * 100);
    const mxn = async () => {
      const r = await get("/me/payout/balance", liveKey);
      assert.equal(r.status, 200, r.text);
      return r.body.balances.find((b: any) => b.currency === "MXN") as { available: number; pending: number; reserved: number };
    };
    const funded = cents((await mxn()).available);

    // The load: each job has its own key and a tag that marks its effect in the database.
    const jobs = loadJobs(key, liveKey, setupIds);

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
          const r = await api(job.path, { base, key: job.apiKey, body: job.body, headers: { "idempotency-key": job.key } });
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
    // The provider pays while the load and the kills go on: the simulator marks each payout it
    // received PAID and notifies us, so notices land on a server being killed (taken or not,
    // committed or not) and must complete each payout once.
    const mid = merchant.merchantId as string;
    const driven = new Set<string>();
    // Payouts the provider did not have when the load ended: committed and debited, but the kill
    // came before the hand-over; the sweep or the status job must send them (once).
    const unsent = new Set<string>();
    let lostNotices = 0;
    /** Drives every processing payout the simulator has to PAID; answers how many are processing. */
    async function drivePaid(afterLoad: boolean): Promise<number> {
      const open = (await db.query<{ id: string }>(`SELECT id FROM payouts WHERE merchant_id = $1 AND status = 'processing'`, [mid])).rows;
      for (const { id } of open) {
        if (driven.has(id)) continue;
        const r = await psp(`/_control/payouts/${id}/PAID`, {});
        if (r.status === 404) {
          if (afterLoad) unsent.add(id);
          continue;
        }
        assert.equal(r.status, 200, JSON.stringify(r.body));
        // A notice our server did not take (200) is sent again on the next round.
        if (r.body.statuses.includes(200)) driven.add(id);
        else lostNotices++;
      }
      return open.length;
    }
    let loadDone = false;
    const payer = waitFor(async () => (await drivePaid(false), loadDone), "the load to end", DEADLINE_MS);
    // Its failure is reported where it is awaited, after the load, not as an unhandled rejection.
    payer.catch(() => {});
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
    await workers.finally(() => (loadDone = true));
    await payer;
    assert.ok(retries > 0, "the kills interrupted some requests");
    const replayed = jobs.filter((j) => j.answer!.headers.get("idempotent-replayed") === "true").length;
    console.log(`crash-recovery: ${jobs.length} requests, ${KILLS} kills, ${retries} retries, ${replayed} answered by a replay`);

    // Every request ended in success: the load was sized to fit the balances.
    for (const j of jobs) assert.ok(j.answer!.status === 200 || j.answer!.status === 201, `${j.kind} ${j.key}: ${j.answer!.status} ${j.answer!.text.slice(0, 300)}`);

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
    // After the load, drive what is left; one the simulator never received is re-sent by the
    // dispatch sweep (or by the status job, which asks by reference) and driven on a later round.
    // Done when no payout is processing any more.
    const payoutJobs = jobs.filter((j) => j.kind === "payout");
    const drainStart = Date.now();
    await waitFor(async () => (await drivePaid(true)) === 0, "every payout to leave processing", 90_000);
    console.log(`crash-recovery: payouts finished ${Date.now() - drainStart} ms after the load; ${unsent.size} were not yet at the provider; ${lostNotices} PAID notice deliveries not taken (server down) and sent again`);
    const listed = await get("/me/payout/send?limit=100", liveKey);
    assert.equal(listed.status, 200, listed.text);
    assert.equal(listed.body.data.length, PAYOUTS);
    for (const p of listed.body.data) assert.equal(p.status, "completed", `payout ${p.id}: ${p.status} ${p.failureReason}`);
    // At the provider: each beneficiary (a CLABE of its own per payout) was paid exactly once, its amount.
    for (const j of payoutJobs) {
      const recipient = j.body.recipient as { account: string };
      const b = await psp(`/_control/beneficiaries/${recipient.account}`);
      assert.deepEqual(b.body, { paid: 1, amount: String(Number(j.body.amount) * 100) }, `beneficiary of ${j.tag}`);
    }
    // Our books: the MXN payout balance is what was funded less the completed payouts, nothing
    // held; one debit and one completion posting per payout (the amounts are distinct).
    const paidCents = listed.body.data.reduce((sum: number, p: any) => sum + cents(p.amount), 0);
    assert.equal(paidCents, payoutJobs.reduce((sum, j) => sum + Number(j.body.amount) * 100, 0));
    assert.deepEqual(await mxn(), { currency: "MXN", available: (funded - paidCents) / 100, pending: 0, reserved: 0 });
    const moves = await db.query<{ kind: string; amount: string; n: number }>(
      `SELECT p.kind, e.amount::text AS amount, count(*)::int AS n FROM ledger_postings p JOIN ledger_entries e ON e.posting_id = p.id
       WHERE p.merchant_id = $1 AND p.environment = 'production' AND p.kind IN ('payout_debit', 'payout_completed', 'payout_reversed') AND e.amount > 0
       GROUP BY 1, 2 ORDER BY 1, 2`,
      [mid],
    );
    const expected = ["payout_completed", "payout_debit"].flatMap((kind) => payoutJobs.map((j) => ({ kind, amount: String(Number(j.body.amount) * 100), n: 1 })));
    const order = (rows: Array<{ kind: string; amount: string }>) => [...rows].sort((a, b) => a.kind.localeCompare(b.kind) || Number(a.amount) - Number(b.amount));
    assert.deepEqual(order(moves.rows), order(expected));
    // Transfers: one per amount (in cents).
    const transfers = await db.query<{ cents: string; n: number; id: string }>(
      `SELECT amount_usd::text AS cents, count(*)::int AS n, min(id) AS id FROM payout_transfers WHERE merchant_id = $1 AND environment = 'sandbox' GROUP BY amount_usd`,
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
    tsx(["--eval", `import("./lib/ledger/verify-ledgers.ts").then((m) => m.verifyLedgers({ merchantId: ${JSON.stringify(mid)}, force: true })).then(() => process.exit(0))`], { DATABASE_URL: crashDb });
    const after = await get("/me/balance", key);
    assert.equal(after.status, 200, after.text);
    assert.deepEqual(after.body.ledgerWarnings, []);
    // No record is left claimed by a dead attempt.
    const stuck = await db.query(`SELECT idempotency_key, state FROM idempotency_records WHERE merchant_id = $1 AND state <> 'completed'`, [mid]);
    assert.deepEqual(stuck.rows, []);
  } finally {
    await server.stop();
    for (const stop of stops) await stop().catch(() => {});
    await db.end().catch(() => {});
    await own.drop();
  }
});
