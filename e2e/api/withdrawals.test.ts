// Withdrawals over real HTTP (decisions.md "Withdrawals"): the hold (amount + the tier's fee) in
// one transaction with the row; 30 requests at once over a balance that covers 10 -> exactly 10;
// idempotent; a missing destination; sandbox completed/failed (failed returns amount and fee);
// production through the simulated custody provider (its own HTTP service): accepted, refused,
// pending then completed, 5xx and unreadable answers left processing until the status job knows,
// and a timeout after the custody provider DID send: paid once; the provider's signed notices
// (completed, failed, replayed, forged, stale, unknown, racing the status job); both environments; 404s.
// A status lookup answered 401, 403 or a bare 404 is unknown, never a refusal: asked again, raised to
// an operator when it lasts, completed once the provider answers.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { api, assertEnvelope, newMerchant, postCustodyNotice, waitFor } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { setRate } from "@/lib/money/rates";
import { settleDueBalances } from "@/lib/settlements/settle-balances";
import { setShopDepositMethods } from "@/lib/deposits/set-shop-deposit-methods";
import { checkWithdrawalStatuses } from "@/lib/withdrawals/check-withdrawal-status";
import type { CreatedMerchant } from "@/lib/merchants/create-merchant";

after(() => db().$disconnect());

const DAY = 86_400_000;
const TRON = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const CUSTODY = process.env.CUSTODY_URL!;
const PAGOSUR = process.env.PROVIDER_PAGOSUR_URL!;
/** A fresh, valid EVM address (all lower case: no checksum to satisfy), so a behaviour can target it. */
const evm = () => `0x${randomBytes(20).toString("hex")}`;

async function control(path: string, body?: unknown) {
  const r = await fetch(`${CUSTODY}${path}`, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  assert.equal(r.status, 200, `${path}: ${await r.clone().text()}`);
  return r.json() as Promise<any>;
}
const behave = (mode: string, forAddress: string) => control("/_control/behaviour", { mode, forAddress, times: 1 });

before(async () => {
  await setRate("MXN", "18.20", "test");
});

const balance = async (key: string) => (await api("/me/balance", { key })).body;
const posted = (merchantId: string, kind: string) => db().ledgerPosting.count({ where: { merchantId, kind } });

/** A sandbox merchant with `usd` (about) available: card payments, settled. */
async function sandboxFunded(usd: number): Promise<CreatedMerchant> {
  const m = await newMerchant({ tier: "standard" });
  const key = m.sandbox.secretKey;
  const p = await api("/payments", { key, body: { amount: usd, paymentMethodId: "sbx_card" } });
  assert.equal(p.status, 200, p.text);
  assert.equal((await api(`/payments/${p.body.transactionId}/simulate`, { key, body: { action: "paid" } })).status, 200);
  await settleDueBalances({ now: new Date(Date.now() + 4 * DAY), merchantId: m.merchantId });
  return m;
}

/** A production merchant with available USD: a SPEI deposit through the simulated PSP, settled. */
async function productionFunded(): Promise<CreatedMerchant> {
  const m = await newMerchant({ tier: "premium" });
  const key = m.production.secretKey;
  await setShopDepositMethods(m.shopId, { enable: ["dm_spei_pagosur"] });
  const a = await api("/me/deposit-accounts", { key, body: { endUserRef: `u-${randomUUID()}`, name: "Pay In", email: `p-${randomUUID().slice(0, 8)}@example.test` } });
  assert.ok(a.status === 201 || a.status === 200, a.text);
  const sent = await fetch(`${PAGOSUR}/_control/deposits`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ clabe: a.body.account.clabe, amount: "364000", payerName: "Payer", payerBank: "Banorte" }) });
  assert.equal(sent.status, 200);
  assert.deepEqual(((await sent.json()) as { statuses: number[] }).statuses, [200], "the deposit notice was taken");
  await settleDueBalances({ now: new Date(Date.now() + 4 * DAY), merchantId: m.merchantId });
  const funded = await waitFor(async () => { await settleDueBalances({ now: new Date(Date.now() + 4 * DAY), merchantId: m.merchantId }); const b = await balance(key); return b.balance.available > 100 && b; }, "the deposit settled into available", 20_000);
  assert.ok(funded);
  return m;
}

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

