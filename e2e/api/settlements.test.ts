// Settlement batches over real HTTP (decisions.md "Settlements (batches)"): a merchant with
// completed and settled payments closes the right amount, its PDF receipt opens and shows the
// period, totals and net (text extracted here with unpdf); paid once (409 on a second payment,
// also from the operator CLI), failed returns the gross; minimum and destination; parallel runs
// close once; the daily job; both environments; 404s; the CSV export.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { extractText, getDocumentProxy } from "unpdf";
import { api, assertEnvelope, newMerchant, tsx, waitFor, API_URL } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { settleDueBalances } from "@/lib/settlements/settle-balances";
import { closeDueSettlements } from "@/lib/settlements/close-due-settlements";
import type { CreatedMerchant } from "@/lib/merchants/create-merchant";

after(() => db().$disconnect());

const DAY = 86_400_000;
const TRON = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";

async function fundedMerchant(tier: "standard" | "premium" = "standard", destination = true): Promise<CreatedMerchant> {
  const m = await newMerchant({ tier });
  const key = m.sandbox.secretKey;
  if (destination) assert.equal((await api("/me/settlement-destination", { key, method: "PUT", body: { asset: "USDT", network: "TRON", address: TRON } })).status, 200);
  const pays = [
    { amount: 60, paymentMethodId: "sbx_card" },
    { amount: 60, paymentMethodId: "sbx_card" },
    { amount: 30, paymentMethodId: "sbx_pix", documentId: "529.982.247-25", userName: "Ana Souza", userEmail: "ana@example.com" },
  ];
  for (const body of pays) {
    const p = await api("/payments", { key, body });
    assert.equal(p.status, 200, p.text);
    assert.equal((await api(`/payments/${p.body.transactionId}/simulate`, { key, body: { action: "paid" } })).status, 200);
  }
  await settleDueBalances({ now: new Date(Date.now() + 4 * DAY), merchantId: m.merchantId });
  return m;
}

const balance = async (key: string) => (await api("/me/balance", { key })).body;

test("a batch closes the available balance, less the tier's fee; its receipt shows period, totals and net; paid once", async () => {
  const m = await fundedMerchant("standard");
  const key = m.sandbox.secretKey;
  const before = await balance(key);
  assert.ok(before.balance.available >= 50, JSON.stringify(before.balance));

  const run = await api("/settlements/run", { key, body: {} });
  assert.equal(run.status, 200, run.text);
  const s = run.body.settlement;
  assert.equal(run.body.skipped, null);
  assert.match(s.id, /^stl_/);
  assert.equal(s.status, "closed");
  assert.equal(s.grossUsd, before.balance.available);
  assert.equal(s.feeUsd, before.withdrawalFeeUsd);
  assert.equal(s.netUsd, Math.round((s.grossUsd - s.feeUsd) * 100) / 100);
  assert.equal(s.transactionCount, 3);
  assert.deepEqual(s.destination, { asset: "USDT", network: "TRON", address: TRON });
  const after1 = await balance(key);
  assert.equal(after1.balance.available, 0);
  assert.deepEqual(after1.ledgerWarnings, []);
  assert.equal((await db().event.count({ where: { type: "settlement.closed", merchantId: m.merchantId } })), 1);

  // The receipt: a job renders it, then settlement.pdf_ready.
  await waitFor(async () => (await api(`/settlements/${s.id}`, { key })).body.settlement.receiptReady, "the receipt");
  const res = await fetch(`${API_URL}/api/v1/settlements/${s.id}/receipt`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "application/pdf");
  assert.match(res.headers.get("content-disposition") ?? "", /attachment; filename="settlement-stl_\w+-\d{4}-\d{2}-\d{2}\.pdf"/);
  const pdf = await getDocumentProxy(new Uint8Array(await res.arrayBuffer()));
  const { text } = await extractText(pdf, { mergePages: true });
  assert.match(text, /Settlement receipt/);
  assert.ok(text.includes(s.periodFrom.slice(0, 10)) && text.includes(s.periodTo.slice(0, 10)), "the period");
  assert.match(text, /Card \(test\)/);
  assert.match(text, /PIX \(test\)/);
  assert.match(text, /Transactions: 3/);
  assert.ok(text.includes(`Gross (available balance at close): ${s.grossUsd.toFixed(2)} USD`), text);
  assert.ok(text.includes(`Withdrawal fee: ${s.feeUsd.toFixed(2)} USD`));
  assert.ok(text.includes(`Net sent: ${s.netUsd.toFixed(2)} USD`));
  assert.ok(text.includes(TRON));
  assert.equal(await db().event.count({ where: { type: "settlement.pdf_ready", merchantId: m.merchantId } }), 1);

  // Paid once; a second payment is 409.
  const paid = await api(`/settlements/${s.id}/simulate`, { key, body: { action: "paid" } });
  assert.equal(paid.status, 200, paid.text);
  assert.equal(paid.body.settlement.status, "paid");
  assert.match(paid.body.settlement.txHash, /^[0-9a-f]{64}$/);
  assertEnvelope(await api(`/settlements/${s.id}/simulate`, { key, body: { action: "paid" } }), "settlement_already_paid", 409);
  assertEnvelope(await api(`/settlements/${s.id}/simulate`, { key, body: { action: "failed" } }), "settlement_already_paid", 409);
  // The operator CLI refuses it too.
  assert.throws(() => tsx(["scripts/cli.ts", "settlement:pay", "--id", s.id, "--tx-hash", "a".repeat(64)], {}), /paid already/);
  assert.equal((await balance(key)).balance.available, 0);
  assert.deepEqual((await balance(key)).ledgerWarnings, []);
  // The receipt is rendered again with the txHash.
  await waitFor(async () => (await db().event.count({ where: { type: "settlement.pdf_ready", merchantId: m.merchantId } })) === 2, "the receipt with its txHash");
  const again = await getDocumentProxy(new Uint8Array(await (await fetch(`${API_URL}/api/v1/settlements/${s.id}/receipt`, { headers: { authorization: `Bearer ${key}` } })).arrayBuffer()));
  assert.ok((await extractText(again, { mergePages: true })).text.includes(paid.body.settlement.txHash));

  // Listed, and in the CSV export.
  const list = await api("/settlements?status=paid", { key });
  assert.deepEqual(list.body.data.map((x: { id: string }) => x.id), [s.id]);
  const csv = await (await fetch(`${API_URL}/api/v1/exports/settlements.csv`, { headers: { authorization: `Bearer ${key}` } })).text();
  assert.ok(csv.includes(s.id));
});

