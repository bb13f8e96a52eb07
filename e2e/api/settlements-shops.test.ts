// Settlements and shops (issue 38, point 8c; README "Settlements", "Who sees a batch"). The
// ledger keeps one balance per merchant and environment, and a batch sweeps all of its
// `available`, every shop's sales and the merchant's own moves alike; its postings belong to no
// shop. So a batch is the merchant's: every key of the merchant reads it, as every key's ledger
// export shows it the batch's postings. Running or settling one moves the whole merchant's
// money, so a shop-bound key may do it only when its shop is the merchant's only one: beside
// another shop it gets 403 forbidden, and a merchant-wide credential (or the dashboard) does it.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { api, assertEnvelope, newMerchant, API_URL } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { settleDueBalances } from "@/lib/settlements/settle-balances";
import { createShop } from "@/lib/merchants/create-shop";
import { createMerchantWideKeys } from "@/lib/merchants/manage-keys";

after(() => db().$disconnect());

const DAY = 86_400_000;
const TRON = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const ok = (r: { status: number; text: string }, status = 200) => assert.equal(r.status, status, r.text.slice(0, 400));

async function paidPayment(key: string, amount: number): Promise<string> {
  const p = await api("/payments", { key, body: { amount, paymentMethodId: "sbx_card" } });
  ok(p);
  ok(await api(`/payments/${p.body.transactionId}/simulate`, { key, body: { action: "paid" } }));
  return p.body.transactionId;
}

/** The ledger export's rows (header first) as a key sees them. */
async function ledgerRows(key: string): Promise<Record<string, string>[]> {
  const text = await (await fetch(`${API_URL}/api/v1/exports/ledger.csv`, { headers: { authorization: `Bearer ${key}` } })).text();
  const [header, ...lines] = text.trim().split(/\r?\n/).map((l) => l.split(","));
  return lines.map((cells) => Object.fromEntries(header!.map((h, i) => [h, cells[i] ?? ""])));
}

test("a batch is the merchant's: every key reads it, as its ledger export shows the batch; a shop key beside another shop may not run or settle one (403 forbidden)", async () => {
  const m = await newMerchant({ tier: "premium" });
  const b = await createShop({ merchantId: m.merchantId, name: "Shop B" });
  const wide = await createMerchantWideKeys({ merchantId: m.merchantId, environment: "sandbox" });
  const [keyA, keyB] = [m.sandbox.secretKey, b.sandbox.secretKey];
  ok(await api("/me/settlement-destination", { key: wide.secretKey, method: "PUT", body: { asset: "USDT", network: "TRON", address: TRON } }));
  await paidPayment(keyA, 80);
  await paidPayment(keyB, 40);
  await settleDueBalances({ now: new Date(Date.now() + 4 * DAY), merchantId: m.merchantId });
  const available = (await api("/me/balance", { key: wide.secretKey })).body.balance.available;
  assert.ok(available >= 50, `available ${available}`);

  // Either shop's key would sweep the other shop's sales too.
  for (const key of [keyA, keyB]) assertEnvelope(await api("/settlements/run", { key, body: {} }), "forbidden", 403);
  assert.equal(await db().settlement.count({ where: { merchantId: m.merchantId } }), 0);
  assert.equal((await api("/me/balance", { key: wide.secretKey })).body.balance.available, available);

  const run = await api("/settlements/run", { key: wide.secretKey, body: {} });
  ok(run);
  const s = run.body.settlement;
  assert.equal(s.grossUsd, available);
  assert.equal(s.transactionCount, 2, "both shops' payments");

  // Reads: every key of the merchant sees the batch, the same one...
  const seen = await api(`/settlements/${s.id}`, { key: wide.secretKey });
  ok(seen);
  for (const key of [keyA, keyB]) {
    assert.deepEqual((await api("/settlements", { key })).body.data.map((x: { id: string }) => x.id), [s.id]);
    const one = await api(`/settlements/${s.id}`, { key });
    ok(one);
    // (Its receipt may be rendered between two reads.)
    assert.deepEqual({ ...one.body.settlement, receiptReady: null }, { ...seen.body.settlement, receiptReady: null });
    // ...as its ledger export holds the batch's posting (the merchant's own: no shop).
    const closing = (await ledgerRows(key)).filter((r) => r.kind === "settlement_closed" && r.account === "available");
    assert.deepEqual(closing.map((r) => Number(r.amount)), [-s.grossUsd], `the ledger export of ${key === keyA ? "shop A" : "shop B"}`);
  }

  // Settling it moves the merchant's money too: not with a shop's key.
  for (const key of [keyA, keyB]) {
    for (const action of ["paid", "failed"]) assertEnvelope(await api(`/settlements/${s.id}/simulate`, { key, body: { action } }), "forbidden", 403);
  }
  assert.equal((await db().settlement.findUniqueOrThrow({ where: { id: s.id } })).status, "closed");
  const paid = await api(`/settlements/${s.id}/simulate`, { key: wide.secretKey, body: { action: "paid" } });
  ok(paid);
  assert.equal(paid.body.settlement.status, "paid");
});

test("the key of a merchant's only shop is the whole merchant: it runs and settles its batches", async () => {
  const m = await newMerchant({ tier: "premium" });
  const key = m.sandbox.secretKey;
  ok(await api("/me/settlement-destination", { key, method: "PUT", body: { asset: "USDT", network: "TRON", address: TRON } }));
  await paidPayment(key, 80);
  await settleDueBalances({ now: new Date(Date.now() + 4 * DAY), merchantId: m.merchantId });
  const run = await api("/settlements/run", { key, body: {} });
  ok(run);
  assert.ok(run.body.settlement, run.text);
  ok(await api(`/settlements/${run.body.settlement.id}/simulate`, { key, body: { action: "failed" } }));
});