test("production: sent by the custody provider with our id; refused, pending, 5xx, garbage and a timeout after sending all end right, money out once", async () => {
  const m = await productionFunded();
  const key = m.production.secretKey;
  const start = (await balance(key)).balance.available;
  const fee = (await balance(key)).withdrawalFeeUsd;
  const send = async (address: string, amountUsd = 10) => {
    const r = await api("/me/withdrawals", { key, body: { amountUsd, destination: { asset: "USDC", network: "POLYGON", address } }, headers: { "idempotency-key": `k-${randomUUID()}` } });
    assert.equal(r.status, 200, r.text);
    return r.body.withdrawal;
  };
  const sent = async (id: string) => (await control(`/_control/withdrawals/${id}`)).sent as number;

  const accepted = await send(evm());
  assert.equal(accepted.status, "completed");
  assert.match(accepted.txHash, /^0x[0-9a-f]{64}$/);
  assert.equal(await sent(accepted.id), 1);

  const blocked = evm();
  await behave("refuse", blocked);
  const refused = await send(blocked);
  assert.equal(refused.status, "failed");
  assert.match(refused.failureReason, /address_blocked/);
  assert.equal(await sent(refused.id), 0);

  const slow = evm();
  await behave("pending", slow);
  const pending = await send(slow);
  assert.equal(pending.status, "processing");
  await control(`/_control/withdrawals/${pending.id}/complete`, {});

  const lost = [] as string[];
  for (const mode of ["error", "garbage", "succeed_then_error", "succeed_then_timeout"]) {
    const address = evm();
    await behave(mode, address);
    const w = await send(address);
    assert.equal(w.status, "processing", `${mode}: unknown is not failed`);
    lost.push(w.id);
  }
  // The status job (the server's ticker runs it too) asks by reference: a transfer never received
  // is handed over again under the same reference; one that was sent completes; none is sent twice.
  await waitFor(async () => {
    await checkWithdrawalStatuses({ now: new Date(Date.now() + 10 * 60_000) });
    const rows = await db().withdrawal.findMany({ where: { id: { in: [...lost, pending.id] } } });
    return rows.every((r) => r.status === "completed");
  }, "every unknown withdrawal to complete", 30_000);
  for (const id of [...lost, pending.id]) assert.equal(await sent(id), 1, `${id} sent once`);
  assert.equal(await posted(m.merchantId, "withdrawal_completed"), 6);
  assert.equal(await posted(m.merchantId, "withdrawal_failed"), 1);
  const end = await balance(key);
  assert.equal(end.balance.available, Math.round((start - 6 * (10 + fee)) * 100) / 100);
  assert.deepEqual(end.ledgerWarnings, []);
  assert.equal(await db().event.count({ where: { merchantId: m.merchantId, type: "withdrawal.completed" } }), 6);
});

