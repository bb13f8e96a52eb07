// Card installments (issue 42) over real HTTP: the catalog's plans priced for an amount, every
// count against a hand calculation, the payment's `installments`, the refusals (a count outside
// the plan, an installment below the minimum, a rail without plans: 400 installments_unavailable
// with details.allowed, nothing created), a buyer-paid plan's total and CET against an
// independent calculation, and checkout sessions taking the count.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { api, assertEnvelope } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { setInstallmentPlan } from "@/lib/installments/set-plan";
import { HOSTED_BUYER, rowCount, sk } from "./payments-fixtures.ts";
import { BR_FEE_BP, MX_FEE_BP, cardMerchant, cardPayment, cetPercent, offerOf, priceTableCents, shopPaid } from "./installments-fixtures.ts";

after(() => db().$disconnect());

const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

describe("GET /payment-methods: each card rail's plan", () => {
  test("Brazil's test card: 2-12 sem juros, R$ 5 minimum; every count of R$ 150.00 as hand-calculated", async () => {
    const m = await cardMerchant();
    const offer = (await offerOf(m, "sbx_br_card", 150)).installments;
    assert.deepEqual({ ...offer, options: undefined }, { counts: range(2, 12), minInstallment: 5, currency: "BRL", paidBy: "merchant", options: undefined });
    assert.deepEqual(offer.options, range(2, 12).map((n) => shopPaid(15_000n, n, BR_FEE_BP(n))));
    // The figures a buyer reads: 12x de R$ 12,50 sem juros; 7x is 21.42 six times and 21.48.
    assert.deepEqual([offer.options[10].amount, offer.options[10].financingFee], [12.5, 18.74]);
    assert.deepEqual([offer.options[5].amount, offer.options[5].lastAmount], [21.42, 21.48]);
    // Without an amount: the plan alone; on a rail without plans: nothing.
    assert.equal((await offerOf(m, "sbx_br_card")).installments.options, undefined);
    assert.equal((await offerOf(m, "sbx_pix", 150)).installments, undefined);
    assert.equal((await offerOf(m, "sbx_card", 150)).installments, undefined);
  });

  test("the minimum: R$ 30.00 opens 2x to 6x; Mexico's MX$ 1,000.00 opens 3, 6 and 9 MSI (MX$ 100 minimum)", async () => {
    const m = await cardMerchant();
    assert.deepEqual((await offerOf(m, "sbx_br_card", 30)).installments.options.map((o: any) => o.count), range(2, 6));
    const mx = (await offerOf(m, "sbx_mx_card", 1000)).installments;
    assert.deepEqual([mx.counts, mx.minInstallment, mx.currency, mx.paidBy], [[3, 6, 9, 12], 100, "MXN", "merchant"]);
    assert.deepEqual(mx.options, [3, 6, 9].map((n) => shopPaid(100_000n, n, MX_FEE_BP[n]!)));
    assert.deepEqual([mx.options[0].amount, mx.options[0].lastAmount], [333.33, 333.34]);
  });
});

