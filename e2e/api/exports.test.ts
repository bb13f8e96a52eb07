// CSV exports over real HTTP: each resource's header and rows, exact amounts, times in the
// merchant's time zone, inclusive day ranges read in that zone, environment and merchant scoping,
// formula-safe cells, validation errors, and a stream longer than several batches that loses and
// repeats nothing. (The million-row memory figure is scripts/bench-export.ts.)
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import { api, assertEnvelope, newMerchant, API_URL } from "./helpers.ts";
import { db, sql } from "@/lib/platform/db";
import { EXPORT_BATCH } from "@/lib/exports/export-csv";
import type { CreatedMerchant } from "@/lib/merchants/create-merchant";

after(() => db().$disconnect());

async function csv(key: string, file: string, query: Record<string, string> = {}) {
  const res = await fetch(`${API_URL}/api/v1/exports/${file}?${new URLSearchParams(query)}`, { headers: { authorization: `Bearer ${key}` } });
  const text = await res.text();
  assert.equal(res.status, 200, text.slice(0, 300));
  assert.match(res.headers.get("content-type") ?? "", /^text\/csv/);
  assert.match(res.headers.get("content-disposition") ?? "", /^attachment; filename="[a-z]+-(sandbox|production)-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv"$/);
  const rows = parse(text, { columns: true }) as Record<string, string>[];
  return { rows, header: text.split("\n")[0]!.split(",") };
}

const pay = (m: CreatedMerchant, body: Record<string, unknown>) => api("/payments", { key: m.sandbox.secretKey, body: { paymentMethodId: "sbx_card", ...body } });
const today = (tz: string) => new Intl.DateTimeFormat("en-CA", { timeZone: tz }).format(new Date());

test("payments, ledger, payouts and claims: rows, exact amounts, local times, scoping", async () => {
  const m = await newMerchant({ timeZone: "America/Sao_Paulo" });
  const other = await newMerchant();
  const a = await pay(m, { amount: 12.34, merchantOrderId: "exp-1" });
  const b = await pay(m, { amount: 1.1, merchantOrderId: "=HYPERLINK(\"http://x\")" });
  assert.equal(a.status, 200, a.text);
  await pay(other, { amount: 99, merchantOrderId: "other" });
  await api(`/payments/${a.body.transactionId}/simulate`, { key: m.sandbox.secretKey, body: { action: "paid" } });
  await api(`/payments/${a.body.transactionId}/refund`, { key: m.sandbox.secretKey, body: { amount: 2 } });

  const payments = await csv(m.sandbox.secretKey, "payments.csv");
  assert.equal(payments.header[0], "id");
  assert.deepEqual(payments.rows.map((r) => r.id).sort(), [a.body.transactionId, b.body.transactionId].sort());
  const rowA = payments.rows.find((r) => r.id === a.body.transactionId)!;
  assert.equal(rowA.amount_usd, "12.34");
  assert.equal(rowA.status, "completed");
  assert.equal(rowA.currency_local, a.body.currencyLocal);
  const rowB = payments.rows.find((r) => r.id === b.body.transactionId)!;
  assert.equal(rowB.amount_usd, "1.10");
  assert.equal(rowB.merchant_order_id, "'=HYPERLINK(\"http://x\")", "a formula is neutralised");
  // Created just now: its local time in São Paulo is the row's created_at.
  const local = (await sql<{ local: string }>(`SELECT to_char(created_at AT TIME ZONE 'America/Sao_Paulo', 'YYYY-MM-DD HH24:MI:SS') AS local FROM transactions WHERE id = $1`, [a.body.transactionId]))[0]!.local;
  assert.equal(rowA.created_at, local);
  assert.equal((await csv(m.sandbox.secretKey, "payments.csv", { timeZone: "Asia/Tokyo" })).rows.length, 2);

  const ledger = await csv(m.sandbox.secretKey, "ledger.csv");
  assert.ok(ledger.rows.some((r) => r.kind === "payment_completed" && r.account === "pending" && r.transaction_id === a.body.transactionId));
  assert.ok(ledger.rows.every((r) => ["available", "pending", "reserve", "frozen", "payout_available", "payout_in_flight", "in_transit"].includes(r.account!)), "only the merchant's own accounts");
  const claims = await csv(m.sandbox.secretKey, "claims.csv");
  assert.equal(claims.rows.length, 1);
  assert.equal(claims.rows[0]!.kind, "user_dispute");
  assert.equal(claims.rows[0]!.transaction_id, a.body.transactionId);

  await api("/me/payout/fund-sandbox", { key: m.sandbox.secretKey, body: { currency: "MXN", amount: 500 } });
  const payouts = await csv(m.sandbox.secretKey, "payouts.csv");
  assert.deepEqual(payouts.header.slice(0, 5), ["id", "created_at", "completed_at", "failed_at", "status"]);

  // Another environment, another merchant: nothing of these.
  assert.equal((await csv(m.production.secretKey, "payments.csv")).rows.length, 0);
  assert.ok((await csv(other.sandbox.secretKey, "payments.csv")).rows.every((r) => r.merchant_order_id === "other"));
});

