// CSV export of a million payments: streamed, so the server's memory stays flat. Seeds one
// merchant with N payments (one INSERT … SELECT generate_series) in a fresh database, streams
// GET /exports/payments.csv through real HTTP, and prints rows, bytes, time and the server's
// resident memory (the whole process group, sampled every 100 ms) before and at peak.
//   npx tsx scripts/bench-export.ts [rows=1000000]
import { execFileSync } from "node:child_process";
import { withBenchServer, sql } from "./lib/bench-server.ts";

const ROWS = Number(process.argv[2] ?? 1_000_000);

function groupRssMb(pgid: number): number {
  const out = execFileSync("ps", ["-o", "rss=", "-g", String(pgid)], { encoding: "utf8" });
  return out.split("\n").map(Number).filter((n) => n > 0).reduce((a, b) => a + b, 0) / 1024;
}

await withBenchServer({}, async ({ url, databaseUrl }) => {
  const { createMerchant } = await import("../lib/merchants/create-merchant.ts");
  const m = await createMerchant({ name: "Export bench", tier: "premium", timeZone: "America/Mexico_City" });
  const t0 = Date.now();
  await sql(
    databaseUrl,
    `INSERT INTO transactions (id, merchant_id, shop_id, environment, status, amount_usd, amount_local, currency_local, payment_method_id, method, rail_name, country,
       fee_platform, fee_provider, fee_network, reserve_amount, settlement_delay, provider, merchant_order_id, user_name, user_email, expires_at, created_at, updated_at)
     SELECT 'tx_bench' || lpad(g::text, 9, '0'), $1, $2, 'sandbox', 'completed', 1000 + g % 9000, (1000 + g % 9000) * 18, 'MXN', 'sbx_spei', 'spei', 'SPEI (test)', 'MEX',
       30 + g % 100, 10, 1, 0, 'T+1', 'sandbox', 'order-' || g, 'Buyer ' || g, 'buyer' || g || '@example.com',
       now(), now() - make_interval(secs => g), now()
     FROM generate_series(1, $3) g`,
    [m.merchantId, m.shopId, ROWS],
  );
  await sql(databaseUrl, "ANALYZE transactions");
  console.log(`seeded ${ROWS.toLocaleString("en")} payments in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  const serverPid = Number(execFileSync("sh", ["-c", `ss -ltnpH 'sport = :${new URL(url).port}' | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2`], { encoding: "utf8" }).trim());
  const serverPgid = Number(execFileSync("ps", ["-o", "pgid=", "-p", String(serverPid)], { encoding: "utf8" }).trim());
  const before = groupRssMb(serverPgid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, groupRssMb(serverPgid))), 100);
  const started = Date.now();
  const to = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - 60 * 86_400_000).toISOString().slice(0, 10);
  const res = await fetch(`${url}/api/v1/exports/payments.csv?from=${from}&to=${to}&timeZone=UTC`, { headers: { authorization: `Bearer ${m.sandbox.secretKey}` } });
  if (!res.ok || !res.body) throw new Error(`export answered ${res.status}: ${await res.text()}`);
  let bytes = 0;
  let lines = 0;
  let firstByteMs = 0;
  const progress: string[] = [];
  let nextMark = ROWS / 5;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    if (!firstByteMs) firstByteMs = Date.now() - started;
    bytes += chunk.length;
    for (const b of chunk) if (b === 10) lines++;
    if (lines >= nextMark) {
      progress.push(`${Math.round((lines / ROWS) * 100)}%: ${groupRssMb(serverPgid).toFixed(0)} MB`);
      nextMark += ROWS / 5;
    }
  }
  clearInterval(sampler);
  peak = Math.max(peak, groupRssMb(serverPgid));
  const secs = (Date.now() - started) / 1000;
  console.log(`exported ${(lines - 1).toLocaleString("en")} rows, ${(bytes / 1e6).toFixed(1)} MB in ${secs.toFixed(1)} s (${Math.round((lines - 1) / secs).toLocaleString("en")} rows/s, first byte after ${firstByteMs} ms)`);
  console.log(`server memory (RSS of its process group): ${before.toFixed(0)} MB before, ${peak.toFixed(0)} MB at peak (+${(peak - before).toFixed(0)} MB); during the stream: ${progress.join(", ")}`);
  if (lines - 1 !== ROWS) throw new Error(`expected ${ROWS} rows`);
});