test("production: the custody provider's signed notices end withdrawals; a replay, a forgery or a stale one changes nothing; a notice racing the status job pays once", async () => {
  const m = await productionFunded();
  const key = m.production.secretKey;
  const fee = (await balance(key)).withdrawalFeeUsd;
  const send = async (address: string, amountUsd = 10) => {
    const r = await api("/me/withdrawals", { key, body: { amountUsd, destination: { asset: "USDC", network: "POLYGON", address } }, headers: { "idempotency-key": `k-${randomUUID()}` } });
    assert.equal(r.status, 200, r.text);
    return r.body.withdrawal;
  };
  const row = (id: string) => db().withdrawal.findUniqueOrThrow({ where: { id } });
  const events = (type: string, id: string) => db().event.count({ where: { merchantId: m.merchantId, type, objectId: id } });
  // A transfer the provider holds (pending), with its notices on: whatever it decides later is told to us.
  const pendingWith = async (notify: boolean) => {
    const address = evm();
    await control("/_control/behaviour", { mode: "pending", forAddress: address, times: 1, notify });
    const w = await send(address);
    assert.equal(w.status, "processing");
    return w;
  };

  // Completed by the provider's notice alone (the status job is not run here).
  const done = await pendingWith(true);
  const transfer = await control(`/_control/withdrawals/${done.id}/complete`, {});
  await waitFor(async () => (await row(done.id)).status === "completed", "the notice to complete the withdrawal", 15_000);
  assert.equal((await row(done.id)).txHash, transfer.txHash);
  assert.equal(await events("withdrawal.completed", done.id), 1);

  // Failed by notice: amount and fee come back.
  const before = (await balance(key)).balance.available;
  const refused = await pendingWith(true);
  assert.equal((await balance(key)).balance.available, Math.round((before - 10 - fee) * 100) / 100);
  await control(`/_control/withdrawals/${refused.id}/fail`, { reason: "compliance_rejected" });
  await waitFor(async () => (await row(refused.id)).status === "failed", "the notice to fail the withdrawal", 15_000);
  assert.match((await row(refused.id)).failureReason ?? "", /compliance_rejected/);
  assert.equal((await balance(key)).balance.available, before);
  assert.equal(await events("withdrawal.failed", refused.id), 1);

  // One notice delivered five times at once, then again: one completion, one event, one posting.
  const quiet = await pendingWith(false);
  const txHash = `0x${randomBytes(32).toString("hex")}`;
  const notice = { type: "withdrawal", noticeId: `cn_${randomUUID()}`, reference: quiet.id, status: "completed", txHash };
  const postingsBefore = await posted(m.merchantId, "withdrawal_completed");
  const five = await Promise.all(Array.from({ length: 5 }, () => postCustodyNotice(notice)));
  assert.deepEqual(five.map((r) => r.status), [200, 200, 200, 200, 200], JSON.stringify(five.map((r) => r.body)));
  // The notice id is recorded in the transaction that applies it: one delivery applies, four are replays.
  assert.equal(five.filter((r) => !r.body.duplicate).length, 1, JSON.stringify(five.map((r) => r.body)));
  for (const r of five) assert.deepEqual(r.body.duplicate ? r.body : r.body.withdrawal, r.body.duplicate ? { received: true, duplicate: true } : { id: quiet.id, status: "completed" });
  const again = await postCustodyNotice(notice);
  assert.deepEqual(again.body, { received: true, duplicate: true });
  assert.equal(await posted(m.merchantId, "withdrawal_completed"), postingsBefore + 1);
  assert.equal(await events("withdrawal.completed", quiet.id), 1);
  assert.equal((await row(quiet.id)).txHash, txHash);

  // Forged (another secret), stale (signed 10 minutes ago), unsigned or in the old bare-hex form:
  // 401 invalid_signature, and the withdrawal stays processing.
  const waiting = await pendingWith(false);
  const ending = { type: "withdrawal", reference: waiting.id, status: "failed", reason: "forged" };
  for (const opts of [{ secret: "not-the-custody-secret-0123456789" }, { at: Math.floor(Date.now() / 1000) - 600 }, { header: "" }, { header: "ab".repeat(32) }]) {
    const r = await postCustodyNotice(ending, opts);
    assertEnvelope(r, "invalid_signature", 401);
  }
  assert.equal((await row(waiting.id)).status, "processing");
  // A notice about a withdrawal we never asked for: 404 withdrawal_not_found; a sandbox one is not the provider's either.
  assertEnvelope(await postCustodyNotice({ ...ending, reference: "wdr_unknown" }), "withdrawal_not_found", 404);
  const bad = await postCustodyNotice({ type: "withdrawal", reference: waiting.id, status: "completed", txHash: "nothex" });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.code, "invalid_request");

  // Sent, then our call timed out; the provider's notice and the status job both report it: paid once.
  const racing = evm();
  await control("/_control/behaviour", { mode: "succeed_then_timeout", forAddress: racing, times: 1, notify: true });
  const raced = await send(racing);
  await waitFor(async () => {
    await checkWithdrawalStatuses({ now: new Date(Date.now() + 10 * 60_000) });
    return (await row(raced.id)).status === "completed";
  }, "the raced withdrawal to complete", 30_000);
  assert.equal((await control(`/_control/withdrawals/${raced.id}`)).sent, 1);
  assert.equal(await events("withdrawal.completed", raced.id), 1);
  assert.deepEqual((await api("/me/balance", { key })).body.ledgerWarnings, []);
});