test("day ranges are inclusive and read in the time zone", async () => {
  const m = await newMerchant({ timeZone: "America/Mexico_City" });
  const p = await pay(m, { amount: 5 });
  const day = today("America/Mexico_City");
  assert.equal((await csv(m.sandbox.secretKey, "payments.csv", { from: day, to: day })).rows.length, 1);
  // Put it at 23:30 local time yesterday: a UTC reading of the days would call it today.
  const yesterday = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  await sql(`UPDATE transactions SET created_at = ($1::timestamp AT TIME ZONE 'America/Mexico_City') WHERE id = $2`, [`${yesterday} 23:30:00`, p.body.transactionId]);
  assert.equal((await csv(m.sandbox.secretKey, "payments.csv", { from: day, to: day })).rows.length, 0);
  const y = await csv(m.sandbox.secretKey, "payments.csv", { from: yesterday, to: yesterday });
  assert.equal(y.rows.length, 1);
  assert.equal(y.rows[0]!.created_at, `${yesterday} 23:30:00`);
});

test("bad input is 400 invalid_request naming the parameter; a publishable key is refused; unknown files are 404", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  for (const [query, param] of [
    [{ timeZone: "Mars/Olympus" }, "timeZone"],
    [{ from: "2026-13-01" }, "from"],
    [{ to: "yesterday" }, "to"],
    [{ from: "2026-11-10", to: "2026-11-01" }, "from"],
    [{ from: "2024-01-01", to: "2026-01-01" }, "to"],
  ] as const) {
    const r = await api(`/exports/payments.csv?${new URLSearchParams(query)}`, { key });
    assertEnvelope(r, "invalid_request", 400);
    assert.equal(r.body.error.param, param);
  }
  assertEnvelope(await api("/exports/payments.csv", { key: m.sandbox.publishableKey }), "key_kind_not_allowed", 403);
  assertEnvelope(await api("/exports/secrets.csv", { key }), "route_not_found", 404);
  assertEnvelope(await api("/exports/payments.csv", {}), "missing_credentials", 401);
});

test("a stream of several batches loses and repeats nothing, oldest first", async () => {
  const m = await newMerchant();
  const n = EXPORT_BATCH * 2 + 17;
  // Same created_at for a whole block: the (created_at, id) cursor must still split batches right.
  await sql(
    `INSERT INTO transactions (id, merchant_id, shop_id, environment, status, amount_usd, amount_local, currency_local, payment_method_id, method, rail_name, country,
       fee_platform, fee_provider, fee_network, reserve_amount, settlement_delay, provider, expires_at, created_at, updated_at)
     SELECT 'tx_exp' || lpad(g::text, 6, '0'), $1, $2, 'sandbox', 'pending', g, g * 18, 'MXN', 'sbx_spei', 'spei', 'SPEI (test)', 'MEX', 0, 0, 0, 0, 'T+1', 'sandbox',
       now() + interval '1 hour', date_trunc('second', now()) - make_interval(secs => g / 1000), now()
     FROM generate_series(1, $3) g`,
    [m.merchantId, m.shopId, n],
  );
  const { rows } = await csv(m.sandbox.secretKey, "payments.csv");
  assert.equal(rows.length, n);
  assert.equal(new Set(rows.map((r) => r.id)).size, n);
  const times = rows.map((r) => r.created_at);
  assert.deepEqual(times, [...times].sort(), "oldest first");
});
