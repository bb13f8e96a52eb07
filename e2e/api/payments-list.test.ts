// GET /payments and GET /payments/{id} over real HTTP (API reference 2.1, 4.3): the offset
// envelope, the transaction object, every filter and its validation, scoping by merchant,
// environment and key (another merchant's ids are 404, publishable keys 403).
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { api, assertEnvelope, newMerchant } from "./helpers.ts";
import { createMerchantWideKeys } from "@/lib/merchants/manage-keys";
import { db } from "@/lib/platform/db";
import { sk, newPayment, simulate, getPayment } from "./payments-fixtures.ts";

after(() => db().$disconnect());

describe("GET /payments and GET /payments/{id}", () => {
  test("newest first in the offset envelope; limit clamped; pages = ceil(total/limit)", async () => {
    const m = await newMerchant();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await newPayment(m, "sbx_card", { merchantOrderId: `o${i}` })).transactionId);
    const newestFirst = [...ids].reverse();

    const all = await api("/payments", { key: sk(m) });
    assert.equal(all.status, 200);
    assert.deepEqual(Object.keys(all.body).sort(), ["data", "hasMore", "nextCursor", "pagination", "previousCursor"]);
    assert.deepEqual(all.body.data.map((t: any) => t.id), newestFirst);
    assert.deepEqual(all.body.pagination, { total: 3, limit: 50, offset: 0, pages: 1 });

    const page1 = await api("/payments?limit=2", { key: sk(m) });
    assert.deepEqual(page1.body.data.map((t: any) => t.id), newestFirst.slice(0, 2));
    assert.deepEqual(page1.body.pagination, { total: 3, limit: 2, offset: 0, pages: 2 });
    const page2 = await api("/payments?limit=2&offset=2", { key: sk(m) });
    assert.deepEqual(page2.body.data.map((t: any) => t.id), newestFirst.slice(2));
    assert.deepEqual(page2.body.pagination, { total: 3, limit: 2, offset: 2, pages: 2 });
    const beyond = await api("/payments?offset=10", { key: sk(m) });
    assert.deepEqual(beyond.body.data, []);
    assert.equal(beyond.body.pagination.total, 3);

    const clamps: Array<[string, number, number]> = [
      ["limit=0", 1, 3],
      ["limit=1000", 100, 1],
      ["limit=abc", 50, 1],
      ["limit=-3", 1, 3],
    ];
    for (const [q, limit, pages] of clamps) {
      const r = await api(`/payments?${q}`, { key: sk(m) });
      assert.equal(r.status, 200, q);
      assert.equal(r.body.pagination.limit, limit, q);
      assert.equal(r.body.pagination.pages, pages, q);
      assert.equal(r.body.data.length, Math.min(limit, 3), q);
    }
    assert.equal((await api("/payments?offset=-4", { key: sk(m) })).body.pagination.offset, 0);

    // A list item is the same object GET /payments/{id} answers; the legacy alias lists the same.
    const one = await api(`/payments/${ids[0]}`, { key: sk(m) });
    assert.deepEqual(all.body.data.find((t: any) => t.id === ids[0]), one.body);
    const legacy = await api("/transactions", { key: sk(m) });
    assert.deepEqual(legacy.body, all.body);
  });

  test("the transaction object of 2.1", async () => {
    const m = await newMerchant();
    const p = await newPayment(m, "sbx_pix", { merchantOrderId: "shape", tag2: "two" });
    const t = await getPayment(m, p.transactionId);
    assert.equal(t.id, p.transactionId);
    assert.equal("transactionId" in t, false);
    assert.equal(t.status, "pending");
    assert.equal(t.country, "BRA");
    for (const k of ["amount", "currency", "amountLocal", "currencyLocal", "paymentMethodId", "paymentMethod", "paymentMethodName", "logoUrl", "iconUrl", "fees", "settlement", "paymentData", "merchantOrderId", "tag1", "tag2", "tag3", "expiresAt", "paymentFormUrl"]) {
      assert.deepEqual(t[k], p[k], k);
    }
    assert.ok(!Number.isNaN(Date.parse(t.timestamps.created)));
    assert.equal(t.timestamps.completed, null);
    assert.equal(t.refundedAmountLocal, 0);
  });

  test("every filter: status, paymentMethodId, country (ISO-2 and ISO-3), merchantOrderId, method", async () => {
    const m = await newMerchant();
    const card = await newPayment(m, "sbx_card", { merchantOrderId: "ord-card" });
    const pix = await newPayment(m, "sbx_pix", { merchantOrderId: "ord-pix" });
    const spei = await newPayment(m, "sbx_spei", { merchantOrderId: "ord-spei" });
    const cash = await newPayment(m, "sbx_cash", { merchantOrderId: "ord-cash" });
    await simulate(m, card.transactionId, "paid");
    await simulate(m, pix.transactionId, "failed");

    const ids = async (q: string) => {
      const r = await api(`/payments?${q}`, { key: sk(m) });
      assert.equal(r.status, 200, `${q}: ${r.text}`);
      assert.equal(r.body.pagination.total, r.body.data.length);
      return r.body.data.map((t: any) => t.id).sort();
    };
    const sorted = (...xs: any[]) => xs.map((x) => x.transactionId).sort();
    assert.deepEqual(await ids("status=completed"), sorted(card));
    assert.deepEqual(await ids("status=failed"), sorted(pix));
    assert.deepEqual(await ids("status=pending"), sorted(spei, cash));
    assert.deepEqual(await ids("status=refunded"), []);
    assert.deepEqual(await ids("paymentMethodId=sbx_pix"), sorted(pix));
    assert.deepEqual(await ids("country=MX"), sorted(spei, cash));
    assert.deepEqual(await ids("country=MEX"), sorted(spei, cash));
    assert.deepEqual(await ids("country=br"), sorted(pix));
    assert.deepEqual(await ids("country=COL"), []);
    assert.deepEqual(await ids("merchantOrderId=ord-spei"), sorted(spei));
    assert.deepEqual(await ids("merchantOrderId=ord"), [], "merchantOrderId matches exactly");
    assert.deepEqual(await ids("method=oxxo"), sorted(cash));
    assert.deepEqual(await ids("method=card"), sorted(card));
    assert.deepEqual(await ids("status=pending&country=MEX&method=spei"), sorted(spei));
  });

  test("invalid filter values: 400 invalid_request naming the parameter", async () => {
    const m = await newMerchant();
    for (const [q, param] of [["status=paid", "status"], ["method=cash", "method"], ["country=ZZ", "country"]] as const) {
      const r = await api(`/payments?${q}`, { key: sk(m) });
      assertEnvelope(r, "invalid_request", 400);
      assert.equal(r.body.error.param, param);
    }
  });

  test("unknown ids and another merchant's: 404 transaction_not_found (also on the alias)", async () => {
    const a = await newMerchant();
    const b = await newMerchant();
    const p = await newPayment(a);
    assertEnvelope(await api(`/payments/${p.transactionId}`, { key: sk(b) }), "transaction_not_found", 404);
    assertEnvelope(await api(`/transactions/${p.transactionId}`, { key: sk(b) }), "transaction_not_found", 404);
    assertEnvelope(await api("/payments/tx_000000000000000000000000", { key: sk(a) }), "transaction_not_found", 404);
    assertEnvelope(await api("/payments/nope", { key: sk(a) }), "transaction_not_found", 404);
    assert.equal((await api("/payments", { key: sk(b) })).body.pagination.total, 0);
  });

  test("sandbox payments are invisible to the same merchant's production key", async () => {
    const m = await newMerchant();
    const p = await newPayment(m);
    assertEnvelope(await api(`/payments/${p.transactionId}`, { key: m.production.secretKey }), "transaction_not_found", 404);
    const list = await api("/payments", { key: m.production.secretKey });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body, { data: [], pagination: { total: 0, limit: 50, offset: 0, pages: 0 }, hasMore: false, nextCursor: null, previousCursor: null });
    assert.equal((await api("/payments", { key: sk(m) })).body.pagination.total, 1);
  });

  test("a merchant-wide key lists and reads the merchant's payments", async () => {
    const m = await newMerchant();
    const p = await newPayment(m);
    const wide = await createMerchantWideKeys({ merchantId: m.merchantId, environment: "sandbox" });
    const list = await api("/payments", { key: wide.secretKey });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.data.map((t: any) => t.id), [p.transactionId]);
    assert.equal((await api(`/payments/${p.transactionId}`, { key: wide.secretKey })).status, 200);
  });

  test("publishable key: 403 key_kind_not_allowed on list and get", async () => {
    const m = await newMerchant();
    const p = await newPayment(m);
    assertEnvelope(await api("/payments", { key: m.sandbox.publishableKey }), "key_kind_not_allowed", 403);
    assertEnvelope(await api(`/payments/${p.transactionId}`, { key: m.sandbox.publishableKey }), "key_kind_not_allowed", 403);
  });
});
