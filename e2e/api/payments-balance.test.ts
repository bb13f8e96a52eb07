// GET /me/balance over real HTTP (API reference 2.4): the balance derived from the ledger, its
// buckets as payments complete, settle and fail, and sandbox and production kept apart.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { api, assertEnvelope, newMerchant } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { RESERVE_BP, WITHDRAWAL_FEE, cents, major, expectedPricing, newPayment, simulate, paidPayment, balance, assertBuckets, catalogFee } from "./payments-fixtures.ts";

after(() => db().$disconnect());

describe("GET /me/balance", () => {
  test("a new merchant: zeros everywhere, no movements", async () => {
    const m = await newMerchant({ tier: "standard" });
    const b = await balance(m);
    assert.equal(b.merchantId, m.merchantId);
    assert.equal(b.currency, "USD");
    assert.deepEqual(b.balance, { available: 0, pending: 0, frozen: 0, reserve: 0 });
    assert.deepEqual(b.ledgerWarnings, []);
    assert.deepEqual(b.movements, []);
    assert.deepEqual(b.reserveSchedule, []);
    assert.equal(b.feeSummary.grossVolume, 0);
  });

  for (const tier of ["standard", "premium", "starter"] as const) {
    test(`${tier}: after a paid payment, pending = amount − fees − reserve; reserve per tier`, async () => {
      const m = await newMerchant({ tier });
      const p = await paidPayment(m, "sbx_card", { amount: 100 });
      const price = expectedPricing(100, tier, await catalogFee(m, "sbx_card"));
      assert.deepEqual(p.fees, price.fees);
      assert.equal(p.settlement.reserve, price.reserve);

      const b = await balance(m);
      assert.equal(b.tier, tier);
      assert.equal(typeof b.trustScore, "number");
      assertBuckets(b.balance, { available: 0, pending: price.pending, reserve: price.reserve, frozen: 0 });
      assert.deepEqual(b.ledgerWarnings, []);
      assert.equal(b.rollingReservePct, Number(RESERVE_BP[tier]) / 100);
      assert.equal(b.withdrawalFeeUsd, WITHDRAWAL_FEE[tier]);
      assert.deepEqual(b.feeSummary, {
        grossVolume: 100,
        platformFees: price.platformPercent,
        flatFees: 0.3,
        chargebackFees: 0,
        totalFees: price.fees.total,
        netBalance: major(cents(100) - cents(price.fees.total)),
      });

      assert.ok(b.movements.length > 0);
      for (const mv of b.movements) {
        assert.deepEqual(Object.keys(mv).sort(), ["amount", "bucket", "claimId", "createdAt", "id", "transactionId", "type"]);
        assert.match(mv.id, /^ent_/);
        assert.ok(!Number.isNaN(Date.parse(mv.createdAt)));
        assert.equal(mv.transactionId, p.transactionId);
        assert.equal(mv.claimId, null);
      }
      const completion = b.movements.filter((mv: any) => mv.type === "payment_completed");
      const byBucket = Object.fromEntries(completion.map((mv: any) => [mv.bucket, mv.amount]));
      assert.deepEqual(byBucket, price.reserve > 0 ? { pending: price.pending, reserve: price.reserve } : { pending: price.pending });

      if (b.balance.reserve > 0) {
        assert.equal(b.reserveSchedule.length, 1);
        assert.equal(b.reserveSchedule[0].amount, price.reserve);
        const inDays = (Date.parse(b.reserveSchedule[0].releaseAt) - Date.now()) / 86_400_000;
        assert.ok(inDays > 88 && inDays <= 90, `reserve released in ~90 days, got ${inDays.toFixed(2)}`);
      } else {
        assert.deepEqual(b.reserveSchedule, []);
      }
    });
  }

  test("pending and failed payments do not move the balance", async () => {
    const m = await newMerchant();
    await newPayment(m);
    const f = await newPayment(m);
    await simulate(m, f.transactionId, "failed");
    const b = await balance(m);
    assert.deepEqual(b.balance, { available: 0, pending: 0, frozen: 0, reserve: 0 });
    assert.equal(b.feeSummary.grossVolume, 0);
  });

  test("sandbox and production balances are separate; publishable key: 403 key_kind_not_allowed", async () => {
    const m = await newMerchant();
    await paidPayment(m);
    const live = await api("/me/balance", { key: m.production.secretKey });
    assert.equal(live.status, 200);
    assert.deepEqual(live.body.balance, { available: 0, pending: 0, frozen: 0, reserve: 0 });
    assert.deepEqual(live.body.movements, []);
    assertEnvelope(await api("/me/balance", { key: m.sandbox.publishableKey }), "key_kind_not_allowed", 403);
  });
});
