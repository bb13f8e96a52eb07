// Idempotency (decisions.md) through the handler wrapper, over real HTTP, on a creating POST.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { api, assertEnvelope, newMerchant } from "./helpers.ts";
import { db } from "@/lib/platform/db";

after(() => db().$disconnect());

const create = (key: string, body: unknown, idem?: string) =>
  api("/test-fixtures/side-effects", { key, body, headers: idem ? { "idempotency-key": idem } : {} });
const count = async (key: string, label: string) => (await api(`/test-fixtures/side-effects?label=${label}`, { key })).body.count as number;

test("a retry with the same key and body replays the first answer, marked Idempotent-Replayed", async () => {
  const m = await newMerchant();
  const idem = randomUUID();
  const first = await create(m.sandbox.secretKey, { label: "replay", nested: { amount: 5 } }, idem);
  assert.equal(first.status, 201);
  assert.equal(first.headers.get("idempotent-replayed"), "false");
  // Same body with keys in another order is the same request.
  const second = await create(m.sandbox.secretKey, { nested: { amount: 5 }, label: "replay" }, idem);
  assert.equal(second.status, 201);
  assert.equal(second.headers.get("idempotent-replayed"), "true");
  assert.deepEqual(second.body, first.body);
  assert.equal(await count(m.sandbox.secretKey, "replay"), 1);
});

test("the same key with a different body: 409 idempotency_conflict, no side effect", async () => {
  const m = await newMerchant();
  const idem = randomUUID();
  assert.equal((await create(m.sandbox.secretKey, { label: "conflict" }, idem)).status, 201);
  assertEnvelope(await create(m.sandbox.secretKey, { label: "conflict", delayMs: 1 }, idem), "idempotency_conflict", 409);
  assert.equal(await count(m.sandbox.secretKey, "conflict"), 1);
});

test("50 concurrent identical requests: one side effect, 50 identical answers", async () => {
  const m = await newMerchant();
  const idem = randomUUID();
  const results = await Promise.all(Array.from({ length: 50 }, () => create(m.sandbox.secretKey, { label: "burst", delayMs: 300 }, idem)));
  assert.deepEqual(new Set(results.map((r) => r.status)), new Set([201]));
  assert.equal(new Set(results.map((r) => r.text)).size, 1, "every answer carries the same body");
  assert.equal(results.filter((r) => r.headers.get("idempotent-replayed") === "false").length, 1);
  assert.equal(await count(m.sandbox.secretKey, "burst"), 1);
});

test("errors are not stored: the key is reusable after a failed attempt", async () => {
  const m = await newMerchant();
  const idem = randomUUID();
  assertEnvelope(await create(m.sandbox.secretKey, { label: "retry", fail: true }, idem), "amount_invalid", 400);
  assertEnvelope(await create(m.sandbox.secretKey, { label: 42 }, idem), "invalid_request", 400);
  const ok = await create(m.sandbox.secretKey, { label: "retry" }, idem);
  assert.equal(ok.status, 201);
  assert.equal(ok.headers.get("idempotent-replayed"), "false");
  assert.equal(await count(m.sandbox.secretKey, "retry"), 1);
});

test("keys are scoped per merchant and environment; no key means no deduplication", async () => {
  const a = await newMerchant();
  const b = await newMerchant();
  const idem = randomUUID();
  assert.equal((await create(a.sandbox.secretKey, { label: "scope" }, idem)).headers.get("idempotent-replayed"), "false");
  assert.equal((await create(b.sandbox.secretKey, { label: "scope" }, idem)).headers.get("idempotent-replayed"), "false");
  assert.equal(await count(a.sandbox.secretKey, "scope"), 1);
  assert.equal(await count(b.sandbox.secretKey, "scope"), 1);
  await create(a.sandbox.secretKey, { label: "nokey" });
  await create(a.sandbox.secretKey, { label: "nokey" });
  assert.equal(await count(a.sandbox.secretKey, "nokey"), 2);
});

test("an unusable Idempotency-Key is a 400 invalid_request naming the header", async () => {
  const m = await newMerchant();
  const r = await create(m.sandbox.secretKey, { label: "bad" }, "x".repeat(300));
  assertEnvelope(r, "invalid_request", 400);
  assert.equal(r.body.error.param, "Idempotency-Key");
});

// ---------------------------------------------------------------------------------------------
// The answer lost after commit (a crash between the use case's commit and the stored answer):
// the record is left as the dead process leaves it, and the retry re-renders the answer from
// the resource, per endpoint, without running the use case again.

/** Leaves the key's record as a process killed right after its commit leaves it. */
async function loseStoredAnswer(merchantId: string, idem: string) {
  const n = await db().idempotencyRecord.updateMany({
    where: { merchantId, idempotencyKey: idem, state: "completed", resourceId: { not: null } },
    data: { state: "committed", responseStatus: null, responseBody: null, lockedUntil: new Date(Date.now() - 1000) },
  });
  assert.equal(n.count, 1, "the request bound its record to what it created");
}