test("failed: the gross goes back to available; the operator CLI pays a closed batch once", async () => {
  const m = await fundedMerchant("premium");
  const key = m.sandbox.secretKey;
  const gross = (await balance(key)).balance.available;
  const s = (await api("/settlements/run", { key, body: {} })).body.settlement;
  const failed = await api(`/settlements/${s.id}/simulate`, { key, body: { action: "failed" } });
  assert.equal(failed.body.settlement.status, "failed");
  assert.equal(failed.body.settlement.failureReason, "simulated_failure");
  assert.equal((await balance(key)).balance.available, gross);
  assertEnvelope(await api(`/settlements/${s.id}/simulate`, { key, body: { action: "paid" } }), "invalid_request", 400);

  // The next batch sweeps the same payments again; the CLI records its payment.
  const next = (await api("/settlements/run", { key, body: {} })).body.settlement;
  assert.equal(next.transactionCount, 3);
  const hash = "b".repeat(64);
  const out = JSON.parse(tsx(["scripts/cli.ts", "settlement:pay", "--id", next.id, "--tx-hash", hash, "--json"], {}));
  assert.equal(out.settlement.status, "paid");
  assert.equal(out.settlement.txHash, hash);
  assert.deepEqual((await balance(key)).ledgerWarnings, []);
});

test("skipped below 50 USD or without a destination; two runs at once close one batch; the daily job closes once", async () => {
  const poor = await newMerchant();
  await api("/me/settlement-destination", { key: poor.sandbox.secretKey, method: "PUT", body: { asset: "USDT", network: "TRON", address: TRON } });
  assert.deepEqual((await api("/settlements/run", { key: poor.sandbox.secretKey, body: {} })).body, { settlement: null, skipped: "below_minimum" });
  const noDest = await fundedMerchant("standard", false);
  assert.deepEqual((await api("/settlements/run", { key: noDest.sandbox.secretKey, body: {} })).body, { settlement: null, skipped: "no_destination" });

  const m = await fundedMerchant("standard");
  const runs = await Promise.all([1, 2, 3].map(() => api("/settlements/run", { key: m.sandbox.secretKey, body: {} })));
  assert.deepEqual(runs.map((r) => r.status), [200, 200, 200]);
  assert.equal(runs.filter((r) => r.body.settlement).length, 1);
  assert.equal(await db().settlement.count({ where: { merchantId: m.merchantId } }), 1);

  const daily = await fundedMerchant("standard");
  const tomorrow = new Date(Date.now() + DAY);
  // Only this test's merchant: the job would close every other test's merchant for tomorrow too.
  await closeDueSettlements({ now: tomorrow, merchantIds: [daily.merchantId] });
  await closeDueSettlements({ now: tomorrow, merchantIds: [daily.merchantId] });
  const batches = await db().settlement.findMany({ where: { merchantId: daily.merchantId } });
  assert.equal(batches.length, 1);
  assert.equal(batches[0]!.periodTo.toISOString(), new Date(Date.UTC(tomorrow.getUTCFullYear(), tomorrow.getUTCMonth(), tomorrow.getUTCDate())).toISOString());
});

