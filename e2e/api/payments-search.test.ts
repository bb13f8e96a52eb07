// GET /payments?q= (lib/payments/search.ts) over real HTTP: which keys a query compares with,
// combined with the other filters and both pagings, and scoped like every list (merchant,
// environment, and the shop of a shop-bound key). Also the customer on the Transaction.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { api, assertEnvelope, newMerchant } from "./helpers.ts";
import { createMerchantWideKeys } from "@/lib/merchants/manage-keys";
import { generateKeyPair } from "@/lib/platform/auth/keys";
import { newId } from "@/lib/platform/ids";
import { db } from "@/lib/platform/db";

after(() => db().$disconnect());

async function pay(key: string, body: Record<string, unknown>): Promise<string> {
  const r = await api("/payments", { key, body });
  assert.equal(r.status, 200, r.text);
  return r.body.transactionId;
}

const JOSE = { paymentMethodId: "sbx_pix", amount: 25, userName: "José Pérez-Núñez", userEmail: "Jose.Perez@Example.com", documentId: "529.982.247-25", merchantOrderId: "ORD-Search-1001" };
const DIEGO = { paymentMethodId: "sbx_spei", amount: 499, currency: "MXN", userName: "Diego Gomez", documentId: "GODE561231GR8", merchantOrderId: "ord-search-2002" };
const CARD = { paymentMethodId: "sbx_card", amount: 12.5, merchantOrderId: "other-3003" };

async function ids(key: string, q: string, extra = ""): Promise<string[]> {
  const r = await api(`/payments?q=${encodeURIComponent(q)}${extra}`, { key });
  assert.equal(r.status, 200, r.text);
  return r.body.data.map((t: { id: string }) => t.id);
}

test("q: order-id prefix, e-mail exact and prefix, name words, payment id and amount, case and accents ignored", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const jose = await pay(key, JOSE);
  const diego = await pay(key, DIEGO);
  const card = await pay(key, CARD);

  // Order id: prefix, case-insensitive; never a substring.
  assert.deepEqual(await ids(key, "ord-search"), [diego, jose]);
  assert.deepEqual(await ids(key, "ORD-SEARCH-1"), [jose]);
  assert.deepEqual(await ids(key, "search-1001"), []);
  // E-mail: the whole address in any case, or its start.
  assert.deepEqual(await ids(key, "jose.perez@example.com"), [jose]);
  assert.deepEqual(await ids(key, "JOSE.PER"), [jose]);
  assert.deepEqual(await ids(key, "perez@example.com"), []);
  // Name: every word starts a word of the name, in any order, without accents or case.
  assert.deepEqual(await ids(key, "jose"), [jose]);
  assert.deepEqual(await ids(key, "NUÑ pér"), [jose]);
  assert.deepEqual(await ids(key, "diego gom"), [diego]);
  assert.deepEqual(await ids(key, "diego perez"), []);
  assert.deepEqual(await ids(key, "omez"), []);
  // Payment id: exact.
  assert.deepEqual(await ids(key, card), [card]);
  assert.deepEqual(await ids(key, card.slice(0, -1)), []);
  // Amount: the amount asked, in its own currency (499 MXN), or the USD amount.
  assert.deepEqual(await ids(key, "499"), [diego]);
  assert.deepEqual(await ids(key, "499.00"), [diego]);
  assert.deepEqual(await ids(key, "12.50"), [card]);
  assert.deepEqual(await ids(key, "12,5"), [card]);
  assert.deepEqual(await ids(key, "25"), [jose]);
  assert.deepEqual(await ids(key, "12"), []);

  // With the other filters, the offset envelope and cursor paging.
  assert.deepEqual(await ids(key, "ord-search", "&paymentMethodId=sbx_spei"), [diego]);
  const page1 = await api("/payments?q=ord-search&limit=1", { key });
  assert.equal(page1.body.pagination.total, 2);
  assert.deepEqual(page1.body.data.map((t: { id: string }) => t.id), [diego]);
  const page2 = await api(`/payments?q=ord-search&limit=1&startingAfter=${page1.body.nextCursor}`, { key });
  assert.deepEqual(page2.body.data.map((t: { id: string }) => t.id), [jose]);
  assert.equal(page2.body.hasMore, false);
  // A blank q is no search.
  assert.equal((await ids(key, "  ")).length, 3);

  // The customer is on the resource, as it was sent.
  const t = (await api(`/payments/${jose}`, { key })).body;
  assert.deepEqual(t.customer, { name: "José Pérez-Núñez", email: "Jose.Perez@Example.com" });
  assert.deepEqual((await api(`/payments/${card}`, { key })).body.customer, { name: null, email: null });
});