async function sameAfterLoss(m: { merchantId: string; sandbox: { secretKey: string } }, path: string, body: unknown, count: () => Promise<number>) {
  const idem = randomUUID();
  const key = m.sandbox.secretKey;
  const first = await api(path, { key, body, headers: { "idempotency-key": idem } });
  assert.ok(first.status < 300, `${path}: ${first.status} ${first.text}`);
  const before = await count();
  await loseStoredAnswer(m.merchantId, idem);
  const again = await api(path, { key, body, headers: { "idempotency-key": idem } });
  assert.equal(again.status, first.status, `${path}: ${again.text}`);
  assert.equal(again.headers.get("idempotent-replayed"), "true");
  assert.equal(await count(), before, `${path} ran again`);
  // The re-rendered answer is stored: later replays read it.
  const third = await api(path, { key, body, headers: { "idempotency-key": idem } });
  assert.equal(third.text, again.text);
  return { first: first.body, again: again.body };
}

test("a lost answer is re-rendered from the resource: payments, refunds, checkout sessions", async () => {
  const m = await newMerchant();
  const mine = { merchantId: m.merchantId };
  const p = await sameAfterLoss(m, "/payments", { amount: 21.5, paymentMethodId: "sbx_card", merchantOrderId: `lost-${randomUUID()}` }, () => db().transaction.count({ where: mine }));
  assert.deepEqual(p.again, p.first);

  const paid = await api("/payments", { key: m.sandbox.secretKey, body: { amount: 40, paymentMethodId: "sbx_card" } });
  assert.equal((await api(`/payments/${paid.body.transactionId}/simulate`, { key: m.sandbox.secretKey, body: { action: "paid" } })).status, 200);
  const r = await sameAfterLoss(m, `/payments/${paid.body.transactionId}/refund`, { amount: 3 }, () => db().claim.count({ where: mine }));
  assert.deepEqual({ ...r.again, status: undefined }, { ...r.first, status: undefined });

  const customer = { firstName: "Ana", lastName: "Souza", email: "ana@example.com", phone: "+55 11 98765-4321" };
  const s = await sameAfterLoss(m, "/checkout/sessions", { amount: 10, customer }, () => db().checkoutSession.count({ where: mine }));
  assert.deepEqual(s.again, s.first);
  const one = await sameAfterLoss(m, "/checkout/sessions", { amount: 10, paymentMethodId: "sbx_card", userName: "Ana Souza", userEmail: "ana@example.com", documentId: "529.982.247-25" }, () => db().transaction.count({ where: mine }));
  assert.deepEqual(one.again, one.first);
});

test("a lost answer is re-rendered from the resource: payouts, funding, swaps, deposit accounts, deposits", async () => {
  const m = await newMerchant();
  const mine = { merchantId: m.merchantId };
  const key = m.sandbox.secretKey;
  const postings = () => db().ledgerPosting.count({ where: mine });
  const f = await sameAfterLoss(m, "/me/payout/fund-sandbox", { currency: "USD", amount: 50 }, postings);
  assert.deepEqual([f.again.currency, f.again.amount], ["USD", 50]);

  const quote = await api("/me/payout/swap?currency=MXN&amountUsd=20", { key });
  assert.equal(quote.status, 200, quote.text);
  const sw = await sameAfterLoss(m, "/me/payout/swap", { quoteId: quote.body.quoteId }, postings);
  assert.deepEqual({ ...sw.again.swap, executedAt: undefined }, { ...sw.first.swap, executedAt: undefined });

  const clabe = "002180012345678906";
  const po = await sameAfterLoss(m, "/me/payout/send", { methodId: "sbx_po_mx_spei", amount: 10, recipient: { name: "Carlos Ruiz", account: clabe, bankCode: "002", documentId: "GODE561231GR8", documentType: "RFC" } }, () => db().payout.count({ where: mine }));
  assert.deepEqual(po.again, po.first);

  const acct = await sameAfterLoss(m, "/me/deposit-accounts", { endUserRef: `u-${randomUUID()}`, name: "María López", email: "maria@example.com" }, () => db().depositAccount.count({ where: mine }));
  assert.deepEqual(acct.again, acct.first);
  const dep = await sameAfterLoss(m, `/me/deposit-accounts/${acct.first.account.id}/simulate-deposit`, { amount: 100, payerName: "A B", payerBank: "BBVA" }, () => db().deposit.count({ where: mine }));
  assert.deepEqual(dep.again, dep.first);
});

test("POST /webhooks: idempotent, the answer (it holds the secret) is never stored; a replay returns the same secret", async () => {
  const m = await newMerchant();
  const idem = randomUUID();
  const body = { events: ["payment.completed"] };
  const first = await api("/webhooks", { key: m.sandbox.secretKey, body, headers: { "idempotency-key": idem } });
  assert.equal(first.status, 200, first.text);
  const again = await api("/webhooks", { key: m.sandbox.secretKey, body, headers: { "idempotency-key": idem } });
  assert.equal(again.headers.get("idempotent-replayed"), "true");
  assert.deepEqual(again.body, first.body);
  assert.equal(await db().webhookSubscription.count({ where: { merchantId: m.merchantId } }), 1);
  const rec = await db().idempotencyRecord.findFirst({ where: { merchantId: m.merchantId, idempotencyKey: idem } });
  assert.equal(rec?.responseBody, null);
  assert.equal(rec?.resourceId, first.body.id);
});
