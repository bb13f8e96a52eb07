// Pay-ins in a presentment currency over real HTTP (API reference 4.4; decisions.md Pay-ins): the
// price rule through the ledger, inputCurrency/inputAmount and the converted headline (half-up),
// unknown currencies, and production without an FX rate; a refused request writes nothing.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { api, assertEnvelope, newMerchant } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { BUYER, expectedHeadline, sk, pay, created, getPayment, assertNoRows } from "./payments-fixtures.ts";

after(() => db().$disconnect());

describe("presentment currency", () => {
  test("the price rule through the ledger: 150 BRL asked on PIX is 150 BRL paid; the USD credit carries the markup", async () => {
    const m = await newMerchant();
    const p = await created(await pay(sk(m), { amount: 150, currency: "BRL", paymentMethodId: "sbx_pix", ...BUYER.sbx_pix }));
    assert.equal(p.amountLocal, 150);
    assert.equal(p.amount, expectedHeadline(150, 540n)); // 150 ÷ 5.40 × 0.98 = 27.222… -> 27.22
    const paid = await api(`/payments/${p.transactionId}/simulate`, { key: sk(m), body: { action: "paid" } });
    assert.equal(paid.status, 200, paid.text);
    const bal = (await api("/me/balance", { key: sk(m) })).body;
    assert.deepEqual(bal.ledgerWarnings, []);
    assert.equal(bal.feeSummary.grossVolume, p.amount);
    // A refund in the buyer's currency takes its share of the USD credit: 50 of 150 BRL -> 9.07 USD.
    const refund = await api(`/payments/${p.transactionId}/refund`, { key: sk(m), body: { amount: 50 } });
    assert.equal(refund.status, 200, refund.text);
    assert.equal(refund.body.amount, 50);
    assert.equal(refund.body.amountUsd, 9.07);
  });

  test("non-USD currency: inputCurrency/inputAmount echoed; amount = input ÷ rate × 0.98, half-up; the buyer pays what was asked", async () => {
    const m = await newMerchant();
    const brl = await created(await pay(sk(m), { amount: 100, currency: "BRL", paymentMethodId: "sbx_pix", ...BUYER.sbx_pix }));
    assert.equal(brl.inputCurrency, "BRL");
    assert.equal(brl.inputAmount, 100);
    assert.equal(brl.currency, "USD");
    assert.equal(brl.amount, expectedHeadline(100, 540n)); // 18.148… -> 18.15
    assert.equal(brl.amount, 18.15);
    // The price rule (decisions.md, Money): in the rail's own currency the buyer pays exactly what
    // was asked; the 2 % markup lowers only the USD credit (18.15, not 18.52).
    assert.equal(brl.amountLocal, 100);
    assert.equal(brl.currencyLocal, "BRL");
    const got = await getPayment(m, brl.transactionId);
    assert.equal(got.inputCurrency, "BRL");
    assert.equal(got.inputAmount, 100);
    assert.equal(got.amount, 18.15);

    // Lower case is accepted; another currency than the rail's works too.
    const mxn = await created(await pay(sk(m), { amount: 1000, currency: "mxn", paymentMethodId: "sbx_card" }));
    assert.equal(mxn.inputCurrency, "MXN");
    assert.equal(mxn.inputAmount, 1000);
    assert.equal(mxn.amount, expectedHeadline(1000, 1820n)); // 53.846… -> 53.85
    // Another currency than the rail's is converted for the buyer at the mid rate: 1000 ÷ 18.20.
    assert.equal(mxn.amountLocal, 54.95);

    const exact = await created(await pay(sk(m), { amount: 540, currency: "BRL", paymentMethodId: "sbx_card" }));
    assert.equal(exact.amount, 98);

    // A currency without minor units: 10,000 CLP ÷ 950 × 0.98 = 10.3157… -> 10.32; decimals are refused.
    const clp = await created(await pay(sk(m), { amount: 10000, currency: "CLP", paymentMethodId: "sbx_card" }));
    assert.equal(clp.amount, 10.32);
    assert.equal(clp.inputAmount, 10000);
    assertEnvelope(await pay(sk(m), { amount: 10.5, currency: "CLP", paymentMethodId: "sbx_card" }), "amount_invalid", 400);

    // USD sent explicitly is not a presentment currency.
    const usd = await created(await pay(sk(m), { amount: 10, currency: "USD", paymentMethodId: "sbx_card" }));
    assert.equal("inputCurrency" in usd, false);
    assert.equal(usd.amount, 10);
  });

  test("unknown currency: 400 unsupported_currency; not a 3-letter code: 400 invalid_request; nothing created", async () => {
    const m = await newMerchant();
    const r = await pay(sk(m), { amount: 10, currency: "XYZ", paymentMethodId: "sbx_card" });
    assertEnvelope(r, "unsupported_currency", 400);
    assert.equal(r.body.error.param, "currency");
    const shape = await pay(sk(m), { amount: 10, currency: "US", paymentMethodId: "sbx_card" });
    assertEnvelope(shape, "invalid_request", 400);
    assert.equal(shape.body.error.param, "currency");
    // A presentment amount with more decimals than its currency allows.
    assertEnvelope(await pay(sk(m), { amount: 10.005, currency: "BRL", paymentMethodId: "sbx_card" }), "amount_invalid", 400);
    await assertNoRows(m);
  });

  // Production FX rates are a table shared by every test file (e2e/api/providers.test.ts seeds
  // the rails' currencies); no test seeds EUR, so a EUR presentment charge has no rate.
  test("production, a presentment currency without an FX rate: 422 fx_unavailable naming it; nothing created", async () => {
    const m = await newMerchant();
    const r = await pay(m.production.secretKey, { amount: 10, currency: "EUR", paymentMethodId: "1003", documentId: "GODE561231GR8", userName: "Diego Gomez" });
    assertEnvelope(r, "fx_unavailable", 422);
    assert.equal(r.body.error.param, "currency");
    assert.deepEqual(r.body.error.details, { currency: "EUR" });
    await assertNoRows(m);
    // The sandbox has fixed rates, EUR included.
    const sandbox = await created(await pay(sk(m), { amount: 10, currency: "EUR", paymentMethodId: "sbx_card" }));
    assert.equal(sandbox.amount, expectedHeadline(10, 92n));
  });
});
