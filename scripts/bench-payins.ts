// Benchmark of pay-ins, side by side with GET /ping on the same server in the same run:
//   POST /api/v1/payments (sandbox, a unique Idempotency-Key per request)
//   GET  /api/v1/payments?limit=50 on a merchant holding 1,000,000 transactions
//   GET  /api/v1/me/balance of a new merchant, and of the same merchant holding 1,000,000 ledger
//        entries (with the running totals the kernel keeps for them): reading a balance must not
//        depend on the ledger's history
// at 50 connections, 10 s each, against a production build on a fresh database of the local
// PostgreSQL. autocannon runs on the same machine and shares its CPU.
//   npm run bench:payins [-- --rows 1000000 --entries 1000000 --duration 10 --connections 50]
import { parseArgs } from "node:util";
import { randomUUID } from "node:crypto";
import autocannon from "autocannon";
import { sql, withBenchServer } from "./lib/bench-server.ts";

const { values } = parseArgs({ options: { rows: { type: "string", default: "1000000" }, entries: { type: "string", default: "1000000" }, duration: { type: "string", default: "10" }, connections: { type: "string", default: "50" } } });
const rows = Number(values.rows);
const entries = Number(values.entries);
const duration = Number(values.duration);
const connections = Number(values.connections);

type Row = { name: string; rps: number; p50: number; p99: number; non2xx: number; errors: number; codes: string };

async function run(name: string, opts: autocannon.Options, conns = connections): Promise<Row> {
  const r = await autocannon({ connections: conns, duration, ...opts });
  const codes = Object.keys((r as { statusCodeStats?: Record<string, unknown> }).statusCodeStats ?? {}).filter((c) => !c.startsWith("2")).join(",");
  return { name, rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts, codes };
}

