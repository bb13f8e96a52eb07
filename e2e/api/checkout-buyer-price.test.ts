// The price rule through the hosted checkout over real HTTP (issue 13; decisions.md, Money): the
// asked amount on the sessions, pages and payments, the USD credit with its markup, the ledger's
// agreement, and a USD session converted for the buyer at the mid rate.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { api, newMerchant } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { CPF, CURP, customer, sk, newShopMerchant, createSession, select, simulate, page, has, hasNot, credit } from "./checkout-buyer-fixtures.ts";

before(newShopMerchant);
after(() => db().$disconnect());

describe("the price rule through the hosted checkout (decisions.md, Money)", () => {
  test("150 BRL asked: the page, the payment and the buyer pages say 150 BRL; the USD credit carries the 2 % markup; the ledger agrees", async () => {
    const merchant = await newMerchant();
    const s = await createSession({ amount: 150, currency: "BRL", country: "BR", customer, merchantOrderId: "price-brl" }, merchant.sandbox.secretKey);
    assert.equal(s.status, 200, s.text);
    // The session's USD amount is the credit: 150 ÷ 5.40 × 0.98 = 27.22 (the mid rate would give 27.78).
    assert.equal(s.body.amount, credit(15_000n, 540n));
    assert.equal(s.body.amount, 27.22);
    const selector = await page(`/checkout/${s.body.sessionId}`, { "accept-language": "pt-BR" });
    has(selector, /data-testid="amount"[^>]*>R\$\s150,00</);
    hasNot(selector, /146,99/);
    hasNot(selector, /27,22|Aprox/, "the merchant's USD credit is not the buyer's business");
    // Without a country (methods in several currencies) the headline is still the asked amount.
    const anywhere = (await createSession({ amount: 150, currency: "BRL", customer }, merchant.sandbox.secretKey)).body;
    has(await page(`/checkout/${anywhere.sessionId}`, { "accept-language": "pt-BR" }), /data-testid="amount"[^>]*>R\$\s150,00</);

    const sel = await select(s.body.sessionId, { paymentMethodId: "sbx_pix", customer: { documentId: CPF } });
    assert.equal(sel.status, 200, sel.text);
    const txId = sel.body.transactionId;
    const p = (await api(`/payments/${txId}`, { key: merchant.sandbox.secretKey })).body;
    assert.equal(p.amountLocal, 150);
    assert.equal(p.currencyLocal, "BRL");
    assert.equal(p.inputAmount, 150);
    assert.equal(p.inputCurrency, "BRL");
    assert.equal(p.amount, 27.22);
    const provider = await page(`/pay/sandbox/${txId}?locale=pt-BR`);
    has(provider, /R\$\s150,00/);

    assert.equal((await simulate(txId, "paid", merchant.sandbox.secretKey)).status, 200);
    const bal = (await api("/me/balance", { key: merchant.sandbox.secretKey })).body;
    assert.deepEqual(bal.ledgerWarnings, []);
    assert.equal(bal.feeSummary.grossVolume, 27.22);
    // The completion posting credits exactly the USD credit, no more: 2722 cents leave provider clearing.
    const legs = await db().ledgerEntry.findMany({ where: { posting: { transactionId: txId } } });
    assert.ok(legs.length > 0);
    for (const cur of new Set(legs.map((l) => l.currency))) assert.equal(legs.filter((l) => l.currency === cur).reduce((a, l) => a + l.amount, 0n), 0n);
    assert.deepEqual(new Set(legs.map((l) => l.currency)), new Set(["USD"]));
    assert.equal(legs.filter((l) => l.account === "provider_clearing").reduce((a, l) => a + l.amount, 0n), -2722n);
    const result = await page(`/c/${txId}/result?locale=pt-BR`);
    has(result, /R\$\s150,00/);
  });

  test("499 MXN on SPEI and OXXO, 60,000 COP on PSE, a one-shot 150 BRL PIX: each buyer pays exactly the asked amount", async () => {
    const mxn = await createSession({ amount: 499, currency: "MXN", country: "MX", customer: { ...customer, documentId: CURP } });
    assert.equal(mxn.status, 200, mxn.text);
    const spei = await select(mxn.body.sessionId, { paymentMethodId: "sbx_spei" });
    assert.equal(spei.status, 200, spei.text);
    const speiTx = (await api(`/payments/${spei.body.transactionId}`, { key: sk() })).body;
    assert.equal(speiTx.amountLocal, 499);
    assert.equal(speiTx.amount, credit(49_900n, 1820n)); // 26.87, not 27.42
    const html = await page(`/checkout/${(await createSession({ amount: 499, currency: "MXN", country: "MX", customer })).body.sessionId}?locale=es-MX`);
    assert.equal((html.match(/\$499\.00/g) ?? []).length >= 3, true, "the headline and both MX test methods show $499.00");
    hasNot(html, /489\.03/);

    const cop = await createSession({ amount: 60_000, currency: "COP", country: "CO", customer: { ...customer, documentId: "1234567890" } });
    assert.equal(cop.status, 200, cop.text);
    const pse = await select(cop.body.sessionId, { paymentMethodId: "sbx_pse" });
    assert.equal(pse.status, 200, pse.text);
    assert.equal((await api(`/payments/${pse.body.transactionId}`, { key: sk() })).body.amountLocal, 60_000);

    const one = await createSession({ amount: 150, currency: "BRL", paymentMethodId: "sbx_pix", userName: "Ana Souza", userEmail: "ana@example.com", documentId: CPF });
    assert.equal(one.status, 200, one.text);
    assert.equal(one.body.amountLocal, 150);
    assert.equal(one.body.inputAmount, 150);
    assert.equal(one.body.amount, 27.22);
  });

  test("a USD session is converted for the buyer at the mid rate (no markup), and credited as asked", async () => {
    const s = await createSession({ amount: 100, country: "MX", customer: { ...customer, documentId: CURP } });
    const sel = await select(s.body.sessionId, { paymentMethodId: "sbx_spei" });
    const p = (await api(`/payments/${sel.body.transactionId}`, { key: sk() })).body;
    assert.equal(p.amount, 100);
    assert.equal(p.amountLocal, 1820);
  });
});
