// Retry budgets over real HTTP (issue 45, lib/routing/retry-budget.ts): on a card rail, a soft
// decline is retried at the next provider only within the card networks' limits per card (10 in
// 24 hours, Mastercard; 15 in 30 days, Visa), counted in PostgreSQL across instances. The card is
// known by its holder's document, else e-mail (no card number reaches the API before the cascade).
// Half the reattempts go through a second instance of the app on the same database: the eleventh,
// on the first instance, finds the budget spent.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { api, assertEnvelope, behave, extraServer, newMerchant } from "./helpers.ts";
import { setRate } from "@/lib/money/rates";
import { db } from "@/lib/platform/db";
import { cardKeyOf } from "@/lib/routing/retry-budget";

let key: string;
let merchantId: string;
let second: Awaited<ReturnType<typeof extraServer>>;
before(async () => {
  await setRate("BRL", "5.00", "test");
  const m = await newMerchant();
  key = m.production.secretKey;
  merchantId = m.merchantId;
  // rapidpay first, pagosur after it, nothing else: every reattempt is pagosur's.
  const put = await api("/me/routing", { key, method: "PUT", body: { rules: [{ paymentMethodId: "1006", providers: [{ provider: "rapidpay" }, { provider: "pagosur" }], fallback: false }] } });
  assert.equal(put.status, 200, put.text);
  second = await extraServer(process.env as Record<string, string>);
});
after(async () => {
  await second?.stop();
  await db().$disconnect();
});

// Brazil's card rail: the success-rate test of routing-rules.test.ts, which runs beside this file,
// watches rapidpay's circuit on Mexico's (1007), and this file's declines must not reach it.
const card = (email: string, documentId?: string) => ({ amount: 300, currency: "BRL", paymentMethodId: "1006", userEmail: email, ...(documentId ? { documentId } : {}) });

test("a card's soft declines cascade ten times in 24 hours (five through each instance); the eleventh stops at 402 with the limit, one attempt", async () => {
  const email = `budget-${randomUUID().slice(0, 8)}@example.com`;
  for (let i = 0; i < 10; i++) {
    await behave("rapidpay", "decline", email, "rate_limited");
    const r = await api("/payments", { key, body: card(email), base: i % 2 ? second.url : undefined });
    assert.equal(r.status, 200, `payment ${i + 1}: ${r.text}`);
    const got = (await api(`/payments/${r.body.transactionId}`, { key })).body;
    assert.deepEqual(got.attempts.map((a: any) => [a.provider, a.outcome, a.decision]), [["rapidpay", "declined", "retry_next"], ["pagosur", "accepted", null]], `payment ${i + 1}`);
  }
  const cardKey = cardKeyOf({ email })!;
  assert.equal(await db().cardReattempt.count({ where: { cardKey, environment: "production" } }), 10);
  const row = await db().cardReattempt.findFirst({ where: { cardKey }, select: { cardKey: true, merchantId: true, provider: true } });
  assert.deepEqual(row, { cardKey, merchantId, provider: "pagosur" });
  assert.ok(!cardKey.includes(email) && /^[0-9a-f]{64}$/.test(cardKey), "the table holds an HMAC, not the e-mail");

  await behave("rapidpay", "decline", email, "rate_limited");
  const r = await api("/payments", { key, body: card(email) });
  assertEnvelope(r, "card_declined", 402);
  assert.deepEqual(r.body.error.details.attempts.map((a: any) => [a.provider, a.outcome]), [["rapidpay", "declined"]], "pagosur was not tried");
  assert.equal(r.body.error.details.reattemptBudget.max, 10);
  assert.equal(r.body.error.details.reattemptBudget.windowHours, 24);
  assert.match(r.body.error.details.reattemptBudget.rule, /Mastercard/);
  const failed = await api(`/payments/${r.body.error.details.transactionId}`, { key });
  assert.equal(failed.body.status, "failed");
  assert.equal(await db().cardReattempt.count({ where: { cardKey } }), 10, "a refused reattempt spends nothing");

  // Without a soft decline the card still pays at once: the budget is for reattempts only.
  const plain = await api("/payments", { key, body: card(email) });
  assert.equal(plain.status, 200, plain.text);
});

test("the card is its holder's document when the payment has one: another e-mail with the same document shares its budget; another card does not", async () => {
  const doc = `GODE${Math.floor(100000 + Math.random() * 899999)}GR8`;
  const cardKey = cardKeyOf({ documentId: doc })!;
  // Nine reattempts spent already for this document today (rows as the cascade writes them).
  await db().cardReattempt.createMany({ data: Array.from({ length: 9 }, () => ({ environment: "production" as const, cardKey, merchantId, transactionId: "tx_seed", provider: "pagosur" })) });
  await behave("rapidpay", "decline", "one@example.com", "rate_limited");
  const tenth = await api("/payments", { key, body: card("one@example.com", doc) });
  assert.equal(tenth.status, 200, tenth.text);
  await behave("rapidpay", "decline", "two@example.com", "rate_limited");
  const eleventh = await api("/payments", { key, body: card("two@example.com", doc) });
  assertEnvelope(eleventh, "card_declined", 402);
  assert.equal(eleventh.body.error.details.reattemptBudget.used, 10);
  const other = `other-${randomUUID().slice(0, 8)}@example.com`;
  await behave("rapidpay", "decline", other, "rate_limited");
  assert.equal((await api("/payments", { key, body: card(other) })).status, 200, "another card keeps its own budget");
});

test("the 30-day limit (Visa's 15): ten reattempts older than 24 hours and five today spend it", async () => {
  const email = `visa-${randomUUID().slice(0, 8)}@example.com`;
  const cardKey = cardKeyOf({ email })!;
  const days = (n: number) => new Date(Date.now() - n * 86_400_000);
  await db().cardReattempt.createMany({ data: [...Array.from({ length: 10 }, (_, i) => ({ at: days(2 + i) })), ...Array.from({ length: 5 }, () => ({ at: new Date() }))].map((r) => ({ ...r, environment: "production" as const, cardKey, merchantId, transactionId: "tx_seed", provider: "pagosur" })) });
  await behave("rapidpay", "decline", email, "rate_limited");
  const r = await api("/payments", { key, body: card(email) });
  assertEnvelope(r, "card_declined", 402);
  assert.deepEqual([r.body.error.details.reattemptBudget.max, r.body.error.details.reattemptBudget.windowHours], [15, 720]);
  assert.match(r.body.error.details.reattemptBudget.rule, /Visa/);
  // Reattempts older than 30 days no longer count (and are dropped as the card is seen).
  await db().cardReattempt.updateMany({ where: { cardKey, at: { lt: days(1) } }, data: { at: days(31) } });
  await behave("rapidpay", "decline", email, "rate_limited");
  assert.equal((await api("/payments", { key, body: card(email) })).status, 200);
  assert.equal(await db().cardReattempt.count({ where: { cardKey } }), 6);
});

test("a soft decline on a rail that is not a card (SPEI) cascades without counting", async () => {
  const email = `spei-${randomUUID().slice(0, 8)}@example.com`;
  await behave("pagosur", "decline", email, "rate_limited");
  const r = await api("/payments", { key, body: { amount: 25, paymentMethodId: "1003", userName: "Juan Pérez", userEmail: email, documentId: "GODE561231GR8" } });
  assert.equal(r.status, 200, r.text);
  assert.equal(await db().cardReattempt.count({ where: { transactionId: r.body.transactionId } }), 0);
});
