// POST /payments refusals over real HTTP (API reference 4.4, 6-8): every rejection (amounts,
// limits, buyer data and documents, unknown or disabled methods, schema, the Sandbox-Simulate
// value, key kinds, shop scope) answers its error envelope and creates nothing.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { assertEnvelope, newMerchant } from "./helpers.ts";
import { createMerchantWideKeys } from "@/lib/merchants/manage-keys";
import { setShopPaymentMethods } from "@/lib/catalog/set-shop-methods";
import { db } from "@/lib/platform/db";
import { sk, pay, okBody, created, getPayment, rowCount, assertNoRows } from "./payments-fixtures.ts";

after(() => db().$disconnect());

describe("POST /payments: rejected requests create nothing", () => {
  test("amount 0, -5, \"10\", null, true, 10.001 USD: 400 amount_invalid", async () => {
    const m = await newMerchant();
    for (const amount of [0, -5, "10", null, true, 10.001, -0.01]) {
      const r = await pay(sk(m), { amount, paymentMethodId: "sbx_card" });
      assertEnvelope(r, "amount_invalid", 400);
      assert.equal(r.body.error.param, "amount", `amount ${JSON.stringify(amount)}`);
    }
    await assertNoRows(m);
  });

  test("amount absent: 400 missing_field param amount", async () => {
    const m = await newMerchant();
    const r = await pay(sk(m), { paymentMethodId: "sbx_card" });
    assertEnvelope(r, "missing_field", 400);
    assert.equal(r.body.error.param, "amount");
    await assertNoRows(m);
  });

  test("below and above the rail's limits: 422 amount_out_of_limits with details.limit and boundViolated", async () => {
    const m = await newMerchant();
    const low = await pay(sk(m), { amount: 0.99, paymentMethodId: "sbx_card" });
    assertEnvelope(low, "amount_out_of_limits", 422);
    assert.equal(low.body.error.details.boundViolated, "min");
    assert.equal(low.body.error.details.limit.min, 1);
    assert.equal(low.body.error.details.limit.max, 100000);

    // 600 USD = 10,920 MXN, over OXXO's 10,000 MXN.
    const high = await pay(sk(m), okBody("sbx_cash", { amount: 600 }));
    assertEnvelope(high, "amount_out_of_limits", 422);
    assert.equal(high.body.error.details.boundViolated, "max");
    assert.equal(high.body.error.details.limit.min, 10);
    assert.equal(high.body.error.details.limit.max, 10000);

    // Within the local bounds but over the rail's USD cap (sbx_cash: 500 USD).
    const usdCap = await pay(sk(m), okBody("sbx_cash", { amount: 500.01 }));
    assertEnvelope(usdCap, "amount_out_of_limits", 422);
    assert.equal(usdCap.body.error.details.boundViolated, "max");
    assert.equal(usdCap.body.error.details.limit.max, 500);

    // The bounds themselves are accepted.
    await created(await pay(sk(m), { amount: 1, paymentMethodId: "sbx_card" }));
    await created(await pay(sk(m), okBody("sbx_cash", { amount: 500 })));
    assert.equal(await rowCount(m), 2);
  });

  test("a USD headline over 100,000 (also through presentment): 422 amount_out_of_limits", async () => {
    const m = await newMerchant();
    const usd = await pay(sk(m), { amount: 100000.01, paymentMethodId: "sbx_card" });
    assertEnvelope(usd, "amount_out_of_limits", 422);
    assert.equal(usd.body.error.details.boundViolated, "max");
    assert.equal(usd.body.error.details.limit.max, 100000);
    // 500,000,000 COP ÷ 4100 × 0.98 ≈ 119,512 USD.
    const cop = await pay(sk(m), { amount: 500_000_000, currency: "COP", paymentMethodId: "sbx_card" });
    assertEnvelope(cop, "amount_out_of_limits", 422);
    assert.equal(cop.body.error.details.boundViolated, "max");
    await assertNoRows(m);
    await created(await pay(sk(m), { amount: 100000, paymentMethodId: "sbx_card" }));
  });

  test("sbx_pix without buyer data: 422 missing_required_fields, reason missing, items {key,type,label,help}", async () => {
    const m = await newMerchant();
    const r = await pay(sk(m), { amount: 10, paymentMethodId: "sbx_pix" });
    assertEnvelope(r, "missing_required_fields", 422);
    const d = r.body.error.details;
    assert.equal(d.reason, "missing");
    assert.deepEqual(d.missingFields.map((f: any) => f.key).sort(), ["documentId", "userEmail", "userName"]);
    for (const f of d.missingFields) {
      assert.deepEqual(Object.keys(f).sort(), ["help", "key", "label", "type"]);
      for (const v of Object.values(f)) assert.ok(typeof v === "string" && v.length > 0);
    }
    // Only what is absent is named.
    const partial = await pay(sk(m), { amount: 10, paymentMethodId: "sbx_pix", userName: "Ana Souza", userEmail: "ana@example.com", documentId: "   " });
    assertEnvelope(partial, "missing_required_fields", 422);
    assert.deepEqual(partial.body.error.details.missingFields.map((f: any) => f.key), ["documentId"]);
    assert.equal(partial.body.error.param, "documentId");
    await assertNoRows(m);
  });

  test("invalid CPF (all-equal digits, wrong check digit), one-word name, bad email: reason malformed", async () => {
    const m = await newMerchant();
    for (const documentId of ["111.111.111-11", "529.982.247-24", "529982247250", "11.222.333/0001-82"]) {
      const r = await pay(sk(m), { ...okBody("sbx_pix"), documentId });
      assertEnvelope(r, "missing_required_fields", 422);
      assert.equal(r.body.error.details.reason, "malformed", documentId);
      assert.deepEqual(r.body.error.details.malformedFields.map((f: any) => f.key), ["documentId"]);
      assert.deepEqual(Object.keys(r.body.error.details.malformedFields[0]).sort(), ["help", "key", "label", "type"]);
      assert.equal("missingFields" in r.body.error.details, false);
    }
    const name = await pay(sk(m), { ...okBody("sbx_pix"), userName: "Ana", userEmail: "not-an-email" });
    assertEnvelope(name, "missing_required_fields", 422);
    assert.deepEqual(name.body.error.details.malformedFields.map((f: any) => f.key).sort(), ["userEmail", "userName"]);
    // Missing and malformed together: reason missing, both lists present.
    const mixed = await pay(sk(m), { amount: 10, paymentMethodId: "sbx_pix", documentId: "111.111.111-11", userName: "Ana Souza" });
    assertEnvelope(mixed, "missing_required_fields", 422);
    assert.equal(mixed.body.error.details.reason, "missing");
    assert.deepEqual(mixed.body.error.details.missingFields.map((f: any) => f.key), ["userEmail"]);
    assert.deepEqual(mixed.body.error.details.malformedFields.map((f: any) => f.key), ["documentId"]);
    await assertNoRows(m);
  });

  test("valid CPF (formatted or bare) and valid CNPJ are accepted", async () => {
    const m = await newMerchant();
    for (const documentId of ["529.982.247-25", "52998224725", "11.222.333/0001-81", "11222333000181"]) {
      await created(await pay(sk(m), { ...okBody("sbx_pix"), documentId }));
    }
    assert.equal(await rowCount(m), 4);
  });

  test("sbx_spei: RFC (person, company) and CURP shapes accepted; other shapes malformed; name required", async () => {
    const m = await newMerchant();
    for (const documentId of ["GODE561231GR8", "ABC680524P76", "GODE561231HDFRRN09", "gode561231gr8"]) {
      await created(await pay(sk(m), { amount: 10, paymentMethodId: "sbx_spei", userName: "Diego Gomez", documentId }));
    }
    assert.equal(await rowCount(m), 4);
    for (const documentId of ["ABC123", "GODE561331GR8", "GODE561231ZDFRRN09", "52998224725"]) {
      const r = await pay(sk(m), { amount: 10, paymentMethodId: "sbx_spei", userName: "Diego Gomez", documentId });
      assertEnvelope(r, "missing_required_fields", 422);
      assert.equal(r.body.error.details.reason, "malformed", documentId);
    }
    const noName = await pay(sk(m), { amount: 10, paymentMethodId: "sbx_spei", documentId: "GODE561231GR8" });
    assertEnvelope(noName, "missing_required_fields", 422);
    assert.deepEqual(noName.body.error.details.missingFields.map((f: any) => f.key), ["userName"]);
    // Card needs no buyer data at all.
    await created(await pay(sk(m), { amount: 10, paymentMethodId: "sbx_card" }));
    assert.equal(await rowCount(m), 5);
  });

  test("unknown paymentMethodId: 422 cascade_exhausted, no_provider_for_method_region, paymentMethodEnabledForShop false", async () => {
    const m = await newMerchant();
    for (const id of ["9999", "sbx_nope"]) {
      const r = await pay(sk(m), { amount: 10, paymentMethodId: id });
      assertEnvelope(r, "cascade_exhausted", 422);
      assert.equal(r.body.error.details.reason, "no_provider_for_method_region");
      assert.equal(r.body.error.details.paymentMethodEnabledForShop, false);
    }
    await assertNoRows(m);
  });

  test("a rail disabled for the shop: 403 method_not_enabled_for_shop", async () => {
    const m = await newMerchant();
    await setShopPaymentMethods(m.shopId, { enable: [], disable: ["1003"] });
    const r = await pay(sk(m), { amount: 10, paymentMethodId: "1003", documentId: "GODE561231GR8", userName: "Diego Gomez" });
    assertEnvelope(r, "method_not_enabled_for_shop", 403);
    assert.equal(r.body.error.param, "paymentMethodId");
    await assertNoRows(m);
    // Another merchant's shop is unaffected.
    const other = await newMerchant();
    await created(await pay(sk(other), { amount: 10, paymentMethodId: "1003", documentId: "GODE561231GR8", userName: "Diego Gomez" }));
  });

  test("country ZZ: 400 invalid_request param country", async () => {
    const m = await newMerchant();
    for (const country of ["ZZ", "ZZZ"]) {
      const r = await pay(sk(m), { amount: 10, paymentMethodId: "sbx_card", country });
      assertEnvelope(r, "invalid_request", 400);
      assert.equal(r.body.error.param, "country");
    }
    await assertNoRows(m);
  });

  test("schema violations: over-long tag, non-boolean hostedCheckout, non-http returnUrl: 400 invalid_request", async () => {
    const m = await newMerchant();
    const cases: Array<[string, Record<string, unknown>]> = [
      ["tag1", { tag1: "x".repeat(201) }],
      ["merchantOrderId", { merchantOrderId: "x".repeat(121) }],
      ["hostedCheckout", { hostedCheckout: "yes" }],
      ["returnUrl", { hostedCheckout: true, returnUrl: "javascript:alert(1)" }],
      ["userName", { userName: "x ".repeat(61) + "y" }],
    ];
    for (const [param, extra] of cases) {
      const r = await pay(sk(m), { amount: 10, paymentMethodId: "sbx_card", ...extra });
      assertEnvelope(r, "invalid_request", 400);
      assert.equal(r.body.error.param, param);
    }
    await assertNoRows(m);
  });

  test("Sandbox-Simulate with an unknown value: 400 invalid_request param Sandbox-Simulate", async () => {
    const m = await newMerchant();
    const r = await pay(sk(m), okBody("sbx_card"), { "sandbox-simulate": "bogus" });
    assertEnvelope(r, "invalid_request", 400);
    assert.equal(r.body.error.param, "Sandbox-Simulate");
    await assertNoRows(m);
  });

  test("publishable key: 403 key_kind_not_allowed", async () => {
    const m = await newMerchant();
    assertEnvelope(await pay(m.sandbox.publishableKey, okBody("sbx_card")), "key_kind_not_allowed", 403);
    await assertNoRows(m);
  });

  test("merchant-wide key: shopId required (401 shop_required), must be the merchant's (404 shop_not_found); a shop key cannot name another shop (403)", async () => {
    const m = await newMerchant();
    const other = await newMerchant();
    const wide = await createMerchantWideKeys({ merchantId: m.merchantId, environment: "sandbox" });
    assertEnvelope(await pay(wide.secretKey, okBody("sbx_card")), "shop_required", 401);
    assertEnvelope(await pay(wide.secretKey, okBody("sbx_card", { shopId: other.shopId })), "shop_not_found", 404);
    assertEnvelope(await pay(sk(m), okBody("sbx_card", { shopId: other.shopId })), "forbidden", 403);
    assertEnvelope(await pay(sk(m), okBody("sbx_card", { merchantId: other.merchantId })), "forbidden", 403);
    await assertNoRows(m);
    await assertNoRows(other);
    const p = await created(await pay(wide.secretKey, okBody("sbx_card", { shopId: m.shopId })));
    const row = await db().transaction.findUniqueOrThrow({ where: { id: p.transactionId } });
    assert.equal(row.shopId, m.shopId);
    assert.equal((await getPayment(m, p.transactionId)).id, p.transactionId);
  });
});
