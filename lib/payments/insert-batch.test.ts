// The payment insert's group commit (lib/payments/insert-batch.ts) against the test database:
// requests arriving together share statements, yet each gets exactly what its own insert would
// have given it — its key claimed once, a duplicate answered from the first, a failing row failing
// alone, a request without a key inserted plainly.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { db, sql } from "@/lib/platform/db";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { insertTransaction } from "@/lib/payments/store";
import { insertBatchStats } from "@/lib/payments/insert-batch";
import { withIdempotency } from "@/lib/platform/idempotency/run";
import { type IdempotencyScope } from "@/lib/platform/idempotency/keys";
import { railById } from "@/lib/rails/rails";
import { nameTerms } from "@/lib/payments/search";
import { newId } from "@/lib/platform/ids";
import type { PresentableTransaction } from "@/lib/payments/present";

after(() => db().$disconnect());

function payment(merchantId: string, shopId: string, i: number): PresentableTransaction {
  const rail = railById("1004")!;
  const now = new Date();
  return {
    id: newId("transaction"), merchantId, shopId, environment: "sandbox", status: "failed", amountUsd: 2500n + BigInt(i), amountLocal: 45500n, currencyLocal: "MXN",
    inputCurrency: null, inputAmount: null, paymentMethodId: rail.paymentMethodId, method: rail.method, railName: rail.name, country: rail.countryIso3,
    feePlatform: 90n, feeProvider: 63n, feeNetwork: 50n, reserveAmount: 0n, settlementDelay: rail.settlementDelay, provider: "pagosur", providerRef: `ref-${i}`,
    paymentFormUrl: null, instructions: i % 2 ? { reference: `R-${i}`, note: 'quote " and \\ back' } : null, hostedCheckout: i % 3 === 0, returnUrl: null,
    merchantOrderId: `order-${i}`, qrOrderId: null, tag1: "t", tag2: null, tag3: null,
    userName: "Ana María Ruiz", userEmail: `Ana${i}@Example.com`, userPhone: null, userIp: "127.0.0.1", expiresAt: new Date(now.getTime() + 86_400_000), createdAt: now,
    attempts: [{ provider: "pagosur", outcome: "success", reason: null, durationMs: i }],
    settlementStatus: "pending", settleAt: null, refundedLocal: 0n, pendingDebited: 0n, reserveReleaseAt: null, reserveReleasedAt: null, completedAt: null,
  };
}

/** A POST /payments-shaped request: its claim folded into the insert, its answer stored with it. */
function post(scope: IdempotencyScope, t: PresentableTransaction, body: unknown) {
  const answer = { id: t.id, amount: t.amountUsd.toString() };
  return withIdempotency(scope, body, async () => (await insertTransaction(t, "18.2", undefined, answer), { status: 201, body: answer }), { foldClaim: true, successStatus: 201 });
}

