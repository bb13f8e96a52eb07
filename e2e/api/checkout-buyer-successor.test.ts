// Successor sessions of the hosted checkout over real HTTP (issue 13; decisions.md, Hosted
// checkout: after a failure): 'pay another way' makes one successor with the same order, amount
// and customer; which payments may be retried and which may not.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { API_URL, api, assertEnvelope, newMerchant } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { CPF, CURP, customer, newShopMerchant, createSession, select, simulate, formPost, page, has, hasNot, tokenOf } from "./checkout-buyer-fixtures.ts";

before(newShopMerchant);
after(() => db().$disconnect());

describe("successor sessions (decisions.md, Hosted checkout: after a failure)", () => {
  test("after a failure, 'pay another way' makes one successor with the same order, amount and customer; it completes; both directions are shown", async () => {
    const merchant = await newMerchant();
    const key = merchant.sandbox.secretKey;
    const order = `retry-${Date.now()}`;
    const first = (await createSession({ amount: 150, currency: "BRL", country: "BR", customer, merchantOrderId: order }, key)).body;
    const tx1 = (await select(first.sessionId, { paymentMethodId: "sbx_pix", customer: { documentId: CPF } })).body.transactionId;

    // Still pending: nothing to retry; the form leads back to the result page.
    const early = await formPost(`/c/${tx1}/retry`);
    assert.equal(early.status, 303);
    has(early.headers.get("location") ?? "", new RegExp(`/c/${tx1}/result`));
    assert.equal((await api(`/checkout/sessions/${first.sessionId}`)).body.nextSessionId, null);

    assert.equal((await simulate(tx1, "failed", key)).status, 200);
    const resultPage = await page(`/c/${tx1}/result`);
    has(resultPage, /Pay another way/);
    assert.ok(resultPage.includes(`action="/c/${tx1}/retry?locale=en"`));

    // Two tabs, double clicks: one successor.
    const clicks = await Promise.all(Array.from({ length: 5 }, () => formPost(`/c/${tx1}/retry?locale=pt-BR`)));
    const tokens = new Set(clicks.map((r) => (assert.equal(r.status, 303), tokenOf(r.headers.get("location")))));
    assert.equal(tokens.size, 1, [...tokens].join(", "));
    const nextToken = [...tokens][0]!;
    assert.ok(nextToken && nextToken !== first.sessionId);
    has(clicks[0]!.headers.get("location")!, /locale=pt-BR/);
    assert.equal(await db().checkoutSession.count({ where: { previousSessionId: first.sessionId } }), 1);

    const before = (await api(`/checkout/sessions/${first.sessionId}`)).body;
    const next = (await api(`/checkout/sessions/${nextToken}`)).body;
    assert.equal(before.nextSessionId, nextToken);
    assert.equal(before.previousSessionId, null);
    assert.equal(next.previousSessionId, first.sessionId);
    assert.equal(next.nextSessionId, null);
    assert.equal(next.status, "awaiting_method");
    assert.equal(next.merchantOrderId, order);
    assert.equal(next.amount, first.amount);
    assert.equal(next.inputAmount, 150);
    assert.equal(next.inputCurrency, "BRL");
    assert.deepEqual(next.customer, first.customer);
    assert.equal(next.country, "BRA");
    assert.equal(next.expiresAt, first.expiresAt); // the retry does not extend the merchant's checkout
    assert.equal(next.allowRetry, true);

    // The first link now leads to the successor; the result page links to it too.
    const old = await fetch(`${API_URL}/checkout/${first.sessionId}?locale=en`, { redirect: "manual" });
    assert.ok([303, 307, 308].includes(old.status), `status ${old.status}`);
    assert.equal(tokenOf(old.headers.get("location")), nextToken);
    assert.ok((await page(`/c/${tx1}/result`)).includes(`/checkout/${nextToken}`));

    // The successor completes (with another method, at the same price).
    const sel2 = await select(nextToken, { paymentMethodId: "sbx_pix", customer: { documentId: CPF } });
    assert.equal(sel2.status, 200, sel2.text);
    const tx2 = sel2.body.transactionId;
    assert.equal((await simulate(tx2, "paid", key)).status, 200);
    const list = (await api(`/payments?merchantOrderId=${order}`, { key })).body;
    const rows = list.data ?? list.items ?? list.payments;
    assert.deepEqual(rows.map((r: any) => [r.id, r.status, r.amountLocal]).sort(), [[tx1, "failed", 150], [tx2, "completed", 150]].sort());
    const events = (await api(`/events?objectId=${tx1}`, { key })).body;
    assert.ok((events.data ?? events.items).some((e: any) => e.type === "payment.failed"));
    const events2 = (await api(`/events?objectId=${tx2}`, { key })).body;
    assert.ok((events2.data ?? events2.items).some((e: any) => e.type === "payment.completed"));
    // A paid successor offers nothing more.
    hasNot(await page(`/c/${tx2}/result`), /Pay another way/);
  });

  test("an expired payment may be retried; allowRetry false, a one-shot payment and a session past its 24 h may not", async () => {
    const s = (await createSession({ amount: 20, country: "MX", customer: { ...customer, documentId: CURP } })).body;
    const tx = (await select(s.sessionId, { paymentMethodId: "sbx_cash", customer: { phone: "+52 55 1234 5678" } })).body.transactionId;
    assert.ok(tx);
    assert.equal((await simulate(tx, "expired")).status, 200);
    const used = await page(`/checkout/${s.sessionId}`);
    has(used, /Pay another way/);
    const ok = await formPost(`/c/${tx}/retry`);
    assert.ok(tokenOf(ok.headers.get("location")));

    const noRetry = (await createSession({ amount: 20, country: "BR", customer: { ...customer, documentId: CPF }, allowRetry: false, returnUrl: "https://shop.example/cart" })).body;
    assert.equal(noRetry.allowRetry, false);
    const tx2 = (await select(noRetry.sessionId, { paymentMethodId: "sbx_pix" })).body.transactionId;
    await simulate(tx2, "failed");
    const refused = await formPost(`/c/${tx2}/retry`);
    has(refused.headers.get("location") ?? "", new RegExp(`/c/${tx2}/result`));
    const result = await page(`/c/${tx2}/result`);
    hasNot(result, /Pay another way/);
    assert.ok(result.includes('href="https://shop.example/cart"'), "the way back to the store");
    assertEnvelope(await createSession({ amount: 20, customer, allowRetry: "no" }), "invalid_request", 400);

    const one = (await createSession({ amount: 20, paymentMethodId: "sbx_card", userName: "Ana Souza", userEmail: "ana@example.com", documentId: CPF })).body;
    await simulate(one.transactionId, "failed");
    has((await formPost(`/c/${one.transactionId}/retry`)).headers.get("location") ?? "", /\/result/);
    has(await page(`/c/${one.transactionId}/result`), /go back to the store/);

    const late = (await createSession({ amount: 20, country: "BR", customer: { ...customer, documentId: CPF } })).body;
    const tx3 = (await select(late.sessionId, { paymentMethodId: "sbx_pix" })).body.transactionId;
    await simulate(tx3, "failed");
    await db().checkoutSession.update({ where: { id: late.sessionId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    has((await formPost(`/c/${tx3}/retry`)).headers.get("location") ?? "", /\/result/);
    assert.equal(await db().checkoutSession.count({ where: { previousSessionId: late.sessionId } }), 0);

    const cross = await formPost(`/c/${tx}/retry`, {}, { "sec-fetch-site": "cross-site" });
    assert.equal(cross.status, 403);
  });
});
