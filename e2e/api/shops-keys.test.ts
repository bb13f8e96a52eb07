// Shops (decisions.md, Shops): `shop:create` opens a second shop with its own key pairs, which
// merchant-wide credentials choose with shopId. Webhook subscriptions belong to the creating key's
// shop (and receive that shop's events only); idempotency keys are scoped by shop and by the
// endpoint's canonical name. That a shop-bound key sees and changes only its shop, on every
// endpoint, is shops.test.ts.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { api, assertEnvelope, newMerchant, tsx, waitFor } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { createShop, type CreatedShop } from "@/lib/merchants/create-shop";
import { createMerchantWideKeys } from "@/lib/merchants/manage-keys";
import { ok, paidPayment, deliveredObjects } from "./shops-fixtures.ts";

after(() => db().$disconnect());

test("shop:create opens a shop with its own sandbox and production key pairs", async () => {
  const m = await newMerchant();
  const line = tsx(["scripts/cli.ts", "shop:create", "--merchant", m.merchantId, "--name", "Acme Outlet", "--json"], {});
  const shop = JSON.parse(line) as CreatedShop;
  assert.match(shop.shopId, /^shp_/);
  assert.notEqual(shop.shopId, m.shopId);
  assert.equal(shop.merchantId, m.merchantId);
  assert.match(shop.sandbox.publishableKey, /^pk_test_/);
  assert.match(shop.sandbox.secretKey, /^sk_test_/);
  assert.match(shop.production.publishableKey, /^pk_live_/);
  assert.match(shop.production.secretKey, /^sk_live_/);
  const sandbox = await api("/payment-methods", { key: shop.sandbox.secretKey });
  ok(sandbox);
  assert.deepEqual(sandbox.body.shop, { id: shop.shopId, name: "Acme Outlet" });
  const live = await api("/ping", { key: shop.production.secretKey });
  ok(live);
  assert.equal(live.body.environment, "production");
  assert.equal(live.body.merchant.id, m.merchantId);
  // A token for the new pair carries the new shop.
  const token = await api("/auth/token", { body: { apiKey: shop.sandbox.publishableKey, secretKey: shop.sandbox.secretKey } });
  ok(token);
  const viaToken = await api("/payment-methods", { key: token.body.accessToken });
  assert.equal(viaToken.body.shop.id, shop.shopId);
  // Nothing for an unknown merchant, and a name is required.
  assert.throws(() => tsx(["scripts/cli.ts", "shop:create", "--merchant", "mer_unknown", "--name", "X", "--json"], {}), /no merchant mer_unknown/);
  assert.throws(() => tsx(["scripts/cli.ts", "shop:create", "--merchant", m.merchantId, "--json"], {}), /--name is required/);
  assert.equal(await db().shop.count({ where: { merchantId: m.merchantId } }), 2);
});

test("merchant-wide credentials choose the new shop with shopId", async () => {
  const m = await newMerchant();
  const b = await createShop({ merchantId: m.merchantId, name: "Second" });
  const wide = await createMerchantWideKeys({ merchantId: m.merchantId, environment: "sandbox" });
  const p = await api("/payments", { key: wide.secretKey, body: { amount: 10, paymentMethodId: "sbx_card", shopId: b.shopId } });
  ok(p);
  // Shop B's key sees it, shop A's does not.
  ok(await api(`/payments/${p.body.transactionId}`, { key: b.sandbox.secretKey }));
  assertEnvelope(await api(`/payments/${p.body.transactionId}`, { key: m.sandbox.secretKey }), "transaction_not_found", 404);
  // A subscription for one shop, made merchant-wide.
  const sub = await api("/webhooks", { key: wide.secretKey, body: { events: ["*"], shopId: b.shopId } });
  ok(sub);
  assert.equal(sub.body.shopId, b.shopId);
  assert.ok((await api("/webhooks", { key: b.sandbox.secretKey })).body.data.some((s: any) => s.id === sub.body.id));
  assert.ok(!(await api("/webhooks", { key: m.sandbox.secretKey })).body.data.some((s: any) => s.id === sub.body.id));
  const other = await newMerchant();
  assertEnvelope(await api("/webhooks", { key: wide.secretKey, body: { events: ["*"], shopId: other.shopId } }), "shop_not_found", 404);
  assertEnvelope(await api("/webhooks", { key: m.sandbox.secretKey, body: { events: ["*"], shopId: b.shopId } }), "forbidden", 403);
});