test("inserts arriving together share statements; each key claimed once, each row as written alone", async () => {
  const m = await createMerchant({ name: "Group commit" });
  const scope = (key: string): IdempotencyScope => ({ merchantId: m.merchantId, environment: "sandbox", key, method: "POST", path: "/api/v1/payments", shopId: m.shopId });
  const before = insertBatchStats();
  const rows = Array.from({ length: 60 }, (_, i) => payment(m.merchantId, m.shopId, i));
  // 60 keys, five more requests with key-0's body (a client retrying), one with key-1's key and another body.
  const results = await Promise.allSettled([
    ...rows.map((t, i) => post(scope(`key-${i}`), t, { n: i })),
    ...Array.from({ length: 5 }, () => post(scope("key-0"), payment(m.merchantId, m.shopId, 100), { n: 0 })),
    post(scope("key-1"), payment(m.merchantId, m.shopId, 101), { n: "other" }),
  ]);
  const after = insertBatchStats();
  assert.ok(after.rows - before.rows > after.statements - before.statements, `rows shared statements (${after.rows - before.rows} rows in ${after.statements - before.statements})`);
  assert.ok(after.largest > 1);

  type Answer = { body: { id: string; amount: string }; replayed: boolean };
  const value = (r: PromiseSettledResult<unknown>) => (r as PromiseFulfilledResult<Answer>).value;
  for (let i = 2; i < 60; i++) {
    assert.equal(results[i]!.status, "fulfilled");
    assert.deepEqual(value(results[i]!).body, { id: rows[i]!.id, amount: rows[i]!.amountUsd.toString() });
  }
  // Requests with one key race: whichever reached the database first holds it. The other five
  // with its body are answered with the winner's answer.
  const keyZero = [results[0]!, ...results.slice(60, 65)];
  assert.ok(keyZero.every((r) => r.status === "fulfilled"));
  assert.equal(keyZero.filter((r) => !value(r).replayed).length, 1, "key-0 ran once");
  assert.equal(new Set(keyZero.map((r) => value(r).body.id)).size, 1, "every key-0 request has the same answer");
  // key-1 with another body: one of the two ran, the other is refused.
  const keyOne = [results[1]!, results[65]!];
  assert.equal(keyOne.filter((r) => r.status === "fulfilled").length, 1);
  assert.equal((keyOne.find((r) => r.status === "rejected") as PromiseRejectedResult).reason.code, "idempotency_conflict");

  // Exactly one row per key, each as the plain insert writes it.
  const winners = new Set([value(keyZero[0]!).body.id, value(keyOne.find((r) => r.status === "fulfilled")!).body.id, ...rows.slice(2).map((t) => t.id)]);
  const stored = await sql<{ id: string; instructions: unknown; hosted_checkout: boolean; search_name_terms: string[]; search_email_key: Buffer; amount_usd: string; attempts: unknown }>(
    `SELECT id, instructions, hosted_checkout, search_name_terms, search_email_key, amount_usd::text, attempts FROM transactions WHERE merchant_id = $1 ORDER BY amount_usd`,
    [m.merchantId],
  );
  assert.deepEqual(new Set(stored.map((s) => s.id)), winners);
  const byAmount = (usd: bigint) => stored.find((s) => s.amount_usd === usd.toString())!;
  const five = byAmount(2505n);
  assert.equal(byAmount(2503n).hosted_checkout, true);
  assert.equal(byAmount(2504n).instructions, null);
  assert.deepEqual(five.instructions, { reference: "R-5", note: 'quote " and \\ back' });
  assert.deepEqual(five.search_name_terms, nameTerms("Ana María Ruiz"));
  assert.equal(five.search_email_key.toString("utf8"), "ana5@example.com");
  assert.deepEqual(five.attempts, [{ provider: "pagosur", outcome: "success", reason: null, durationMs: 5 }]);
  const records = await sql<{ n: string }>(`SELECT count(*)::text AS n FROM idempotency_records WHERE merchant_id = $1 AND state = 'completed'`, [m.merchantId]);
  assert.equal(records[0]!.n, "60");
});

test("a row that fails fails alone; rows without a key go in plainly", async () => {
  const m = await createMerchant({ name: "Group commit failure" });
  const scope = (key: string): IdempotencyScope => ({ merchantId: m.merchantId, environment: "sandbox", key, method: "POST", path: "/api/v1/payments", shopId: m.shopId });
  const good = Array.from({ length: 20 }, (_, i) => payment(m.merchantId, m.shopId, i));
  const bad = payment(m.merchantId, m.shopId, 99);
  bad.id = good[7]!.id; // the same primary key as a neighbour: one of the two must fail, alone
  const results = await Promise.allSettled([
    ...good.map((t, i) => (i % 2 ? post(scope(`k-${i}`), t, { i }) : insertTransaction(t, "18.2"))),
    post(scope("k-bad"), bad, { bad: true }),
  ]);
  const rejected = results.filter((r) => r.status === "rejected");
  assert.equal(rejected.length, 1, "only one of the two rows with one id failed");
  assert.equal((rejected[0] as PromiseRejectedResult).reason.code, "23505");
  const stored = await sql<{ n: string }>(`SELECT count(*)::text AS n FROM transactions WHERE merchant_id = $1`, [m.merchantId]);
  assert.equal(stored[0]!.n, "20");
  // The failed request's key was not left claimed: the same request may be sent again.
  const held = await sql(`SELECT id FROM idempotency_records WHERE merchant_id = $1 AND idempotency_key = 'k-bad' AND state <> 'processing'`, [m.merchantId]);
  assert.equal(held.length, results.at(-1)!.status === "rejected" ? 0 : 1);
});
