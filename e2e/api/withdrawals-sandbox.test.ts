// Withdrawals in the sandbox over real HTTP (decisions.md "Withdrawals"): the hold (amount + the
// tier's fee) in one transaction with the row; idempotent; a missing destination; completed and
// failed (failed returns amount and fee); listed; 404s; 30 requests at once over a balance that
// covers 10 -> exactly 10.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { api, assertEnvelope, newMerchant } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { TRON, seedRates, balance, posted, sandboxFunded } from "./withdrawals-fixtures.ts";

after(() => db().$disconnect());
before(seedRates);

test("sandbox: the hold, completed and failed (amount and fee back), idempotent, listed; missing destination; errors", async () => {
  const m = await sandboxFunded(200);
  const key = m.sandbox.secretKey;
  const before = await balance(key);
  const fee = before.withdrawalFeeUsd;
  assert.ok(fee > 0);
  assertEnvelope(await api("/me/withdrawals", { key, body: { amountUsd: 10 } }), "missing_required_fields", 422);
  const w = await api("/me/withdrawals", { key, body: { amountUsd: 50, destination: { asset: "USDT", network: "TRON", address: TRON } }, headers: { "idempotency-key": "wdr-1" } });
  assert.equal(w.status, 200, w.text);
  const wd = w.body.withdrawal;
  assert.match(wd.id, /^wdr_/);
  assert.equal(wd.status, "processing");
  assert.equal(wd.amountUsd, 50);
  assert.equal(wd.feeUsd, fee);
  assert.deepEqual(wd.destination, { asset: "USDT", network: "TRON", address: TRON });
  const held = await balance(key);
  assert.equal(held.balance.available, Math.round((before.balance.available - 50 - fee) * 100) / 100);
  // The same request again: the same withdrawal, nothing held twice.
  const again = await api("/me/withdrawals", { key, body: { amountUsd: 50, destination: { asset: "USDT", network: "TRON", address: TRON } }, headers: { "idempotency-key": "wdr-1" } });
  assert.equal(again.body.withdrawal.id, wd.id);
  assert.equal((await balance(key)).balance.available, held.balance.available);

  const failed = await api(`/me/withdrawals/${wd.id}/simulate`, { key, body: { action: "failed" } });
  assert.equal(failed.status, 200, failed.text);
  assert.equal(failed.body.withdrawal.status, "failed");
  assert.equal((await balance(key)).balance.available, before.balance.available, "amount and fee back");
  assertEnvelope(await api(`/me/withdrawals/${wd.id}/simulate`, { key, body: { action: "completed" } }), "invalid_request", 400);

  // With the settlement destination as default, then completed.
  assert.equal((await api("/me/settlement-destination", { key, method: "PUT", body: { asset: "USDC", network: "ETHEREUM", address: "0x52908400098527886E0F7030069857D2E4169EE7" } })).status, 200);
  const w2 = (await api("/me/withdrawals", { key, body: { amountUsd: 20 } })).body.withdrawal;
  assert.equal(w2.destination.network, "ETHEREUM");
  const done = await api(`/me/withdrawals/${w2.id}/simulate`, { key, body: { action: "completed" } });
  assert.equal(done.body.withdrawal.status, "completed");
  assert.match(done.body.withdrawal.txHash, /^0x[0-9a-f]{64}$/);
  const after = await balance(key);
  assert.equal(after.balance.available, Math.round((before.balance.available - 20 - fee) * 100) / 100);
  assert.deepEqual(after.ledgerWarnings, []);
  assert.equal(await db().event.count({ where: { merchantId: m.merchantId, type: "withdrawal.completed" } }), 1);
  assert.equal(await db().event.count({ where: { merchantId: m.merchantId, type: "withdrawal.failed" } }), 1);

  const list = await api("/me/withdrawals", { key });
  assert.deepEqual(list.body.data.map((x: any) => x.id), [w2.id, wd.id]);
  assert.deepEqual((await api("/me/withdrawals?status=failed", { key })).body.data.map((x: any) => x.id), [wd.id]);
  assert.equal((await api(`/me/withdrawals/${wd.id}`, { key })).body.withdrawal.status, "failed");
  assertEnvelope(await api("/me/withdrawals/wdr_nope", { key }), "withdrawal_not_found", 404);
  assertEnvelope(await api(`/me/withdrawals/${wd.id}`, { key: m.production.secretKey }), "withdrawal_not_found", 404);
  assertEnvelope(await api(`/me/withdrawals/${wd.id}`, { key: (await newMerchant()).sandbox.secretKey }), "withdrawal_not_found", 404);
  assertEnvelope(await api(`/me/withdrawals/${wd.id}/simulate`, { key: m.production.secretKey, body: { action: "completed" } }), "production_key_refused", 400);

  const short = await api("/me/withdrawals", { key, body: { amountUsd: 100_000 } });
  assertEnvelope(short, "balance_insufficient", 422);
  assert.equal(short.body.error.details.availableUsd, after.balance.available);
  assert.ok(short.body.error.details.shortfallUsd > 0);
  assertEnvelope(await api("/me/withdrawals", { key, body: { amountUsd: "ten" } }), "amount_invalid", 400);
  assertEnvelope(await api("/me/withdrawals", { key, body: { amountUsd: 0 } }), "amount_invalid", 400);
  const badAddress = await api("/me/withdrawals", { key, body: { amountUsd: 5, destination: { asset: "USDT", network: "TRON", address: "TNotAnAddress" } } });
  assertEnvelope(badAddress, "invalid_request", 400);
});

test("30 withdrawals at once over a balance that covers 10: exactly 10 held, the rest refused, the ledger balanced", async () => {
  const m = await sandboxFunded(300);
  const key = m.sandbox.secretKey;
  const b = await balance(key);
  const fee = b.withdrawalFeeUsd;
  // Each takes amount + fee; ten of them fit and an eleventh does not.
  const each = Math.floor(((b.balance.available - 0.01) / 10 - fee) * 100) / 100;
  assert.ok(each > 0);
  const results = await Promise.all(Array.from({ length: 30 }, () => api("/me/withdrawals", { key, body: { amountUsd: each, destination: { asset: "USDT", network: "TRON", address: TRON } } })));
  const ok = results.filter((r) => r.status === 200);
  const refused = results.filter((r) => r.status === 422 && r.body.error.code === "balance_insufficient");
  assert.equal(ok.length, 10, results.map((r) => r.status).join(","));
  assert.equal(refused.length, 20);
  assert.equal(await db().withdrawal.count({ where: { merchantId: m.merchantId } }), 10);
  assert.equal(await posted(m.merchantId, "withdrawal_requested"), 10);
  const after = await balance(key);
  assert.ok(after.balance.available >= 0 && after.balance.available < each + fee, JSON.stringify(after.balance));
  assert.deepEqual(after.ledgerWarnings, []);
});
