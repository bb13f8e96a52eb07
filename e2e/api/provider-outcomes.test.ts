// Money leaves at most once (decisions.md): provider calls whose answer is lost, refusals, and
// provider notices, over real HTTP against the simulated PSPs (separate HTTP services).
// - A payout or refund the provider MADE but whose answer timed out or came back 5xx: the API
//   answers processing (a refund: pending), a retry with the same Idempotency-Key returns the same
//   payout, the status job learns the outcome by our reference, the beneficiary is paid once, and
//   the merchant is debited once.
// - A refused payout is 422 payout_dispatch_failed with the debit reversed.
// - Notices: a replay (same id), a stale timestamp, a notice signed with the outbound secret are
//   refused or ignored; REFUNDED after PAID returns the payout's money once.
// - A charge that timed out at the first provider cascades to the next; a late paid notice for
//   the first attempt completes the same transaction, once.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID, randomInt } from "node:crypto";
import { api, assertEnvelope, newMerchant, waitFor } from "./helpers.ts";
import { outboundSecret, signedNotice } from "./provider-notices.ts";
import { db } from "@/lib/platform/db";
import { setRate } from "@/lib/money/rates";
import { clabeCheckDigit } from "@/lib/rails/document-rules";
import { settleDueBalances } from "@/lib/settlements/settle-balances";
import { setShopDepositMethods } from "@/lib/deposits/set-shop-deposit-methods";
import { resolveChargeback } from "@/lib/claims/transitions";
import type { CreatedMerchant } from "@/lib/merchants/create-merchant";

after(() => db().$disconnect());

const PSP = { pagosur: process.env.PROVIDER_PAGOSUR_URL!, andespay: process.env.PROVIDER_ANDESPAY_URL!, rapidpay: process.env.PROVIDER_RAPIDPAY_URL! };
type Psp = keyof typeof PSP;
const DAY = 86_400_000;
const email = () => `who-${randomUUID().slice(0, 8)}@example.com`;
/** A CLABE of its own per test, so the simulator's count of payments to it is this test's. */
const freshClabe = () => {
  let first17 = "002180";
  for (let i = 0; i < 11; i++) first17 += String(randomInt(10));
  return first17 + clabeCheckDigit(first17);
};
const speiRecipient = (account: string, who: string) => ({ name: "Carlos Ruiz", account, bankCode: "002", documentId: "GODE561231GR8", documentType: "RFC", email: who });

