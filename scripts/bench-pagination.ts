// A deep page of a million-row merchant, offset against cursor. Seeds one merchant with N
// payments (INSERT … SELECT generate_series) in a fresh database, then times GET /payments at
// increasing depths both ways (median of 5 after a warm-up), printing milliseconds.
//   npx tsx scripts/bench-pagination.ts [rows=1000000]
import { withBenchServer, sql } from "./lib/bench-server.ts";

const ROWS = Number(process.argv[2] ?? 1_000_000);
const LIMIT = 50;

async function timed(url: string, key: string): Promise<{ ms: number; body: { data: { id: string }[] } }> {
  const t0 = performance.now();
  const r = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  const body = (await r.json()) as { data: { id: string }[] };
  if (!r.ok) throw new Error(`${url}: ${r.status} ${JSON.stringify(body).slice(0, 200)}`);
  return { ms: performance.now() - t0, body };
}

async function median(run: () => Promise<number>, n = 5): Promise<number> {
  await run();
  const xs: number[] = [];
  for (let i = 0; i < n; i++) xs.push(await run());
  xs.sort((a, b) => a - b);
  return xs[Math.floor(n / 2)]!;
}

await withBenchServer({}, async ({ url, databaseUrl }) => {
  const { createMerchant } = await import("../lib/merchants/create-merchant.ts");
  const m = await createMerchant({ name: "Pagination bench", tier: "premium" });
  const t0 = Date.now();
  await sql(
    databaseUrl,
    `INSERT INTO transactions (id, merchant_id, shop_id, environment, status, amount_usd, amount_local, currency_local, payment_method_id, method, rail_name, country,
       fee_platform, fee_provider, fee_network, reserve_amount, settlement_delay, provider, expires_at, created_at, updated_at)
     SELECT 'tx_page' || lpad(g::text, 9, '0'), $1, $2, 'sandbox', 'completed', 1000, 18000, 'MXN', 'sbx_spei', 'spei', 'SPEI (test)', 'MEX', 30, 10, 1, 0, 'T+1', 'sandbox',
       now(), now() - make_interval(secs => g), now()
     FROM generate_series(1, $3) g`,
    [m.merchantId, m.shopId, ROWS],
  );
  await sql(databaseUrl, "ANALYZE transactions");
  console.log(`seeded ${ROWS.toLocaleString("en")} payments in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const key = m.sandbox.secretKey;
  const base = `${url}/api/v1/payments?limit=${LIMIT}`;
  console.log("depth (rows skipped)   offset ms   cursor ms");
  for (const depth of [0, 10_000, 100_000, 500_000, ROWS - LIMIT]) {
    // The cursor of that depth: the payment just before it (newest first = smallest g first).
    const cursorId = depth === 0 ? null : `tx_page${String(depth).padStart(9, "0")}`;
    const offsetMs = await median(async () => (await timed(`${base}&offset=${depth}`, key)).ms);
    const cursorMs = cursorId ? await median(async () => (await timed(`${base}&startingAfter=${cursorId}`, key)).ms) : offsetMs;
    const a = (await timed(`${base}&offset=${depth}`, key)).body.data[0]?.id;
    const b = cursorId ? (await timed(`${base}&startingAfter=${cursorId}`, key)).body.data[0]?.id : a;
    if (a !== b) throw new Error(`offset and cursor disagree at ${depth}: ${a} vs ${b}`);
    console.log(`${depth.toLocaleString("en").padStart(20)}   ${offsetMs.toFixed(1).padStart(9)}   ${cursorMs.toFixed(1).padStart(9)}`);
  }
});
