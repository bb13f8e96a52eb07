// Benchmark of pay-ins, side by side with GET /ping on the same server in the same run:
//   POST /api/v1/payments (sandbox, a unique Idempotency-Key per request)
//   GET  /api/v1/payments?limit=50 on a merchant holding 1,000,000 transactions
// at 50 connections, 10 s each, against a production build on a fresh database of the local
// PostgreSQL. autocannon runs on the same machine and shares its CPU.
//   npm run bench:payins [-- --rows 1000000 --duration 10 --connections 50]
import { parseArgs } from "node:util";
import { randomUUID } from "node:crypto";
import autocannon from "autocannon";
import { sql, withBenchServer } from "./lib/bench-server.ts";

const { values } = parseArgs({ options: { rows: { type: "string", default: "1000000" }, duration: { type: "string", default: "10" }, connections: { type: "string", default: "50" } } });
const rows = Number(values.rows);
const duration = Number(values.duration);
const connections = Number(values.connections);

type Row = { name: string; rps: number; p50: number; p99: number; non2xx: number; errors: number };

async function run(name: string, opts: autocannon.Options, conns = connections): Promise<Row> {
  const r = await autocannon({ connections: conns, duration, ...opts });
  return { name, rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts };
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

    const body = JSON.stringify({ amount: 12.5, paymentMethodId: "sbx_card", merchantOrderId: "bench" });
    // Warm-up of every route (JIT, pools, caches).
    for (const path of ["/api/v1/ping", "/api/v1/payments?limit=50"]) await autocannon({ url: `${server.url}${path}`, connections: 10, amount: 500, headers: auth });
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
    ];
    // Saturation at the requested connections, then latency where queueing does not dominate.
    for (const conns of [connections, 4]) {
      const results: Row[] = [];
      for (const [label, opts] of targets) results.push(await run(label, opts, conns));
      console.log(`\n${conns} connections, ${duration} s each; merchant with ${rows.toLocaleString("en")} transactions\n`);
      console.log("endpoint                  req/s   p50 ms   p99 ms  non-2xx  errors  vs ping");
      for (const r of results) {
        console.log(`${r.name.padEnd(24)} ${String(r.rps).padStart(6)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(8)} ${String(r.non2xx).padStart(8)} ${String(r.errors).padStart(7)}   ${(r.rps / results[0]!.rps).toFixed(2)}`);
      }
    }
    const { db } = await import("../lib/db.ts");
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