test("sandbox: waiveMinimum closes a balance under 50 USD (never one under the fee); the daily job keeps the minimum; a live key is refused", async () => {
  const m = await newMerchant({ tier: "standard" });
  const key = m.sandbox.secretKey;
  assert.equal((await api("/me/settlement-destination", { key, method: "PUT", body: { asset: "USDT", network: "TRON", address: TRON } })).status, 200);
  // Nothing available: nothing to close, minimum waived or not (the fee is never paid from nothing).
  assert.deepEqual((await api("/settlements/run", { key, body: { waiveMinimum: true } })).body, { settlement: null, skipped: "below_minimum" });
  const p = await api("/payments", { key, body: { amount: 20, paymentMethodId: "sbx_card" } });
  assert.equal((await api(`/payments/${p.body.transactionId}/simulate`, { key, body: { action: "paid" } })).status, 200);
  await settleDueBalances({ now: new Date(Date.now() + 4 * DAY), merchantId: m.merchantId });
  const available = (await balance(key)).balance.available;
  assert.ok(available > 1 && available < 50, `a small balance: ${available}`);
  // The daily job and a plain run keep the minimum.
  await closeDueSettlements({ now: new Date(Date.now() + DAY), merchantIds: [m.merchantId] });
  assert.equal(await db().settlement.count({ where: { merchantId: m.merchantId } }), 0);
  assert.deepEqual((await api("/settlements/run", { key, body: {} })).body, { settlement: null, skipped: "below_minimum" });
  assertEnvelope(await api("/settlements/run", { key, body: { waiveMinimum: "yes" } }), "invalid_request", 400);
  assertEnvelope(await api("/settlements/run", { key: m.production.secretKey, body: { waiveMinimum: true } }), "production_key_refused", 400);

  const run = await api("/settlements/run", { key, body: { waiveMinimum: true } });
  assert.equal(run.status, 200, run.text);
  assert.equal(run.body.skipped, null);
  assert.equal(run.body.settlement.grossUsd, available);
  assert.equal(run.body.settlement.netUsd, Math.round((available - run.body.settlement.feeUsd) * 100) / 100);
  assert.equal(run.body.settlement.transactionCount, 1);
  const after = await balance(key);
  assert.equal(after.balance.available, 0);
  assert.deepEqual(after.ledgerWarnings, []);
});

test("environments and 404s", async () => {
  const m = await fundedMerchant("standard");
  const other = await newMerchant();
  const s = (await api("/settlements/run", { key: m.sandbox.secretKey, body: {} })).body.settlement;
  assertEnvelope(await api("/settlements/run", { key: m.production.secretKey, body: {} }), "production_key_refused", 400);
  assertEnvelope(await api(`/settlements/${s.id}/simulate`, { key: m.production.secretKey, body: { action: "paid" } }), "production_key_refused", 400);
  assertEnvelope(await api(`/settlements/${s.id}`, { key: m.production.secretKey }), "settlement_not_found", 404);
  assert.deepEqual((await api("/settlements", { key: m.production.secretKey })).body.data, []);
  assertEnvelope(await api(`/settlements/${s.id}`, { key: other.sandbox.secretKey }), "settlement_not_found", 404);
  assertEnvelope(await api(`/settlements/stl_unknown/receipt`, { key: m.sandbox.secretKey }), "settlement_not_found", 404);
  assertEnvelope(await api(`/settlements/${s.id}/simulate`, { key: m.sandbox.secretKey, body: { action: "lost" } }), "invalid_request", 400);
});