async function main() {
  await withBenchServer({ DATABASE_POOL_SIZE: "20" }, async (server) => {
    const { databaseUrl } = server;
    const { createMerchant } = await import("../lib/merchants/create-merchant.ts");
    const m = await createMerchant({ name: "Bench", tier: "premium" });
    const key = m.sandbox.secretKey;
    const auth = { authorization: `Bearer ${key}` };

    const seeded = Date.now();
    await sql(
      databaseUrl,
      `INSERT INTO transactions (id, merchant_id, shop_id, environment, status, amount_usd, amount_local, currency_local, fx_rate, payment_method_id, method, rail_name, country,
         fee_platform, fee_provider, fee_network, reserve_amount, settlement_delay, provider, provider_ref, payment_form_url, merchant_order_id, expires_at, created_at, updated_at)
       SELECT 'tx_seed' || lpad(g::text, 17, '0'), $1, $2, 'sandbox', (ARRAY['completed','pending','failed','refunded']::"TransactionStatus"[])[1 + g % 4],
         1000 + g % 50000, (1000 + g % 50000) * 18, 'MXN', 18.2, 'sbx_spei', 'spei', 'SPEI (test)', 'MEX', 54, 6, 10, 0, 'T+1', 'sandbox', 'tx_seed' || g,
         'http://127.0.0.1/pay', 'order-' || g, now(), now() - (g || ' seconds')::interval, now()
       FROM generate_series(1, $3::int) g`,
      [m.merchantId, m.shopId, rows],
    );
    await sql(databaseUrl, "ANALYZE transactions");
    console.log(`seeded ${rows.toLocaleString("en")} transactions in ${((Date.now() - seeded) / 1000).toFixed(0)} s`);

    // The same merchant's ledger: payments completed over the last year and settled, 8 entries
    // each (completion: clearing, pending, 4 fees; settlement: pending -> available), written in
    // SQL, then the running and daily totals the kernel keeps, from those entries.
    const ledgerSeeded = Date.now();
    const payments = Math.ceil(entries / 8);
    await sql(
      databaseUrl,
      `INSERT INTO ledger_postings (id, merchant_id, environment, kind, transaction_id, created_at)
       SELECT 'pst_seed' || k || p, $1, 'sandbox', CASE k WHEN 'c' THEN 'payment_completed' ELSE 'settlement' END, 'tx_seed' || lpad(p::text, 17, '0'),
         now() - ((p::bigint * 365 * 86400 / $2::int) || ' seconds')::interval + CASE k WHEN 'c' THEN interval '0' ELSE interval '2 days' END
       FROM generate_series(1, $2::int) p, unnest(ARRAY['c', 's']) k`,
      [m.merchantId, payments],
    );
    await sql(
      databaseUrl,
      `INSERT INTO ledger_entries (id, posting_id, merchant_id, environment, account, currency, amount, created_at)
       SELECT 'ent_seed' || g, 'pst_seed' || (CASE WHEN leg < 6 THEN 'c' ELSE 's' END) || p, $1, 'sandbox', (ARRAY['provider_clearing','pending','platform_fees','flat_fees','provider_fees','network_fees','pending','available'])[leg + 1], 'USD',
         CASE leg WHEN 0 THEN -(1000 + p % 50000) WHEN 1 THEN 1000 + p % 50000 - 70 WHEN 2 THEN 24 WHEN 3 THEN 30 WHEN 4 THEN 6 WHEN 5 THEN 10 WHEN 6 THEN -(1000 + p % 50000 - 70) ELSE 1000 + p % 50000 - 70 END,
         now() - ((p::bigint * 365 * 86400 / $2::int) || ' seconds')::interval + CASE WHEN leg < 6 THEN interval '0' ELSE interval '2 days' END
       FROM (SELECT g, (g - 1) / 8 + 1 AS p, (g - 1) % 8 AS leg FROM generate_series(1, $3::int) g) s ORDER BY g`,
      [m.merchantId, payments, entries],
    );
    await sql(
      databaseUrl,
      `INSERT INTO ledger_balances (merchant_id, environment, account, currency, balance, entries)
       SELECT merchant_id, environment, account, currency, SUM(amount), COUNT(*) FROM ledger_entries WHERE merchant_id = $1 GROUP BY 1, 2, 3, 4
       ON CONFLICT (merchant_id, environment, account, currency) DO UPDATE SET balance = ledger_balances.balance + EXCLUDED.balance, entries = ledger_balances.entries + EXCLUDED.entries`,
      [m.merchantId],
    );
    await sql(
      databaseUrl,
      `INSERT INTO ledger_daily_totals (merchant_id, environment, account, currency, day, amount)
       SELECT merchant_id, environment, account, currency, (created_at AT TIME ZONE 'UTC')::date, SUM(amount) FROM ledger_entries
       WHERE merchant_id = $1 AND account IN ('provider_clearing', 'platform_fees', 'flat_fees', 'provider_fees', 'network_fees', 'chargeback_fees') GROUP BY 1, 2, 3, 4, 5
       ON CONFLICT (merchant_id, environment, account, currency, day) DO UPDATE SET amount = ledger_daily_totals.amount + EXCLUDED.amount`,
      [m.merchantId],
    );
    await sql(databaseUrl, "ANALYZE ledger_entries; ANALYZE ledger_postings; ANALYZE ledger_balances; ANALYZE ledger_daily_totals");
    console.log(`seeded ${entries.toLocaleString("en")} ledger entries in ${((Date.now() - ledgerSeeded) / 1000).toFixed(0)} s`);
    // The verification job over that ledger (what it costs, and its verdict), before the
    // measurements so that the server's own ticker finds nothing new to check during them.
    const { verifyLedgers } = await import("../lib/ledger/verify-ledgers.ts");
    const verifyStarted = Date.now();
    const [check] = await verifyLedgers({ merchantId: m.merchantId, force: true });
    console.log(`verification job: ${check?.entries.toLocaleString("en")} entries recomputed in ${((Date.now() - verifyStarted) / 1000).toFixed(1)} s, warnings ${JSON.stringify(check?.warnings)}`);
    // A new merchant with one completed payment, for the comparison.
    const fresh = await createMerchant({ name: "Bench new", tier: "premium" });
    const freshAuth = { authorization: `Bearer ${fresh.sandbox.secretKey}` };
    const { createPayment } = await import("../lib/payments/create-payment.ts");
    const { authenticate } = await import("../lib/platform/auth/authenticate.ts");
    const { completePayment } = await import("../lib/payments/transitions.ts");
    const p = await createPayment(await authenticate(freshAuth.authorization, null, { permission: "collect" }), { amount: 10, paymentMethodId: "sbx_card" }, {});
    await completePayment(p.transactionId);

    const body = JSON.stringify({ amount: 12.5, paymentMethodId: "sbx_card", merchantOrderId: "bench" });
    // Warm-up of every route (JIT, pools, caches).
    for (const path of ["/api/v1/ping", "/api/v1/payments?limit=50", "/api/v1/me/balance"]) await autocannon({ url: `${server.url}${path}`, connections: 10, amount: 500, headers: auth });
    await autocannon({ url: `${server.url}/api/v1/me/balance`, connections: 10, amount: 500, headers: freshAuth });
    await autocannon({ url: `${server.url}/api/v1/payments`, method: "POST", connections: 10, amount: 500, headers: { ...auth, "content-type": "application/json" }, body, requests: [{ setupRequest: (r: any) => ({ ...r, headers: { ...r.headers, "idempotency-key": randomUUID() } }) }] });

    const targets: Array<[string, autocannon.Options]> = [
      ["GET /ping", { url: `${server.url}/api/v1/ping`, headers: auth }],
      [
        "POST /payments",
        {
          url: `${server.url}/api/v1/payments`,
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body,
          requests: [{ setupRequest: (r: any) => ({ ...r, headers: { ...r.headers, "idempotency-key": randomUUID() } }) }],
        },
      ],
      ["GET /payments?limit=50", { url: `${server.url}/api/v1/payments?limit=50`, headers: auth }],
      ["GET /me/balance (new)", { url: `${server.url}/api/v1/me/balance`, headers: freshAuth }],
      ["GET /me/balance (1M ent)", { url: `${server.url}/api/v1/me/balance`, headers: auth }],
    ];
    // Saturation at the requested connections, then latency where queueing does not dominate.
    for (const conns of [connections, 4]) {
      const results: Row[] = [];
      for (const [label, opts] of targets) results.push(await run(label, opts, conns));
      console.log(`\n${conns} connections, ${duration} s each; merchant with ${rows.toLocaleString("en")} transactions and ${entries.toLocaleString("en")} ledger entries\n`);
      console.log("endpoint                  req/s   p50 ms   p99 ms  non-2xx  errors  vs ping");
      for (const r of results) {
        console.log(`${r.name.padEnd(24)} ${String(r.rps).padStart(6)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(8)} ${String(r.non2xx).padStart(8)} ${String(r.errors).padStart(7)}   ${(r.rps / results[0]!.rps).toFixed(2)}${r.codes ? `  (${r.codes})` : ""}`);
      }
    }
    // One request at a time: the balance's own latency, a new merchant's against the one with
    // a million ledger entries (target: within 2x).
    const one = [await run("GET /me/balance (new)", targets[3]![1], 1), await run("GET /me/balance (1M ent)", targets[4]![1], 1)];
    console.log(`\n1 connection, ${duration} s each\n`);
    console.log("endpoint                  req/s   p50 ms   p99 ms  non-2xx  errors");
    for (const r of one) console.log(`${r.name.padEnd(24)} ${String(r.rps).padStart(6)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(8)} ${String(r.non2xx).padStart(8)} ${String(r.errors).padStart(7)}${r.codes ? `  (${r.codes})` : ""}`);
    console.log(`GET /me/balance p50, 1M ledger entries vs new merchant: ${(one[1]!.p50 / Math.max(1, one[0]!.p50)).toFixed(2)}x`);
    const { db } = await import("../lib/platform/db.ts");
    await db().$disconnect();
  });
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