test("q is scoped: another merchant, the production key and a second shop's key find nothing of it; a merchant-wide key finds both shops", async () => {
  const a = await newMerchant();
  const b = await newMerchant();
  const ownA = await pay(a.sandbox.secretKey, JOSE);
  const ownB = await pay(b.sandbox.secretKey, JOSE);
  for (const q of ["ord-search-1001", "jose.perez@example.com", "jose perez", "25", ownB]) {
    assert.deepEqual(await ids(a.sandbox.secretKey, q), q === ownB ? [] : [ownA], q);
    assert.deepEqual(await ids(a.production.secretKey, q), [], q);
  }
  assert.deepEqual(await ids(b.sandbox.secretKey, ownA), []);

  const shopB = newId("shop");
  await db().shop.create({ data: { id: shopB, merchantId: a.merchantId, name: "Second shop" } });
  const pair = generateKeyPair("sandbox");
  await db().apiKeyPair.create({ data: { id: newId("keyPair"), merchantId: a.merchantId, shopId: shopB, environment: "sandbox", publishableKey: pair.publishableKey, secretHash: pair.secretHash, secretPreview: pair.secretPreview } });
  const inShopB = await pay(pair.secretKey, { ...JOSE, merchantOrderId: "ORD-Search-1002" });
  assert.deepEqual(await ids(pair.secretKey, "ord-search"), [inShopB]);
  assert.deepEqual(await ids(a.sandbox.secretKey, "ord-search"), [ownA]);
  const wide = await createMerchantWideKeys({ merchantId: a.merchantId, environment: "sandbox" });
  assert.deepEqual(await ids(wide.secretKey, "ord-search"), [inShopB, ownA]);
});

test("q longer than 200 characters: 400 invalid_request naming q", async () => {
  const m = await newMerchant();
  const r = await api(`/payments?q=${"a".repeat(201)}`, { key: m.sandbox.secretKey });
  assertEnvelope(r, "invalid_request", 400);
  assert.equal(r.body.error.param, "q");
});

test("cursor paging: both directions meet, the end is an empty page, a cursor outside the list is a 400 naming it", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const made: string[] = [];
  for (let i = 0; i < 3; i++) made.push(await pay(key, { ...CARD, merchantOrderId: `cursor-${i}` }));
  const newest = made.at(-1)!;
  const oldest = made[0]!;
  const down = await api(`/payments?limit=2&startingAfter=${newest}`, { key });
  assert.equal(down.status, 200, down.text);
  assert.deepEqual(down.body.data.map((p: { id: string }) => p.id), [made[1], oldest]);
  assert.equal(down.body.hasMore, false);
  const up = await api(`/payments?limit=2&endingBefore=${oldest}`, { key });
  assert.deepEqual(up.body.data.map((p: { id: string }) => p.id), [newest, made[1]]);
  // Past the oldest: an empty page, not an error.
  const end = await api(`/payments?limit=2&startingAfter=${oldest}`, { key });
  assert.equal(end.status, 200, end.text);
  assert.deepEqual([end.body.data, end.body.hasMore], [[], false]);
  // Another merchant's payment is no cursor here (and says nothing about it).
  const other = await newMerchant();
  const theirs = await pay(other.sandbox.secretKey, CARD);
  const foreign = await api(`/payments?limit=2&startingAfter=${theirs}`, { key });
  assertEnvelope(foreign, "invalid_request", 400);
  assert.equal(foreign.body.error.param, "startingAfter");
  assertEnvelope(await api(`/payments?limit=2&endingBefore=${newId("transaction")}`, { key }), "invalid_request", 400);
});
