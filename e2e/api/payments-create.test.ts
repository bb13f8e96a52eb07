// Pay-ins over real HTTP, creation (API reference 2.1, 4.4; decisions.md Pay-ins): a direct
// charge on every sandbox rail (shape, FX, fees, settlement, expiry, working URLs), the
// /transactions alias, hosted checkout and its link, idempotent retries, country and legacy slug
// routing, production catalog ids in the sandbox, and the sandbox provider's hosted page.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { api, assertEnvelope, newMerchant } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { railExpiry } from "@/lib/catalog/expiry";
import { SANDBOX_RAILS } from "@/lib/rails/rails";
import { BUYER, HOSTED_BUYER, RAIL, SANDBOX_IDS, expectedPricing, expectedLocal, sk, pay, okBody, created, newPayment, getPayment, rowCount, events, sortedTypes, catalogFee, page } from "./payments-fixtures.ts";

after(() => db().$disconnect());

describe("POST /payments: direct charge in the sandbox", () => {
  for (const rail of SANDBOX_IDS) {
    test(`${rail}: 200 with the 4.4 shape, FX, fees, settlement, working URLs`, async () => {
      const m = await newMerchant({ tier: "standard" });
      const before = Date.now();
      const body = okBody(rail, { merchantOrderId: `order-${rail}`, tag1: "alpha", tag2: "béta ✓", tag3: "x".repeat(200) });
      const r = await pay(sk(m), body);
      const p = await created(r);

      assert.match(p.transactionId, /^tx_[0-9A-Za-z]{24}$/);
      assert.equal(p.status, "pending");
      assert.equal(p.amount, 12.34);
      assert.equal(p.currency, "USD");
      assert.equal("inputCurrency" in p, false, "no presentment fields for a USD charge");
      assert.equal("inputAmount" in p, false);
      assert.equal(p.amountLocal, expectedLocal(12.34, rail));
      assert.equal(p.currencyLocal, RAIL[rail].currency);
      assert.equal(p.paymentMethodId, rail);
      assert.equal(p.paymentMethod, RAIL[rail].method);
      assert.equal(typeof p.paymentMethodName, "string");
      assert.ok(p.paymentMethodName.length > 0);
      assert.deepEqual(p.paymentData, { method: RAIL[rail].method });
      assert.equal(p.merchantOrderId, `order-${rail}`);
      assert.equal(p.tag1, "alpha");
      assert.equal(p.tag2, "béta ✓");
      assert.equal(p.tag3, "x".repeat(200));

      const price = expectedPricing(12.34, "standard", await catalogFee(m, rail));
      assert.deepEqual(p.fees, price.fees);
      assert.deepEqual(p.settlement, { type: "delayed", delay: RAIL[rail].delay, reserve: price.reserve, status: "pending" });

      // Each rail's own deadline (decisions.md, Pay-ins): card and PIX 30 min, SPEI 24 h, vouchers 3 days.
      const minutes = railExpiry(SANDBOX_RAILS.find((r) => r.paymentMethodId === rail)!).defaultMinutes;
      const expires = Date.parse(p.expiresAt);
      assert.ok(expires >= before + minutes * 60_000 - 5_000 && expires <= Date.now() + minutes * 60_000 + 5_000, `expiresAt ${p.expiresAt} ≈ now + ${minutes} min`);
      const got = await getPayment(m, p.transactionId);
      assert.equal(Date.parse(got.expiresAt) - Date.parse(got.timestamps.created), minutes * 60_000);

      // Direct charge: the provider page, never the service's checkout link.
      assert.equal("checkoutUrl" in p, false);
      assert.equal(p.logoUrl, p.iconUrl);
      for (const url of [p.logoUrl, p.paymentFormUrl]) assert.match(url, /^https?:\/\//, "absolute URL");
      const icon = await page(p.iconUrl);
      assert.equal(icon.status, 200);
      assert.match(icon.headers.get("content-type") ?? "", /^image\/svg\+xml/);
      const form = await page(p.paymentFormUrl);
      assert.equal(form.status, 200);
      assert.match(form.headers.get("content-type") ?? "", /text\/html/);
      const html = await form.text();
      assert.ok(html.includes("Test mode"), "the sandbox page says it is in test mode");
      assert.ok(html.includes(p.transactionId));

      // Exactly one pending row for this merchant, in the sandbox.
      const rows = await db().transaction.findMany({ where: { merchantId: m.merchantId } });
      assert.equal(rows.length, 1);
      assert.equal(rows[0]!.environment, "sandbox");
      assert.equal(rows[0]!.status, "pending");
    });
  }

  test("POST /transactions behaves identically; GET /transactions/{id} equals GET /payments/{id}", async () => {
    const m = await newMerchant();
    const body = okBody("sbx_pix", { merchantOrderId: "same", tag1: "t" });
    const a = await created(await pay(sk(m), body));
    const b = await created(await api("/transactions", { key: sk(m), body }));
    assert.deepEqual(Object.keys(b).sort(), Object.keys(a).sort());
    const strip = (x: any) => ({ ...x, transactionId: undefined, expiresAt: undefined, paymentFormUrl: undefined });
    assert.deepEqual(strip(b), strip(a));
    assert.ok(b.paymentFormUrl.endsWith(b.transactionId));
    for (const id of [a.transactionId, b.transactionId]) {
      const viaPayments = await api(`/payments/${id}`, { key: sk(m) });
      const viaTransactions = await api(`/transactions/${id}`, { key: sk(m) });
      assert.equal(viaTransactions.status, 200);
      assert.deepEqual(viaTransactions.body, viaPayments.body);
    }
    // The alias validates like the original.
    const bad = await api("/transactions", { key: sk(m), body: { paymentMethodId: "sbx_card" } });
    assertEnvelope(bad, "missing_field", 400);
    assert.equal(bad.body.error.param, "amount");
    assert.equal(await rowCount(m), 2);
  });

  test("hostedCheckout: checkoutUrl /c/<txId> (with returnUrl), no paymentFormUrl; the link 307s to the provider page", async () => {
    const m = await newMerchant();
    const returnUrl = "https://shop.example/thanks?order=42&x=a b";
    const p = await created(await pay(sk(m), okBody("sbx_card", { hostedCheckout: true, returnUrl, ...HOSTED_BUYER })));
    assert.equal("paymentFormUrl" in p, false);
    const link = new URL(p.checkoutUrl);
    assert.equal(link.pathname, `/c/${p.transactionId}`);
    assert.equal(link.searchParams.get("returnUrl"), returnUrl);
    assert.equal(link.origin, new URL(p.logoUrl).origin);

    const providerPage = (await getPayment(m, p.transactionId)).paymentFormUrl;
    assert.ok(providerPage, "the transaction still knows its provider page");
    const res = await page(p.checkoutUrl);
    assert.equal(res.status, 307);
    assert.equal(res.headers.get("location"), providerPage);
    assert.equal((await page(providerPage)).status, 200);

    const plain = await created(await pay(sk(m), okBody("sbx_card", { hostedCheckout: true, ...HOSTED_BUYER })));
    assert.equal(new URL(plain.checkoutUrl).search, "");
    assert.equal(new URL(plain.checkoutUrl).pathname, `/c/${plain.transactionId}`);

    // returnUrl alone (without hostedCheckout) does not turn the answer into a checkout link.
    const direct = await created(await pay(sk(m), okBody("sbx_card", { returnUrl })));
    assert.equal("checkoutUrl" in direct, false);
    assert.ok(direct.paymentFormUrl);
  });

  test("hostedCheckout without the buyer (contract 4.4): 422 missing_required_fields naming userName, userEmail, documentId; nothing created", async () => {
    const m = await newMerchant();
    const orderId = `hosted-${Date.now()}`;
    const r = await pay(sk(m), okBody("sbx_card", { hostedCheckout: true, merchantOrderId: orderId }));
    assertEnvelope(r, "missing_required_fields", 422);
    assert.deepEqual(r.body.error.details.missingFields.map((f: { key: string }) => f.key).sort(), ["documentId", "userEmail", "userName"]);
    const partly = await pay(sk(m), okBody("sbx_card", { hostedCheckout: true, merchantOrderId: orderId, userName: "Ana Souza" }));
    assertEnvelope(partly, "missing_required_fields", 422);
    assert.deepEqual(partly.body.error.details.missingFields.map((f: { key: string }) => f.key).sort(), ["documentId", "userEmail"]);
    assert.equal(await db().transaction.count({ where: { merchantId: m.merchantId, merchantOrderId: orderId } }), 0);
  });

  test("/c/<txId> of an unknown or malformed id: 404", async () => {
    assert.equal((await page("/c/tx_000000000000000000000000")).status, 404);
    assert.equal((await page("/c/nope")).status, 404);
  });

  test("a retry with the same Idempotency-Key replays the same payment; one row", async () => {
    const m = await newMerchant();
    const idem = randomUUID();
    const first = await pay(sk(m), okBody("sbx_spei"), { "idempotency-key": idem });
    const second = await pay(sk(m), okBody("sbx_spei"), { "idempotency-key": idem });
    assert.equal(first.status, 200);
    assert.equal(second.headers.get("idempotent-replayed"), "true");
    assert.deepEqual(second.body, first.body);
    assert.equal(await rowCount(m), 1);
    assertEnvelope(await pay(sk(m), okBody("sbx_spei", { amount: 99 }), { "idempotency-key": idem }), "idempotency_conflict", 409);
    assert.equal(await rowCount(m), 1);
  });

  test("country: ISO-2 and ISO-3 in any case are stored as ISO-3; absent, it is the rail's", async () => {
    const m = await newMerchant();
    for (const country of ["BR", "BRA", "br"]) {
      const p = await created(await pay(sk(m), okBody("sbx_pix", { country })));
      assert.equal((await getPayment(m, p.transactionId)).country, "BRA");
    }
    const card = await newPayment(m, "sbx_card");
    assert.equal((await getPayment(m, card.transactionId)).country, "USA");
    const spei = await newPayment(m, "sbx_spei");
    assert.equal((await getPayment(m, spei.transactionId)).country, "MEX");
  });

  test("legacy paymentMethod slug routes by slug and country; neither id nor slug: 400 missing_field paymentMethodId", async () => {
    const m = await newMerchant();
    const pix = await created(await pay(sk(m), { amount: 10, paymentMethod: "pix", country: "BR", ...BUYER.sbx_pix }));
    assert.equal(pix.paymentMethod, "pix");
    assert.equal(pix.currencyLocal, "BRL");
    const card = await created(await pay(sk(m), { amount: 10, paymentMethod: "card" }));
    assert.equal(card.currencyLocal, "USD", "country defaults to USA");
    // The id wins over the slug.
    const both = await created(await pay(sk(m), { amount: 10, paymentMethodId: "sbx_card", paymentMethod: "pix" }));
    assert.equal(both.paymentMethodId, "sbx_card");
    assert.equal(await rowCount(m), 3);

    const none = await pay(sk(m), { amount: 10 });
    assertEnvelope(none, "missing_field", 400);
    assert.equal(none.body.error.param, "paymentMethodId");
    const nowhere = await pay(sk(m), { amount: 10, paymentMethod: "boleto", country: "US" });
    assertEnvelope(nowhere, "cascade_exhausted", 422);
    assert.equal(nowhere.body.error.details.reason, "no_provider_for_method_region");
    assert.equal(await rowCount(m), 3);
  });

  test("a production catalog id is chargeable in the sandbox; with a country it does not serve: 400 unsupported_country", async () => {
    const m = await newMerchant();
    const p = await created(await pay(sk(m), { amount: 10, paymentMethodId: "1003", documentId: "GODE561231GR8", userName: "Diego Gomez" }));
    assert.equal(p.paymentMethodId, "1003");
    assert.equal(p.currencyLocal, "MXN");
    assert.equal(p.amountLocal, 182);
    const wrong = await pay(sk(m), { amount: 10, paymentMethodId: "1003", country: "BR", documentId: "GODE561231GR8", userName: "Diego Gomez" });
    assertEnvelope(wrong, "unsupported_country", 400);
    assert.equal(wrong.body.error.param, "country");
    assert.equal(await rowCount(m), 1);
  });
});
describe("the sandbox provider's hosted page", () => {
  const action = (id: string, value: string) =>
    page(`/pay/sandbox/${id}/action`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `action=${value}` });

  test("the page shows the instructions; POST action=paid: 303 to the result page, payment completed, events fired", async () => {
    const m = await newMerchant();
    const p = await newPayment(m, "sbx_spei");
    const html = await (await page(p.paymentFormUrl)).text();
    assert.ok(html.includes("Test mode"));
    assert.ok(html.includes("CLABE"));
    assert.ok(html.includes("Simulate paid"));

    const res = await action(p.transactionId, "paid");
    assert.equal(res.status, 303);
    assert.equal(new URL(res.headers.get("location")!).pathname, `/c/${p.transactionId}/result`);
    assert.equal((await getPayment(m, p.transactionId)).status, "completed");
    assert.deepEqual(sortedTypes(await events(m.merchantId)), ["payment.captured", "payment.completed"]);
    const after = await (await page(p.paymentFormUrl)).text();
    assert.ok(after.includes("completed"));
    assert.ok(!after.includes("Simulate paid"), "no buttons once the payment is final");
    // A late click changes nothing.
    assert.equal((await action(p.transactionId, "failed")).status, 303);
    assert.equal((await getPayment(m, p.transactionId)).status, "completed");
  });

  test("after a hosted-checkout payment completes, the page links back to the merchant's returnUrl", async () => {
    const m = await newMerchant();
    const returnUrl = "https://shop.example/return?order=7";
    const p = await newPayment(m, "sbx_pix", { hostedCheckout: true, returnUrl });
    const providerPage = (await page(p.checkoutUrl)).headers.get("location")!;
    assert.ok(!(await (await page(providerPage)).text()).includes(returnUrl), "no way back while pending");
    assert.equal((await action(p.transactionId, "paid")).status, 303);
    const html = await (await page(providerPage)).text();
    assert.ok(html.includes(`href="${returnUrl}"`), "a link back to the merchant");
  });

  test("POST action=failed: payment failed; unknown action 400; unknown payment 404", async () => {
    const m = await newMerchant();
    const p = await newPayment(m);
    assert.equal((await action(p.transactionId, "refunded")).status, 400);
    assert.equal((await getPayment(m, p.transactionId)).status, "pending");
    assert.equal((await action(p.transactionId, "failed")).status, 303);
    assert.equal((await getPayment(m, p.transactionId)).status, "failed");
    assert.equal((await action("tx_000000000000000000000000", "paid")).status, 404);
    assert.equal((await page("/pay/sandbox/tx_000000000000000000000000")).status, 404);
  });
});
