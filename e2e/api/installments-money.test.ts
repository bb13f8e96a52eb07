// Card installments and money (issue 42): a shop-paid plan credits the whole price less the
// financing fee, booked on its own ledger leg; refunds, partial then the rest, and the sandbox's
// refund in full, give the buyer back what they paid and the shop back the fee in proportion,
// the ledger balanced and verified throughout; routing skips a provider that cannot split a
// payment, and the count reaches the one that charges it.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { extractText, getDocumentProxy } from "unpdf";
import { API_URL, api, newMerchant, waitFor, PSP } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { setRate } from "@/lib/money/rates";
import { verifyLedger } from "@/lib/ledger/verify";
import { cents, halfUp, paidPayment, settleNow, simulate, sk } from "./payments-fixtures.ts";
import { BR_FEE_BP, cardPayment } from "./installments-fixtures.ts";
import type { CreatedMerchant } from "@/lib/merchants/create-merchant";

after(() => db().$disconnect());

async function accountTotal(m: CreatedMerchant, account: string, environment: "sandbox" | "production" = "sandbox"): Promise<bigint> {
  const r = await db().ledgerEntry.aggregate({ where: { merchantId: m.merchantId, environment, account, currency: "USD" }, _sum: { amount: true } });
  return r._sum.amount ?? 0n;
}
const shopTotal = async (m: CreatedMerchant) => (await accountTotal(m, "available")) + (await accountTotal(m, "pending")) + (await accountTotal(m, "reserve"));

async function assertVerified(m: CreatedMerchant) {
  assert.deepEqual((await verifyLedger(m.merchantId, "sandbox")).warnings, []);
}

describe("a shop-paid plan's financing fee and its refunds", () => {
  test("12x of R$ 150.00: credited the price less fees and the financing fee; a partial refund, then the rest, give the fee back in proportion", async () => {
    const m = await newMerchant(); // premium: no reserve
    // Money already available, so the refund of the rest can be paid.
    const funding = await paidPayment(m, "sbx_card", { amount: 200 });
    await settleNow(funding.transactionId);
    const before = await shopTotal(m);

    const p = (await cardPayment(m, "sbx_br_card", 150, 12)).body;
    assert.equal((await simulate(m, p.transactionId, "paid")).status, 200);
    const usd = cents(p.amount);
    const fees = cents(p.fees.total);
    const financing = halfUp(usd * halfUp(15_000n * BR_FEE_BP(12), 10_000n), 15_000n);
    assert.equal((await db().transaction.findUniqueOrThrow({ where: { id: p.transactionId } })).feeFinancing, financing);
    assert.equal(await accountTotal(m, "financing_fees"), financing);
    assert.equal((await shopTotal(m)) - before, usd - fees - financing, "the net less the financing fee");
    await assertVerified(m);

    // A third of the price back: a third of the USD, a third of the fee from financing_fees.
    const part = await api(`/payments/${p.transactionId}/refund`, { key: sk(m), body: { amount: 50 } });
    assert.equal(part.status, 200, part.text);
    const claim = await db().claim.findUniqueOrThrow({ where: { id: part.body.refundId } });
    const share = halfUp(financing * 5000n, 15_000n);
    assert.equal(claim.amountUsd, halfUp(usd * 5000n, 15_000n));
    assert.equal(claim.financingReversed, share);
    // What the refund froze; read from its own posting, since the refund job may have resolved it already.
    const froze = await db().ledgerEntry.aggregate({ where: { posting: { claimId: claim.id }, account: "frozen", amount: { gt: 0n } }, _sum: { amount: true } });
    assert.equal(froze._sum.amount, claim.amountUsd);
    await waitFor(async () => (await db().claim.findUniqueOrThrow({ where: { id: claim.id } })).status === "resolved", "the partial refund resolved");
    assert.equal(await accountTotal(m, "financing_fees"), financing - share);
    assert.equal(await accountTotal(m, "refunds_payable"), claim.amountUsd);
    await assertVerified(m);

    // The rest: the last share is exactly what is left, so the fee and the refunds come out whole.
    const rest = await api(`/payments/${p.transactionId}/refund`, { key: sk(m), body: {} });
    assert.equal(rest.status, 200, rest.text);
    await waitFor(async () => (await api(`/payments/${p.transactionId}`, { key: sk(m) })).body.status === "refunded", "refunded");
    assert.equal(await accountTotal(m, "financing_fees"), 0n);
    assert.equal(await accountTotal(m, "refunds_payable"), usd);
    assert.equal(await accountTotal(m, "frozen"), 0n);
    // The shop is out of pocket only its own fees: the financing fee went back with the refund.
    assert.equal((await shopTotal(m)) - before, -fees);
    await assertVerified(m);
  });

  test("the sandbox's refund in full returns the whole fee; a plan paid at once books none", async () => {
    const m = await newMerchant();
    const funding = await paidPayment(m, "sbx_card", { amount: 200 });
    await settleNow(funding.transactionId);
    const p = (await cardPayment(m, "sbx_br_card", 100, 3)).body;
    assert.equal((await simulate(m, p.transactionId, "paid")).status, 200);
    assert.ok((await accountTotal(m, "financing_fees")) > 0n);
    assert.equal((await simulate(m, p.transactionId, "refunded")).status, 200);
    assert.equal(await accountTotal(m, "financing_fees"), 0n);
    const once = (await cardPayment(m, "sbx_br_card", 100)).body;
    assert.equal((await simulate(m, once.transactionId, "paid")).status, 200);
    assert.equal(await accountTotal(m, "financing_fees"), 0n);
    await assertVerified(m);
  });
});