test("production: a status lookup answered 401, 403 or a bare 404 is not a refusal; the withdrawal is asked again, raised to an operator when it lasts, and completes once", async () => {
  const m = await productionFunded();
  const key = m.production.secretKey;
  const start = await balance(key);
  const fee = start.withdrawalFeeUsd;
  const address = evm();
  await control("/_control/behaviour", { mode: "pending", forAddress: address, times: 1 });
  const r = await api("/me/withdrawals", { key, body: { amountUsd: 10, destination: { asset: "USDC", network: "POLYGON", address } }, headers: { "idempotency-key": `k-${randomUUID()}` } });
  assert.equal(r.status, 200, r.text);
  const w = r.body.withdrawal;
  assert.equal(w.status, "processing");
  // The provider sends it (its notice is off): the crypto has left.
  const transfer = await control(`/_control/withdrawals/${w.id}/complete`, {});
  assert.equal(transfer.status, "completed");
  const row = () => db().withdrawal.findUniqueOrThrow({ where: { id: w.id } });
  const lookups = async () => (await control(`/_control/withdrawals/${w.id}`)).lookups as number;
  const job = () => checkWithdrawalStatuses({ now: new Date(Date.now() + 10 * 60_000) });

  // A secret rotation (401 bad_signature), an allow-list (403), a proxy's bare 404: each asked about
  // at least twice, and the withdrawal stays processing with its money held.
  for (const mode of ["unauthorized", "forbidden", "bare_not_found"]) {
    await control("/_control/behaviour", { on: "status", mode, forReference: w.id, replace: true });
    const seen = await lookups();
    // (Stops early if the withdrawal ends: the assertion below then says how.)
    await waitFor(async () => { await job(); return (await lookups()) >= seen + 2 || (await row()).status !== "processing"; }, `${mode}: asked again`, 20_000);
    const now = await row();
    assert.equal(now.status, "processing", `${mode} is unknown, not a refusal (${now.failureReason})`);
    assert.equal(now.attentionAt, null, `${mode}: not yet raised`);
  }
  assert.equal((await balance(key)).balance.available, Math.round((start.balance.available - 10 - fee) * 100) / 100, "amount and fee still held");

  // Still unanswered long after it was handed over: raised to an operator (flag, gauge), still not decided.
  await control("/_control/behaviour", { on: "status", mode: "forbidden", forReference: w.id, replace: true });
  await checkWithdrawalStatuses({ now: new Date(Date.now() + 2 * 3_600_000) });
  const raised = await row();
  assert.equal(raised.status, "processing");
  assert.ok(raised.attentionAt, "raised to an operator");
  const metrics = await (await fetch(`${process.env.API_URL}/metrics`, { headers: { authorization: `Bearer ${process.env.METRICS_TOKEN}` } })).text();
  assert.ok(Number(metrics.match(/^lp_withdrawals_need_attention (\d+)/m)?.[1]) >= 1, "lp_withdrawals_need_attention");

  // The provider answers again: completed with its txHash, money out once, never failed.
  await control("/_control/behaviour/clear", { forReference: w.id });
  await waitFor(async () => { await job(); return (await row()).status === "completed"; }, "the withdrawal to complete", 20_000);
  assert.equal((await row()).txHash, transfer.txHash);
  assert.equal((await control(`/_control/withdrawals/${w.id}`)).sent, 1);
  assert.equal(await posted(m.merchantId, "withdrawal_failed"), 0);
  assert.equal(await db().event.count({ where: { merchantId: m.merchantId, type: "withdrawal.completed", objectId: w.id } }), 1);
  const end = await balance(key);
  assert.equal(end.balance.available, Math.round((start.balance.available - 10 - fee) * 100) / 100);
  assert.deepEqual(end.ledgerWarnings, []);
});