test("idempotency: two shops never replay each other's answers; /transactions shares /payments' key space", async () => {
  const m = await newMerchant();
  const b = await createShop({ merchantId: m.merchantId, name: "Second" });
  const key = randomUUID();
  const body = { amount: 12, paymentMethodId: "sbx_card", merchantOrderId: "same-order" };
  const a1 = await api("/payments", { key: m.sandbox.secretKey, body, headers: { "Idempotency-Key": key } });
  ok(a1);
  const b1 = await api("/payments", { key: b.sandbox.secretKey, body, headers: { "Idempotency-Key": key } });
  ok(b1);
  assert.equal(b1.headers.get("idempotent-replayed"), "false");
  assert.notEqual(b1.body.transactionId, a1.body.transactionId, "shop B got a payment of its own");
  assert.equal((await db().transaction.findUniqueOrThrow({ where: { id: b1.body.transactionId } })).shopId, b.shopId);
  // The legacy alias replays the same payment for the same shop.
  const a2 = await api("/transactions", { key: m.sandbox.secretKey, body, headers: { "Idempotency-Key": key } });
  ok(a2);
  assert.equal(a2.headers.get("idempotent-replayed"), "true");
  assert.equal(a2.body.transactionId, a1.body.transactionId);
  assertEnvelope(await api("/transactions", { key: m.sandbox.secretKey, body: { ...body, amount: 13 }, headers: { "Idempotency-Key": key } }), "idempotency_conflict", 409);
  // A merchant-wide credential has a key space of its own (no shop).
  const wide = await createMerchantWideKeys({ merchantId: m.merchantId, environment: "sandbox" });
  const w = await api("/payments", { key: wide.secretKey, body: { ...body, shopId: m.shopId }, headers: { "Idempotency-Key": key } });
  ok(w);
  assert.equal(w.headers.get("idempotent-replayed"), "false");
  assert.equal(await db().transaction.count({ where: { merchantId: m.merchantId } }), 3);
});

test("webhook subscriptions: a shop's receives its shop's events only; a merchant-wide one every shop's", async () => {
  const m = await newMerchant();
  const b = await createShop({ merchantId: m.merchantId, name: "Second" });
  const wide = await createMerchantWideKeys({ merchantId: m.merchantId, environment: "sandbox" });
  const subA = await api("/webhooks", { key: m.sandbox.secretKey, body: { events: ["payment.completed"] } });
  const subB = await api("/webhooks", { key: b.sandbox.secretKey, body: { events: ["payment.completed"] } });
  const subAll = await api("/webhooks", { key: wide.secretKey, body: { events: ["payment.completed"] } });
  for (const s of [subA, subB, subAll]) ok(s);
  assert.equal(subA.body.shopId, m.shopId);
  assert.equal(subB.body.shopId, b.shopId);
  assert.equal(subAll.body.shopId, null);
  const txA = await paidPayment(m.sandbox.secretKey);
  const txB = await paidPayment(b.sandbox.secretKey);
  // One fan-out writes every subscription's rows of an event: once the all-shops one has both, the others are final.
  await waitFor(async () => {
    const got = await deliveredObjects(wide.secretKey, subAll.body.id);
    return got.includes(txA) && got.includes(txB);
  }, "the all-shops subscription receives both shops' payments", 30_000);
  assert.deepEqual(await deliveredObjects(m.sandbox.secretKey, subA.body.id), [txA]);
  assert.deepEqual(await deliveredObjects(b.sandbox.secretKey, subB.body.id), [txB]);
  // Listing: a shop key its own; merchant-wide all three.
  const ids = async (key: string) => (await api("/webhooks", { key })).body.data.map((s: any) => s.id).sort();
  assert.deepEqual(await ids(m.sandbox.secretKey), [subA.body.id]);
  assert.deepEqual(await ids(b.sandbox.secretKey), [subB.body.id]);
  assert.deepEqual(await ids(wide.secretKey), [subA.body.id, subB.body.id, subAll.body.id].sort());
  // Events: a shop key its shop's; merchant-wide both.
  const events = async (key: string) => (await api("/events?type=payment.completed", { key })).body.data.map((e: any) => e.data.object.id);
  assert.deepEqual(await events(m.sandbox.secretKey), [txA]);
  assert.deepEqual(await events(b.sandbox.secretKey), [txB]);
  assert.deepEqual((await events(wide.secretKey)).sort(), [txA, txB].sort());
});