describe("POST /payments with installments", () => {
  test("12x of R$ 150.00: the payment shows the plan (create and GET alike); 1 is paid at once", async () => {
    const m = await cardMerchant();
    const r = await cardPayment(m, "sbx_br_card", 150, 12);
    assert.equal(r.status, 200, r.text);
    const expected = shopPaid(15_000n, 12, BR_FEE_BP(12));
    assert.equal(r.body.amountLocal, 150);
    assert.deepEqual(r.body.installments, expected);
    const got = (await api(`/payments/${r.body.transactionId}`, { key: sk(m) })).body;
    assert.deepEqual(got.installments, expected);
    const listed = (await api("/payments?limit=1", { key: sk(m) })).body.data[0];
    assert.deepEqual(listed.installments, expected);
    const once = await cardPayment(m, "sbx_br_card", 150, 1);
    assert.equal(once.status, 200, once.text);
    assert.equal(once.body.installments, undefined);
    // 6 MSI of MX$ 1,500.00: six of MX$ 250.00.
    const mx = await cardPayment(m, "sbx_mx_card", 1500, 6);
    assert.equal(mx.status, 200, mx.text);
    assert.deepEqual(mx.body.installments, shopPaid(150_000n, 6, MX_FEE_BP[6]!));
  });

  test("refused with installments_unavailable and details.allowed; nothing is created", async () => {
    const m = await cardMerchant();
    const outside = await cardPayment(m, "sbx_br_card", 150, 13);
    assertEnvelope(outside, "installments_unavailable", 400);
    assert.equal(outside.body.error.param, "installments");
    assert.deepEqual(outside.body.error.details.allowed, range(1, 12));
    const below = await cardPayment(m, "sbx_br_card", 30, 7);
    assertEnvelope(below, "installments_unavailable", 400);
    assert.deepEqual(below.body.error.details.allowed, range(1, 6));
    assert.equal(below.body.error.details.minInstallment, 5);
    const mxNotOffered = await cardPayment(m, "sbx_mx_card", 5000, 18);
    assertEnvelope(mxNotOffered, "installments_unavailable", 400);
    assert.deepEqual(mxNotOffered.body.error.details.allowed, [1, 3, 6, 9, 12]);
    const pix = await api("/payments", { key: sk(m), body: { amount: 150, currency: "BRL", paymentMethodId: "sbx_pix", ...HOSTED_BUYER, installments: 3 } });
    assertEnvelope(pix, "installments_unavailable", 400);
    assert.deepEqual(pix.body.error.details.allowed, [1]);
    assertEnvelope(await cardPayment(m, "sbx_br_card", 150, 0), "invalid_request", 400);
    assert.equal(await rowCount(m), 0);
  });

  test("a buyer-paid plan (com juros): Price-table installments, total and CET match an independent calculation", async () => {
    const m = await cardMerchant();
    const shopId = m.shopId;
    await setInstallmentPlan(shopId, "sbx_br_card", { paidBy: "buyer", counts: range(2, 12), rates: Object.fromEntries(range(2, 12).map((n) => [n, 199])) });
    const offer = (await offerOf(m, "sbx_br_card", 150)).installments;
    assert.equal(offer.paidBy, "buyer");
    for (const o of offer.options) {
      const each = priceTableCents(15_000n, o.count, 199n);
      assert.equal(o.amount, Number(each) / 100, `${o.count}x`);
      assert.equal(o.lastAmount, o.amount);
      assert.equal(o.total, (Number(each) * o.count) / 100);
      assert.equal(o.financingFee, Number(each * BigInt(o.count) - 15_000n) / 100);
      assert.equal(o.monthlyRate, 1.99);
      const cet = cetPercent(15_000n, Array(o.count).fill(each));
      assert.ok(Math.abs(o.cet - cet) <= 0.005, `${o.count}x CET ${o.cet} vs ${cet}`);
    }
    // 10x of R$ 150.00 at 1.99% a month: 10 of R$ 16.69, R$ 166.90 in all.
    const r = await cardPayment(m, "sbx_br_card", 150, 10);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual({ ...r.body.installments, cet: undefined }, { count: 10, amount: 16.69, lastAmount: 16.69, total: 166.9, financingFee: 16.9, paidBy: "buyer", monthlyRate: 1.99, cet: undefined });
    assert.equal(r.body.amountLocal, 150, "the shop is credited the price");
    // Back to the default plan.
    await setInstallmentPlan(shopId, "sbx_br_card", { reset: true });
    assert.equal((await offerOf(m, "sbx_br_card")).installments.paidBy, "merchant");
  });
});

describe("checkout sessions take installments", () => {
  test("one-shot and selector sessions create the payment on the plan; a count outside it is refused", async () => {
    const m = await cardMerchant();
    const oneShot = await api("/checkout/sessions", { key: sk(m), body: { amount: 150, currency: "BRL", paymentMethodId: "sbx_br_card", installments: 12, ...HOSTED_BUYER } });
    assert.equal(oneShot.status, 200, oneShot.text);
    assert.deepEqual((await api(`/payments/${oneShot.body.transactionId}`, { key: sk(m) })).body.installments, shopPaid(15_000n, 12, BR_FEE_BP(12)));
    const customer = { firstName: "Ana", lastName: "Souza", email: "ana@example.com", phone: "+5511987654321", documentId: "529.982.247-25" };
    const session = (await api("/checkout/sessions", { key: sk(m), body: { amount: 150, currency: "BRL", country: "BR", customer } })).body;
    const refused = await api(`/checkout/sessions/${session.sessionId}/select`, { body: { paymentMethodId: "sbx_br_card", installments: 13 } });
    assertEnvelope(refused, "installments_unavailable", 400);
    const chosen = await api(`/checkout/sessions/${session.sessionId}/select`, { body: { paymentMethodId: "sbx_br_card", installments: 3 } });
    assert.equal(chosen.status, 200, chosen.text);
    assert.deepEqual((await api(`/payments/${chosen.body.transactionId}`, { key: sk(m) })).body.installments, shopPaid(15_000n, 3, BR_FEE_BP(3)));
  });
});