describe("routing: only providers that split a payment are asked", () => {
  let m: CreatedMerchant;
  let key: string;
  before(async () => {
    for (const [q, r] of [["MXN", "18.20"], ["BRL", "5.40"]] as const) await setRate(q, r, "test");
    m = await newMerchant();
    key = m.production.secretKey;
  });
  const charges = async (psp: keyof typeof PSP) => ((await (await fetch(`${PSP[psp]}/_control/charges`)).json()) as any).charges as Array<{ reference: string; installments?: { count: number; total: string } }>;
  const payMx = (installments?: number) => api("/payments", { key, body: { amount: 3000, currency: "MXN", paymentMethodId: "1007", userEmail: `b-${randomUUID().slice(0, 8)}@example.com`, ...(installments ? { installments } : {}) } });

  test("andespay (no installments) first: at once it charges; 6 MSI skip it for rapidpay, which gets the count", async () => {
    const put = await api("/me/routing", { key, method: "PUT", body: { rules: [{ paymentMethodId: "1007", providers: [{ provider: "andespay" }] }] } });
    assert.equal(put.status, 200, put.text);
    const once = await payMx();
    assert.equal(once.status, 200, once.text);
    assert.equal((await api(`/payments/${once.body.transactionId}`, { key })).body.provider, "andespay");
    const split = await payMx(6);
    assert.equal(split.status, 200, split.text);
    const got = (await api(`/payments/${split.body.transactionId}`, { key })).body;
    assert.equal(got.provider, "rapidpay");
    assert.deepEqual(got.attempts.map((a: any) => a.provider), ["rapidpay"]);
    assert.deepEqual(got.installments.count, 6);
    assert.deepEqual((await charges("rapidpay")).find((c) => c.reference === split.body.transactionId)?.installments, { count: 6, total: "300000" });
    assert.equal((await charges("andespay")).some((c) => c.reference === split.body.transactionId), false, "andespay was never asked");
  });

  test("only andespay, no fallback: a payment in installments finds no provider, and nothing stays", async () => {
    const put = await api("/me/routing", { key, method: "PUT", body: { rules: [{ paymentMethodId: "1007", providers: [{ provider: "andespay" }], fallback: false }] } });
    assert.equal(put.status, 200, put.text);
    const r = await payMx(3);
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.error.code, "cascade_exhausted");
    assert.deepEqual(r.body.error.details.attempts, []);
    assert.equal(await db().transaction.count({ where: { merchantId: m.merchantId, environment: "production", feeFinancing: { gt: 0n } } }), 1, "only the earlier 6 MSI payment");
  });
});

test("the settlement receipt shows a shop-paid plan's financing fee on its own line, in the total's fees", async () => {
  const m = await newMerchant(); // premium: no reserve
  const key = sk(m);
  assert.equal((await api("/me/settlement-destination", { key, method: "PUT", body: { asset: "USDT", network: "TRON", address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" } })).status, 200);
  const p = (await cardPayment(m, "sbx_br_card", 150, 12)).body;
  assert.equal((await simulate(m, p.transactionId, "paid")).status, 200);
  await settleNow(p.transactionId);
  const row = await db().transaction.findUniqueOrThrow({ where: { id: p.transactionId }, select: { feeFinancing: true } });
  assert.ok(row.feeFinancing > 0n);
  // Under the batch minimum: the sandbox closes it anyway on request.
  const run = await api("/settlements/run", { key, body: { waiveMinimum: true } });
  assert.equal(run.status, 200, run.text);
  const s = run.body.settlement;
  await waitFor(async () => (await api(`/settlements/${s.id}`, { key })).body.settlement.receiptReady, "the receipt");
  const res = await fetch(`${API_URL}/api/v1/settlements/${s.id}/receipt`, { headers: { authorization: `Bearer ${key}` } });
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(await res.arrayBuffer())), { mergePages: true });
  const line = text.match(/Installment financing fees\s+(-?[\d.]+)/);
  assert.ok(line, text);
  assert.equal(Math.abs(Math.round(Number(line[1]) * 100)), Number(row.feeFinancing));
});