async function psp(p: Psp, path: string, body?: unknown) {
  const r = await fetch(`${PSP[p]}${path}`, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  assert.equal(r.status, 200, `${path}: ${await r.clone().text()}`);
  return r.json() as Promise<any>;
}
const behave = (p: Psp, mode: string, forEmail: string) => psp(p, "/_control/behaviour", { mode, forEmail, times: 1 });
const timesPaid = async (account: string) => (await psp("pagosur", `/_control/beneficiaries/${account}`)).paid as number;
async function ledger(merchantId: string, account: string, currency: string): Promise<bigint> {
  const r = await db().ledgerEntry.aggregate({ where: { merchantId, environment: "production", account, currency }, _sum: { amount: true } });
  return r._sum.amount ?? 0n;
}
const postings = (merchantId: string, kind: string) => db().ledgerPosting.count({ where: { merchantId, environment: "production", kind } });
const payoutEvents = (id: string, type: string) => db().event.count({ where: { type, payload: { path: ["data", "object", "id"], equals: id } } });

before(async () => {
  for (const [quote, rate] of [["BRL", "5.40"], ["MXN", "18.20"], ["COP", "4100"], ["PEN", "3.75"]] as const) await setRate(quote, rate, "test");
});

/** A production merchant with MXN in its payout balance (a SPEI deposit, settled, moved and swapped). */
async function fundedMerchant(): Promise<CreatedMerchant> {
  const m = await newMerchant({ tier: "premium" });
  const key = m.production.secretKey;
  await setShopDepositMethods(m.shopId, { enable: ["dm_spei_pagosur"] });
  const a = await api("/me/deposit-accounts", { key, body: { endUserRef: `u-${randomUUID()}`, name: "Pay In", email: email() } });
  assert.ok(a.status === 201 || a.status === 200, a.text);
  const sent = await psp("pagosur", "/_control/deposits", { clabe: a.body.account.clabe, amount: "364000", payerName: "Payer", payerBank: "Banorte" });
  assert.deepEqual(sent.statuses, [200]);
  await settleDueBalances({ now: new Date(Date.now() + 4 * DAY), merchantId: m.merchantId });
  assert.equal((await api("/me/payout/transfer", { key, body: { amountUsd: 150 } })).status, 200);
  const quote = await api("/me/payout/swap?currency=MXN&amountUsd=150", { key });
  assert.equal((await api("/me/payout/swap", { key, body: { quoteId: quote.body.quoteId } })).status, 200);
  return m;
}

describe("payouts whose answer is lost", () => {
  let m: CreatedMerchant;
  before(async () => {
    m = await fundedMerchant();
  });

  for (const mode of ["succeed_then_timeout", "succeed_then_error"] as const) {
    test(`${mode}: processing, the same payout on retry, completed by the status job, paid once, debited once`, async () => {
      const key = m.production.secretKey;
      const who = email();
      const account = freshClabe();
      await behave("pagosur", mode, who);
      const availableBefore = await ledger(m.merchantId, "payout_available", "MXN");
      const sentBefore = await ledger(m.merchantId, "payouts_sent", "MXN");
      const headers = { "idempotency-key": `k-${randomUUID()}` };
      const body = { methodId: "po_mx_spei", amount: 250, recipient: speiRecipient(account, who) };

      const first = await api("/me/payout/send", { key, body, headers });
      assert.equal(first.status, 200, first.text);
      assert.equal(first.body.payout.status, "processing");
      assert.equal(await timesPaid(account), 1, "the provider did pay");
      const retry = await api("/me/payout/send", { key, body, headers });
      assert.equal(retry.status, 200, retry.text);
      assert.equal(retry.body.payout.id, first.body.payout.id, "a retry with the same key is the same payout");

      const done = await waitFor(async () => {
        const p = (await api(`/me/payout/send/${first.body.payout.id}`, { key })).body.payout;
        return p.status !== "processing" && p;
      }, "the status job to learn the outcome", 20_000);
      assert.equal(done.status, "completed");
      assert.match(done.providerRef, /^pagosur_po_/);
      assert.equal(await timesPaid(account), 1, "the beneficiary was paid once");
      assert.equal(await db().payout.count({ where: { merchantId: m.merchantId, recipient: { path: ["account"], equals: account } } }), 1);
      assert.equal(availableBefore - (await ledger(m.merchantId, "payout_available", "MXN")), 25_000n, "the merchant was debited once");
      assert.equal((await ledger(m.merchantId, "payouts_sent", "MXN")) - sentBefore, 25_000n);
      assert.equal(await ledger(m.merchantId, "payout_in_flight", "MXN"), 0n);
      assert.equal(await payoutEvents(first.body.payout.id, "payout.completed"), 1);
      assert.equal(await payoutEvents(first.body.payout.id, "payout.failed"), 0);
    });
  }

  test("an explicit refusal: 422 payout_dispatch_failed, the debit reversed, nobody paid", async () => {
    const key = m.production.secretKey;
    const who = email();
    const account = freshClabe();
    await behave("pagosur", "decline", who);
    const before = await ledger(m.merchantId, "payout_available", "MXN");
    const r = await api("/me/payout/send", { key, body: { methodId: "po_mx_spei", amount: 120, recipient: speiRecipient(account, who) }, headers: { "idempotency-key": `k-${randomUUID()}` } });
    assertEnvelope(r, "payout_dispatch_failed", 422);
    assert.equal(r.body.error.details.failureReason, "beneficiary_account_invalid");
    assert.equal((await db().payout.findUniqueOrThrow({ where: { id: r.body.error.details.payoutId } })).status, "failed");
    assert.equal(await ledger(m.merchantId, "payout_available", "MXN"), before, "the debit is back");
    assert.equal(await ledger(m.merchantId, "payout_in_flight", "MXN"), 0n);
    assert.equal(await timesPaid(account), 0);
  });

  test("REFUNDED after PAID: credited back once (a twice-delivered and a repeated REFUNDED), payout.failed returned", async () => {
    const key = m.production.secretKey;
    const account = freshClabe();
    const before = await ledger(m.merchantId, "payout_available", "MXN");
    const returnedBefore = await postings(m.merchantId, "payout_returned");
    const sent = await api("/me/payout/send", { key, body: { methodId: "po_mx_spei", amount: 80, recipient: speiRecipient(account, email()) } });
    assert.equal(sent.status, 200, sent.text);
    const id = sent.body.payout.id;
    assert.deepEqual((await psp("pagosur", `/_control/payouts/${id}/PAID`, {})).statuses, [200]);
    assert.equal((await api(`/me/payout/send/${id}`, { key })).body.payout.status, "completed");
    assert.equal(await ledger(m.merchantId, "payout_available", "MXN"), before - 8_000n);

    const twice = await psp("pagosur", `/_control/payouts/${id}/REFUNDED`, { duplicate: true });
    assert.deepEqual(twice.statuses, [200, 200]);
    const again = await psp("pagosur", `/_control/payouts/${id}/REFUNDED`, {});
    assert.deepEqual(again.statuses, [200]);
    const p = (await api(`/me/payout/send/${id}`, { key })).body.payout;
    assert.deepEqual([p.status, p.failureReason], ["failed", "returned"]);
    assert.equal(await ledger(m.merchantId, "payout_available", "MXN"), before, "the money is back, once");
    assert.equal((await postings(m.merchantId, "payout_returned")) - returnedBefore, 1);
    assert.equal(await payoutEvents(id, "payout.failed"), 1);
    assert.equal(await payoutEvents(id, "payout.completed"), 1);
  });
});

/** A completed, settled production SPEI payment through pagosur for `buyer`. */
async function paidPayment(key: string, buyer: string, amount = 40) {
  const r = await api("/payments", { key, body: { amount, paymentMethodId: "1003", userName: "Juan Pérez", userEmail: buyer, documentId: "GODE561231GR8" } });
  assert.equal(r.status, 200, r.text);
  const tx = r.body.transactionId as string;
  const charge = (await db().transaction.findUniqueOrThrow({ where: { id: tx } })).providerRef!;
  await psp("pagosur", `/_control/charges/${charge}/paid`, {});
  await waitFor(async () => (await api(`/payments/${tx}`, { key })).body.status === "completed", "completion");
  await settleDueBalances({ now: new Date(Date.now() + 3 * DAY) });
  return { tx, charge };
}

describe("refunds whose answer is lost", () => {
  for (const mode of ["succeed_then_timeout", "succeed_then_error"] as const) {
    test(`${mode}: the claim stays pending with its money frozen, then resolves once by the refund's status`, async () => {
      const m = await newMerchant({ tier: "premium" });
      const key = m.production.secretKey;
      const buyer = email();
      const { tx, charge } = await paidPayment(key, buyer);
      await behave("pagosur", mode, buyer);
      const refund = await api(`/payments/${tx}/refund`, { key, body: { amount: 100, reason: "requested_by_customer" }, headers: { "idempotency-key": `k-${randomUUID()}` } });
      assert.equal(refund.status, 200, refund.text);
      const claimId = refund.body.refundId;
      const claim = await waitFor(async () => {
        const c = (await api(`/claims/${claimId}`, { key })).body.claim;
        return c.status !== "pending" && c;
      }, "the refund's status by reference", 30_000);
      assert.equal(claim.status, "resolved", JSON.stringify(claim));
      const refunds = (await psp("pagosur", `/_control/charges/${charge}`)).refunds;
      assert.deepEqual(refunds.map((r: any) => r.reference), [claimId], "one refund at the provider, under our claim id");
      assert.equal(await db().ledgerPosting.count({ where: { claimId, kind: "refund_resolved" } }), 1);
      assert.equal(await db().ledgerPosting.count({ where: { claimId, kind: "refund_rejected" } }), 0);
      const frozen = await db().ledgerEntry.aggregate({ where: { merchantId: m.merchantId, environment: "production", account: "frozen" }, _sum: { amount: true } });
      assert.equal(frozen._sum.amount ?? 0n, 0n);
    });
  }

  test("a refund the provider refuses: the claim is rejected and the freeze released", async () => {
    const m = await newMerchant({ tier: "premium" });
    const key = m.production.secretKey;
    const buyer = email();
    const { tx, charge } = await paidPayment(key, buyer);
    await behave("pagosur", "decline", buyer);
    const refund = await api(`/payments/${tx}/refund`, { key, body: { amount: 100 } });
    assert.equal(refund.status, 200, refund.text);
    const claim = await waitFor(async () => {
      const c = (await api(`/claims/${refund.body.refundId}`, { key })).body.claim;
      return c.status !== "pending" && c;
    }, "the refusal", 30_000);
    assert.equal(claim.status, "rejected");
    assert.deepEqual((await psp("pagosur", `/_control/charges/${charge}`)).refunds, []);
  });
});

describe("notices once", () => {
  test("a replayed chargeback notice (same id) after the chargeback was won opens nothing", async () => {
    const m = await newMerchant({ tier: "premium" });
    const key = m.production.secretKey;
    const { tx, charge } = await paidPayment(key, email());
    const body = JSON.stringify({ noticeId: `ntc_${randomUUID()}`, chargeId: charge, status: "chargeback" });
    const headers = signedNotice("pagosur", body);
    const first = await api("/providers/pagosur/notifications", { raw: body, headers });
    assert.deepEqual(first.body, { received: true, applied: true });
    const opened = await db().claim.findFirstOrThrow({ where: { transactionId: tx, kind: "chargeback" } });
    await resolveChargeback(opened.id, "won");
    const replay = await api("/providers/pagosur/notifications", { raw: body, headers });
    assert.equal(replay.status, 200, replay.text);
    assert.deepEqual(replay.body, { received: true, applied: false });
    assert.equal(await db().claim.count({ where: { transactionId: tx, kind: "chargeback" } }), 1);
    assert.equal(await db().ledgerPosting.count({ where: { transactionId: tx, kind: "chargeback_freeze" } }), 1);
  });

  test("a stale timestamp and a notice signed with the outbound secret are refused, nothing applied", async () => {
    const m = await newMerchant({ tier: "premium" });
    const key = m.production.secretKey;
    const r = await api("/payments", { key, body: { amount: 25, paymentMethodId: "1003", userName: "Juan Pérez", userEmail: email(), documentId: "GODE561231GR8" } });
    const tx = r.body.transactionId;
    const charge = (await db().transaction.findUniqueOrThrow({ where: { id: tx } })).providerRef!;
    const body = JSON.stringify({ noticeId: `ntc_${randomUUID()}`, chargeId: charge, status: "paid" });
    const stale = await api("/providers/pagosur/notifications", { raw: body, headers: signedNotice("pagosur", body, { at: Math.floor(Date.now() / 1000) - 6 * 60 }) });
    assertEnvelope(stale, "invalid_signature", 401);
    assert.equal(stale.body.error.details.reason, "timestamp_out_of_tolerance");
    const future = await api("/providers/pagosur/notifications", { raw: body, headers: signedNotice("pagosur", body, { at: Math.floor(Date.now() / 1000) + 6 * 60 }) });
    assertEnvelope(future, "invalid_signature", 401);
    assertEnvelope(await api("/providers/pagosur/notifications", { raw: body, headers: signedNotice("pagosur", body, { secret: outboundSecret("pagosur") }) }), "invalid_signature", 401);
    // The same refusals on the payout and deposit pipelines.
    const payoutBody = JSON.stringify({ noticeId: `ntc_${randomUUID()}`, payoutId: "pagosur_po_x", status: "PAID" });
    assertEnvelope(await api("/providers/pagosur/payouts", { raw: payoutBody, headers: signedNotice("pagosur", payoutBody, { secret: outboundSecret("pagosur") }) }), "invalid_signature", 401);
    assertEnvelope(await api("/providers/pagosur/payouts", { raw: payoutBody, headers: signedNotice("pagosur", payoutBody, { at: 1_000_000_000 }) }), "invalid_signature", 401);
    assert.equal((await api(`/payments/${tx}`, { key })).body.status, "pending");
    assert.equal(await db().ledgerPosting.count({ where: { transactionId: tx } }), 0);
    // Within the window and with the notice secret, it applies.
    const ok = await api("/providers/pagosur/notifications", { raw: body, headers: signedNotice("pagosur", body, { at: Math.floor(Date.now() / 1000) - 60 }) });
    assert.deepEqual(ok.body, { received: true, applied: true });
    assert.equal(await db().ledgerPosting.count({ where: { transactionId: tx, kind: "payment_completed" } }), 1);
  });
});

describe("charges: a timed-out attempt cascades; its late notice completes the same transaction once", () => {
  test("succeed_then_timeout at pagosur -> andespay takes it; pagosur's late paid notice completes it, andespay's later one changes nothing", async () => {
    const m = await newMerchant({ tier: "premium" });
    const key = m.production.secretKey;
    const buyer = email();
    await behave("pagosur", "succeed_then_timeout", buyer);
    const r = await api("/payments", { key, body: { amount: 25, paymentMethodId: "1003", userName: "Juan Pérez", userEmail: buyer, documentId: "GODE561231GR8" } });
    assert.equal(r.status, 200, r.text);
    const tx = r.body.transactionId;
    assert.ok(r.body.paymentFormUrl.startsWith(`${PSP.andespay}/checkout/`), r.body.paymentFormUrl);
    const got = (await api(`/payments/${tx}`, { key })).body;
    assert.deepEqual(got.attempts.map((a: any) => [a.provider, a.outcome, a.reason]), [["pagosur", "unavailable", "timeout"], ["andespay", "accepted", null]]);
    // The charge pagosur made under our reference, though its answer never came.
    const late = await psp("pagosur", `/_control/charges/${tx}`);
    assert.equal(late.reference, tx);
    await psp("pagosur", `/_control/charges/${tx}/paid`, { duplicate: true });
    await waitFor(async () => (await api(`/payments/${tx}`, { key })).body.status === "completed", "completion by the late notice");
    await waitFor(async () => (await psp("pagosur", `/_control/charges/${tx}`)).deliveries.filter((d: any) => d.httpStatus === 200).length === 2, "both deliveries answered");
    // The paid charge is the route now: refunds and chargebacks go to pagosur, which holds the money.
    const routed = await db().transaction.findUniqueOrThrow({ where: { id: tx } });
    assert.deepEqual([routed.provider, routed.providerRef], ["pagosur", late.id]);
    const andespayCharge = (await psp("andespay", `/_control/charges/${tx}`)).id as string;
    await psp("andespay", `/_control/charges/${andespayCharge}/paid`, {});
    await waitFor(async () => (await psp("andespay", `/_control/charges/${andespayCharge}`)).deliveries.some((d: any) => d.httpStatus === 200), "andespay's notice answered");
    assert.equal(await db().ledgerPosting.count({ where: { transactionId: tx, kind: "payment_completed" } }), 1);
    assert.equal(await db().event.count({ where: { type: "payment.completed", payload: { path: ["data", "object", "id"], equals: tx } } }), 1);
    assert.equal(await db().transaction.count({ where: { merchantId: m.merchantId } }), 1);
  });
});

describe("charges: every answer lost", () => {
  test("no provider answered: 422 cascade_exhausted, the row stays pending; reconciliation finds the charge by our reference and completes it once", async () => {
    const m = await newMerchant({ tier: "premium" });
    const key = m.production.secretKey;
    const buyer = email();
    for (const p of ["pagosur", "andespay", "rapidpay"] as const) await behave(p, "succeed_then_timeout", buyer);
    const r = await api("/payments", { key, body: { amount: 25, paymentMethodId: "1003", userName: "Juan Pérez", userEmail: buyer, documentId: "GODE561231GR8" } });
    assertEnvelope(r, "cascade_exhausted", 422);
    assert.equal(r.body.error.details.reason, "providers_unavailable");
    // Every provider may hold a charge: the row is kept, pending, with its attempts.
    const row = await db().transaction.findFirstOrThrow({ where: { merchantId: m.merchantId } });
    assert.deepEqual([row.status, row.providerRef], ["pending", null]);
    assert.equal((row.attempts as any[]).length, 3);
    // The buyer paid at pagosur after all; its notice is lost too.
    await psp("pagosur", `/_control/charges/${row.id}/paid`, { notify: false });
    await waitFor(async () => (await db().transaction.findUniqueOrThrow({ where: { id: row.id } })).status === "completed", "completion by reconciliation by reference", 30_000);
    const done = await db().transaction.findUniqueOrThrow({ where: { id: row.id } });
    assert.equal(done.provider, "pagosur");
    assert.match(done.providerRef!, /^pagosur_ch_/);
    assert.equal(await db().ledgerPosting.count({ where: { transactionId: row.id, kind: "payment_completed" } }), 1);
  });
});
