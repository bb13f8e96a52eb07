// GET /payment-methods over real HTTP (API reference 4.3): the sandbox's test rails and their
// icons, filters and their validation, a rail disabled for the shop, and production's catalog
// (routable where a provider of the rail is configured).
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { api, assertEnvelope, newMerchant, waitFor } from "./helpers.ts";
import { createMerchantWideKeys } from "@/lib/merchants/manage-keys";
import { PRODUCTION_RAILS } from "@/lib/rails/rails";
import { providerEnvNames, type ProviderCode } from "@/lib/providers/registry";
import { setShopPaymentMethods } from "@/lib/catalog/set-shop-methods";
import { db } from "@/lib/platform/db";
import { type SandboxRail, RAIL, sk, page } from "./payments-fixtures.ts";

after(() => db().$disconnect());

describe("GET /payment-methods", () => {
  test("sandbox: the eight test rails first, all routable, absolute icon URLs that resolve; counts", async () => {
    const m = await newMerchant();
    const r = await api("/payment-methods", { key: sk(m) });
    assert.equal(r.status, 200);
    const b = r.body;
    assert.deepEqual(b.shop, { id: m.shopId, name: b.shop.name });
    assert.equal(b.environment, "sandbox");
    assert.deepEqual(b.filters, { country: null, channel: null, method: null });
    assert.deepEqual(b.methods.slice(0, 8).map((x: any) => x.paymentMethodId), ["sbx_pix", "sbx_spei", "sbx_pse", "sbx_card", "sbx_cash", "sbx_boleto", "sbx_br_card", "sbx_mx_card"]);
    for (const x of b.methods.slice(8)) assert.match(x.paymentMethodId, /^\d{4}$/);
    assert.equal(b.count, b.methods.length);
    assert.equal(b.totalAvailable, b.methods.filter((x: any) => x.enabled).length);
    assert.equal(b.routableCount, b.methods.filter((x: any) => x.routable).length);
    for (const x of b.methods.slice(0, 8)) {
      const rail = RAIL[x.paymentMethodId as SandboxRail];
      assert.equal(x.routable, true);
      assert.equal(x.enabled, true);
      assert.equal(x.unroutableReason, null);
      assert.equal(x.method, rail.method);
      assert.equal(x.countryIso3, rail.country);
      assert.equal(x.channel, rail.channel);
      assert.deepEqual(x.currencies, [rail.currency]);
      assert.equal(x.currencyLimits[0].currency, rail.currency);
    }
    const icons = new Set<string>(b.methods.map((x: any) => x.iconUrl));
    for (const url of icons) {
      assert.match(url, /^https?:\/\//);
      const res = await page(url);
      assert.equal(res.status, 200, url);
      assert.match(res.headers.get("content-type") ?? "", /^image\/svg\+xml/);
    }
    for (const x of b.methods) assert.ok(x.iconUrl.endsWith(x.imageUrl), "imageUrl is the relative form of iconUrl");
    // A publishable key may read the catalog.
    assert.deepEqual((await api("/payment-methods", { key: m.sandbox.publishableKey })).body, b);
  });

  test("filters: country (ISO-2 and ISO-3), channel, method; invalid values: 400 invalid_request", async () => {
    const m = await newMerchant();
    const list = async (q: string) => {
      const r = await api(`/payment-methods?${q}`, { key: sk(m) });
      assert.equal(r.status, 200, `${q}: ${r.text}`);
      assert.equal(r.body.count, r.body.methods.length);
      return r.body;
    };
    const br = await list("country=BR");
    assert.equal(br.filters.country, "BRA");
    assert.ok(br.methods.length > 0 && br.methods.every((x: any) => x.countryIso3 === "BRA" && x.country === "BR"));
    assert.equal(br.methods[0].paymentMethodId, "sbx_pix");
    assert.deepEqual((await list("country=BRA")).methods, br.methods);
    const cash = await list("channel=CASH");
    assert.equal(cash.filters.channel, "CASH");
    assert.ok(cash.methods.every((x: any) => x.channel === "CASH"));
    assert.ok(cash.methods.some((x: any) => x.paymentMethodId === "sbx_cash"));
    const spei = await list("method=spei");
    assert.ok(spei.methods.every((x: any) => x.method === "spei"));
    assert.deepEqual(spei.methods.map((x: any) => x.paymentMethodId), ["sbx_spei", "1003"]);
    const combined = await list("country=MX&channel=CASH");
    assert.deepEqual(combined.methods.map((x: any) => x.paymentMethodId), ["sbx_cash", "1004"]);
    assert.equal((await list("country=AR")).count, 0);
    // totalAvailable counts the shop's whole catalog, not the filtered page.
    assert.equal(combined.totalAvailable, (await list("")).totalAvailable);

    for (const [q, param] of [["channel=PHONE", "channel"], ["method=cash", "method"], ["country=ZZ", "country"]] as const) {
      const r = await api(`/payment-methods?${q}`, { key: sk(m) });
      assertEnvelope(r, "invalid_request", 400);
      assert.equal(r.body.error.param, param);
    }
  });

  test("a rail disabled for the shop is listed with enabled false, routable false, reason method_not_enabled_for_shop", async () => {
    const m = await newMerchant();
    const before = (await api("/payment-methods", { key: sk(m) })).body;
    await setShopPaymentMethods(m.shopId, { enable: [], disable: ["1004"] });
    // The server drops its cached shop methods when PostgreSQL's NOTIFY reaches it: soon, not
    // necessarily before this process's next request.
    const after = await waitFor(async () => {
      const body = (await api("/payment-methods", { key: sk(m) })).body;
      return body.methods.find((x: any) => x.paymentMethodId === "1004")?.enabled === false && body;
    }, "the server to see the disabled rail");
    const oxxo = after.methods.find((x: any) => x.paymentMethodId === "1004");
    assert.equal(oxxo.enabled, false);
    assert.equal(oxxo.routable, false);
    assert.equal(oxxo.unroutableReason, "method_not_enabled_for_shop");
    assert.equal(after.totalAvailable, before.totalAvailable - 1);
    assert.equal(after.routableCount, before.routableCount - 1);
  });

  test("production: only the 4-digit ids; routable exactly where a provider of the rail is configured; merchant-wide key: 401 shop_required", async () => {
    const m = await newMerchant();
    await setShopPaymentMethods(m.shopId, { enable: [], disable: ["1002"] });
    const r = await api("/payment-methods", { key: m.production.secretKey });
    assert.equal(r.status, 200);
    assert.equal(r.body.environment, "production");
    // The test server's provider configuration is its environment, which this process shares.
    const configured = (code: string) => !!process.env[providerEnvNames(code as ProviderCode).url] && !!process.env[providerEnvNames(code as ProviderCode).secret];
    const live = PRODUCTION_RAILS.filter((x) => !x.retired);
    assert.deepEqual(r.body.methods.map((x: any) => x.paymentMethodId), live.map((x) => x.paymentMethodId));
    for (const x of r.body.methods) {
      assert.match(x.paymentMethodId, /^\d{4}$/);
      const rail = live.find((y) => y.paymentMethodId === x.paymentMethodId)!;
      const enabled = x.paymentMethodId !== "1002";
      const routable = enabled && rail.providers.some(configured);
      assert.equal(x.enabled, enabled, x.paymentMethodId);
      assert.equal(x.routable, routable, x.paymentMethodId);
      assert.equal(x.unroutableReason, !enabled ? "method_not_enabled_for_shop" : routable ? null : "no_provider_configured", x.paymentMethodId);
    }
    assert.equal(r.body.routableCount, r.body.methods.filter((x: any) => x.routable).length);
    assert.equal(r.body.totalAvailable, live.length - 1);
    const wide = await createMerchantWideKeys({ merchantId: m.merchantId, environment: "sandbox" });
    assertEnvelope(await api("/payment-methods", { key: wide.secretKey }), "shop_required", 401);
  });
});
