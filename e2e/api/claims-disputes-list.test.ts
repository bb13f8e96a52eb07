// Claims listing over real HTTP (decisions.md "Claims listing and disputes"): GET /claims with its
// filters and both pagings, dueBy on chargebacks only; and keys, shops and the claims CSV scoped (a
// shop's key sees its shop's claims only, a merchant-wide key all).
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import { api, assertEnvelope, newMerchant, API_URL } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { newId } from "@/lib/platform/ids";
import { generateKeyPair } from "@/lib/platform/auth/keys";
import { seedRates, upload, chargeback } from "./claims-disputes-fixtures.ts";

after(() => db().$disconnect());
before(seedRates);

test("GET /claims: newest first, filters, offset and cursor paging, dueBy on chargebacks only", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const a = await chargeback(m);
  const b = await chargeback(m);
  const p = await api("/payments", { key, body: { amount: 25, paymentMethodId: "sbx_card" } });
  await api(`/payments/${p.body.transactionId}/simulate`, { key, body: { action: "paid" } });
  const refund = await api(`/payments/${p.body.transactionId}/refund`, { key, body: { amount: 5 } });
  assert.equal(refund.status, 200, refund.text);

  const all = await api("/claims", { key });
  assert.equal(all.status, 200, all.text);
  assert.deepEqual(all.body.data.map((c: any) => c.id), [refund.body.refundId, b.claimId, a.claimId]);
  assert.deepEqual(all.body.pagination, { total: 3, limit: 50, offset: 0, pages: 1 });
  const cb = all.body.data[1];
  assert.equal(cb.kind, "chargeback");
  assert.equal(cb.status, "open");
  assert.equal(cb.transactionId, b.transactionId);
  assert.equal(Date.parse(cb.dueBy) - Date.parse(cb.createdAt), 7 * 86_400_000);
  assert.deepEqual(cb.evidence, []);
  assert.deepEqual(cb.history.map((h: any) => h.status), ["open"]);
  assert.equal(all.body.data[0].dueBy, null);
  assert.equal(all.body.data[0].kind, "user_dispute");
  // The list shows each claim as GET /claims/{id} does.
  assert.deepEqual((await api(`/claims/${b.claimId}`, { key })).body.claim, cb);

  assert.deepEqual((await api("/claims?kind=user_dispute", { key })).body.data.map((c: any) => c.id), [refund.body.refundId]);
  assert.deepEqual((await api("/claims?kind=chargeback&status=open", { key })).body.data.map((c: any) => c.id), [b.claimId, a.claimId]);
  assert.deepEqual((await api("/claims?status=lost", { key })).body.data, []);
  assert.deepEqual((await api(`/claims?transactionId=${a.transactionId}`, { key })).body.data.map((c: any) => c.id), [a.claimId]);
  const bOpened = encodeURIComponent(cb.createdAt);
  assert.deepEqual((await api(`/claims?from=${bOpened}`, { key })).body.data.map((c: any) => c.id), [refund.body.refundId, b.claimId]);
  assert.deepEqual((await api(`/claims?to=${bOpened}`, { key })).body.data.map((c: any) => c.id), [a.claimId]);
  assert.deepEqual((await api(`/claims?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`, { key })).body.data, []);
  // Offset paging and cursor paging over the same list.
  const page2 = await api("/claims?limit=1&offset=1", { key });
  assert.deepEqual(page2.body.data.map((c: any) => c.id), [b.claimId]);
  assert.deepEqual(page2.body.pagination, { total: 3, limit: 1, offset: 1, pages: 3 });
  const first = await api("/claims?limit=2&startingAfter=" + refund.body.refundId, { key });
  assert.deepEqual(first.body.data.map((c: any) => c.id), [b.claimId, a.claimId]);
  assert.equal(first.body.hasMore, false);
  const cursorPage = await api("/claims?limit=1", { key });
  assert.equal(cursorPage.body.hasMore, true);
  assert.deepEqual((await api(`/claims?limit=1&startingAfter=${cursorPage.body.nextCursor}`, { key })).body.data.map((c: any) => c.id), [b.claimId]);
  assert.deepEqual((await api(`/claims?endingBefore=${a.claimId}`, { key })).body.data.map((c: any) => c.id), [refund.body.refundId, b.claimId]);

  assertEnvelope(await api("/claims?status=maybe", { key }), "invalid_request", 400);
  assertEnvelope(await api("/claims?kind=refund", { key }), "invalid_request", 400);
  assertEnvelope(await api("/claims?from=yesterday", { key }), "invalid_request", 400);
  assertEnvelope(await api("/claims"), "missing_credentials", 401);
  assertEnvelope(await api("/claims", { key: "sk_test_" + "x".repeat(32) }), "invalid_api_key", 401);
  assertEnvelope(await api("/claims", { key: m.sandbox.publishableKey }), "key_kind_not_allowed", 403);
  assertEnvelope(await api("/claims", { key, body: {} }), "method_not_allowed", 405);
  assertEnvelope(await api(`/claims/${a.claimId}x`, { key }), "claim_not_found", 404);
  // Another merchant sees none of them; production keys see the production list (empty).
  const other = await newMerchant();
  assert.deepEqual((await api("/claims", { key: other.sandbox.secretKey })).body.data, []);
  assertEnvelope(await api(`/claims/${a.claimId}`, { key: other.sandbox.secretKey }), "claim_not_found", 404);
  assert.deepEqual((await api("/claims", { key: m.production.secretKey })).body.data, []);
  assertEnvelope(await api(`/claims/${a.claimId}`, { key: m.production.secretKey }), "claim_not_found", 404);
});
test("a shop's key sees only the claims of its shop's payments (list, get, evidence, accept, CSV); a merchant-wide key sees all", async () => {
  const m = await newMerchant();
  const shopB = newId("shop");
  await db().shop.create({ data: { id: shopB, merchantId: m.merchantId, name: "Second shop" } });
  const pair = generateKeyPair("sandbox");
  await db().apiKeyPair.create({ data: { id: newId("keyPair"), merchantId: m.merchantId, shopId: shopB, environment: "sandbox", publishableKey: pair.publishableKey, secretHash: pair.secretHash, secretPreview: pair.secretPreview } });
  const keyA = m.sandbox.secretKey;
  const keyB = pair.secretKey;
  const a = await chargeback(m);
  const b = await chargeback({ sandbox: { secretKey: keyB } });
  assert.equal((await db().transaction.findUniqueOrThrow({ where: { id: b.transactionId } })).shopId, shopB);

  assert.deepEqual((await api("/claims", { key: keyA })).body.data.map((c: any) => c.id), [a.claimId]);
  assert.deepEqual((await api("/claims", { key: keyB })).body.data.map((c: any) => c.id), [b.claimId]);
  assert.equal((await api("/claims", { key: keyB })).body.pagination.total, 1);
  assertEnvelope(await api(`/claims/${a.claimId}`, { key: keyB }), "claim_not_found", 404);
  assertEnvelope(await upload(`/claims/${a.claimId}/evidence`, keyB, [{ name: "text", value: "x" }]), "claim_not_found", 404);
  assertEnvelope(await api(`/claims/${a.claimId}/accept`, { key: keyB, body: {} }), "claim_not_found", 404);
  assertEnvelope(await api(`/claims/${a.claimId}/simulate`, { key: keyB, body: { action: "lost" } }), "claim_not_found", 404);
  assert.equal((await api(`/claims/${a.claimId}`, { key: keyA })).body.claim.status, "open");
  assert.equal(await db().claimEvidence.count({ where: { claimId: a.claimId } }), 0);

  // The claims CSV, per key: the shop's claims, with dueBy and the evidence count.
  assert.equal((await upload(`/claims/${b.claimId}/evidence`, keyB, [{ name: "text", value: "ours" }])).status, 201);
  const csv = async (key: string) => {
    const res = await fetch(`${API_URL}/api/v1/exports/claims.csv`, { headers: { authorization: `Bearer ${key}` } });
    const text = await res.text();
    assert.equal(res.status, 200, text.slice(0, 300));
    return parse(text, { columns: true }) as Record<string, string>[];
  };
  const rowsB = await csv(keyB);
  assert.deepEqual(rowsB.map((r) => r.id), [b.claimId]);
  assert.equal(rowsB[0]!.kind, "chargeback");
  assert.equal(rowsB[0]!.evidence_count, "1");
  assert.match(rowsB[0]!.due_by!, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  assert.deepEqual((await csv(keyA)).map((r) => r.id), [a.claimId]);

  const { createMerchantWideKeys } = await import("@/lib/merchants/manage-keys");
  const wide = await createMerchantWideKeys({ merchantId: m.merchantId, environment: "sandbox" });
  assert.deepEqual((await api("/claims", { key: wide.secretKey })).body.data.map((c: any) => c.id), [b.claimId, a.claimId]);
  assert.deepEqual((await csv(wide.secretKey)).map((r) => r.id).sort(), [a.claimId, b.claimId].sort());
});
