// Withdrawals in production over real HTTP (decisions.md "Withdrawals"), through the simulated
// custody provider (its own HTTP service): accepted, refused, pending then completed, 5xx and
// unreadable answers left processing until the status job knows, and a timeout after the custody
// provider DID send: paid once; the provider's signed notices (completed, failed, replayed, forged,
// stale, unknown, racing the status job). A status lookup answered 401, 403 or a bare 404 is
// unknown, never a refusal: asked again, raised to an operator when it lasts, completed once the
// provider answers. One file: these tests run the status job, which looks at every merchant's
// processing withdrawals.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { api, assertEnvelope, postCustodyNotice, waitFor } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { checkWithdrawalStatuses } from "@/lib/withdrawals/check-withdrawal-status";
import { evm, control, behave, seedRates, balance, posted, productionFunded } from "./withdrawals-fixtures.ts";

after(() => db().$disconnect());
before(seedRates);

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
