// Refunds as claims over real HTTP (API reference 2.12; decisions.md Refunds and claims): POST
// /payments/{id}/refund freezes, then resolves; refunds up to the captured amount, concurrent
// refunds, the balance they need, refused statuses and amounts, and scoping of payments and claims.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { api, assertEnvelope, newMerchant, waitFor } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import type { CreatedMerchant } from "@/lib/merchants/create-merchant";
import { cents, major, expectedPricing, sk, newPayment, simulate, paidPayment, getPayment, waitForStatus, events, assertEventShape, balance, assertBuckets, catalogFee, settleNow } from "./payments-fixtures.ts";

after(() => db().$disconnect());

describe("refunds (POST /payments/{id}/refund) and claims (GET /claims/{id})", () => {
  const refund = (m: CreatedMerchant, id: string, body?: unknown, headers: Record<string, string> = {}) =>
    api(`/payments/${id}/refund`, { key: sk(m), method: "POST", body, headers });

  const waitResolved = (m: CreatedMerchant, claimId: string) =>
    waitFor(async () => {
      const r = await api(`/claims/${claimId}`, { key: sk(m) });
      return r.body?.claim?.status === "resolved" && r.body.claim;
    }, `claim ${claimId} resolved`);

  test("partial refund in local currency: 200 refund (2.12); frozen, then auto-resolved; the payment stays completed", async () => {
    const m = await newMerchant(); // premium: no reserve
    const p = await paidPayment(m, "sbx_pix", { amount: 100 }); // 540.00 BRL
    const idem = randomUUID();
    const r = await refund(m, p.transactionId, { amount: 54, reason: "requested_by_customer" }, { "idempotency-key": idem });
    assert.equal(r.status, 200, r.text);
    assert.match(r.body.refundId, /^CLM-[0-9A-Z]+$/);
    assert.deepEqual({ ...r.body, refundId: undefined, createdAt: undefined }, {
      refundId: undefined,
      transactionId: p.transactionId,
      amount: 54,
      amountUsd: 10,
      currency: "BRL",
      status: "pending",
      reason: "requested_by_customer",
      createdAt: undefined,
    });
    assert.ok(!Number.isNaN(Date.parse(r.body.createdAt)));

    // The same key and body replays the same refund; one claim.
    const replay = await refund(m, p.transactionId, { amount: 54, reason: "requested_by_customer" }, { "idempotency-key": idem });
    assert.equal(replay.headers.get("idempotent-replayed"), "true");
    assert.deepEqual(replay.body, r.body);
    assert.equal(await db().claim.count({ where: { transactionId: p.transactionId } }), 1);
    assertEnvelope(await refund(m, p.transactionId, { amount: 55, reason: "requested_by_customer" }, { "idempotency-key": idem }), "idempotency_conflict", 409);
    assert.equal(await db().claim.count({ where: { transactionId: p.transactionId } }), 1);

    const claim = await waitResolved(m, r.body.refundId);
    assert.equal(claim.id, r.body.refundId);
    assert.equal(claim.kind, "user_dispute");
    assert.equal(claim.transactionId, p.transactionId);
    assert.equal(claim.amount, 54);
    assert.equal(claim.amountUsd, 10);
    assert.equal(claim.currency, "BRL");
    assert.equal(claim.reason, "requested_by_customer");
    assert.deepEqual(claim.history.map((h: any) => h.status), ["pending", "resolved"]);
    assert.ok(Date.parse(claim.resolvedAt) >= Date.parse(claim.createdAt));

    const t = await getPayment(m, p.transactionId);
    assert.equal(t.status, "completed");
    assert.equal(t.refundedAmountLocal, 54);

    // The amount was frozen, then left the balance; nothing stays frozen.
    const b = await balance(m);
    assert.deepEqual(b.ledgerWarnings, []);
    assertBuckets(b.balance, { available: 0, pending: major(cents(expectedPricing(100, "premium", await catalogFee(m, "sbx_pix")).pending) - 1000n), reserve: 0, frozen: 0 });
    const moves = (type: string) => b.movements.filter((x: any) => x.type === type && x.claimId === r.body.refundId);
    assert.deepEqual(moves("refund_freeze").filter((x: any) => x.bucket === "frozen").map((x: any) => x.amount), [10], "the refund was frozen first");
    // From this payment's pending net (or from available, had a settlement run already).
    assert.equal(moves("refund_freeze").filter((x: any) => x.bucket !== "frozen").reduce((sum: number, x: any) => sum + x.amount, 0), -10);
    assert.deepEqual(moves("refund_resolved").map((x: any) => [x.bucket, x.amount]), [["frozen", -10]], "then left the balance from frozen");

    const evs = await events(m.merchantId);
    const resolved = evs.filter((e) => e.type === "claim.resolved");
    assert.equal(resolved.length, 1);
    assertEventShape(resolved[0]!);
    assert.deepEqual((resolved[0]!.payload as any).data.object, claim);
    const refunded = evs.filter((e) => e.type === "payment.refunded");
    assert.equal(refunded.length, 1);
    assertEventShape(refunded[0]!);
    assert.equal((refunded[0]!.payload as any).data.object.id, p.transactionId);
    assert.equal((refunded[0]!.payload as any).data.object.refundedAmountLocal, 54);
  });

  test("refunds up to the captured amount: over-refund 422; the last refund (no body) makes the payment refunded", async () => {
    const m = await newMerchant();
    // A second, settled payment funds `available`: fees make a payment's own net smaller than its amount.
    const funding = await paidPayment(m, "sbx_card", { amount: 100 });
    await settleNow(funding.transactionId);
    const p = await paidPayment(m, "sbx_card", { amount: 100 });
    const net = expectedPricing(100, "premium", await catalogFee(m, "sbx_card")).pending; // 94.30
    assertBuckets((await balance(m)).balance, { available: net, pending: net, reserve: 0, frozen: 0 });

    const first = await refund(m, p.transactionId, { amount: 30 });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.reason, null);
    // While the first is pending, the remaining amount already excludes it.
    const over = await refund(m, p.transactionId, { amount: 70.01 });
    assertEnvelope(over, "amount_out_of_limits", 422);
    assert.equal(over.body.error.details.boundViolated, "max");
    assert.equal(over.body.error.details.limit.max, 70);
    await waitResolved(m, first.body.refundId);
    assert.equal((await getPayment(m, p.transactionId)).status, "completed");

    const rest = await refund(m, p.transactionId);
    assert.equal(rest.status, 200, rest.text);
    assert.equal(rest.body.amount, 70);
    assert.equal(rest.body.amountUsd, 70);
    assert.equal(rest.body.currency, "USD");
    await waitResolved(m, rest.body.refundId);
    const t = await waitForStatus(m, p.transactionId, "refunded");
    assert.equal(t.refundedAmountLocal, 100);

    const b = await balance(m);
    assert.deepEqual(b.ledgerWarnings, []);
    // 100 USD left: this payment's unsettled net (94.30) and 5.70 from available (the same total had
    // a settlement run in between).
    assert.deepEqual(b.balance, { available: major(cents(net) - 570n), pending: 0, frozen: 0, reserve: 0 });

    const evs = await events(m.merchantId);
    assert.equal(evs.filter((e) => e.type === "payment.refunded" && (e.payload as any).data.object.id === p.transactionId).length, 2);
    assert.deepEqual(
      evs.filter((e) => e.type === "claim.resolved").map((e) => (e.payload as any).data.object.id).sort(),
      [first.body.refundId, rest.body.refundId].sort(),
    );
    const last = evs.filter((e) => e.type === "payment.refunded").at(-1)!;
    assert.equal((last.payload as any).data.object.status, "refunded");

    // Nothing is left to refund.
    assertEnvelope(await refund(m, p.transactionId, { amount: 1 }), "invalid_request", 400);
  });

  test("two concurrent refunds that together exceed the payment: exactly one is accepted", async () => {
    const m = await newMerchant();
    const p = await paidPayment(m, "sbx_card", { amount: 100 });
    const results = await Promise.all([1, 2].map(() => refund(m, p.transactionId, { amount: 60 })));
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 422]);
    assertEnvelope(results.find((r) => r.status === 422)!, "amount_out_of_limits", 422);
    assert.equal(await db().claim.count({ where: { transactionId: p.transactionId } }), 1);
    await waitResolved(m, results.find((r) => r.status === 200)!.body.refundId);
    assert.equal((await getPayment(m, p.transactionId)).refundedAmountLocal, 60);
    assert.deepEqual((await balance(m)).ledgerWarnings, []);
  });

  // Premium (no reserve): a concurrent reserve release (see assertBuckets) cannot change the
  // outcome, and a concurrent settlement changes only where the money sits, not the shortfall.
  test("a full refund right after payment: 422 balance_insufficient (the net after fees is all there is); nothing frozen", async () => {
    const m = await newMerchant({ tier: "premium" });
    const p = await paidPayment(m, "sbx_card", { amount: 100 });
    const net = expectedPricing(100, "premium", await catalogFee(m, "sbx_card")).pending; // 94.30
    const full = await refund(m, p.transactionId);
    assertEnvelope(full, "balance_insufficient", 422);
    assert.equal(full.body.error.details.shortfallUsd, 5.7, "the fees are not the merchant's to give back");
    assert.ok([0, net].includes(full.body.error.details.availableUsd), `availableUsd ${full.body.error.details.availableUsd}`);
    // One cent more than the net is still too much; the net itself can be refunded.
    const cent = await refund(m, p.transactionId, { amount: major(cents(net) + 1n) });
    assertEnvelope(cent, "balance_insufficient", 422);
    assert.equal(cent.body.error.details.shortfallUsd, 0.01);
    assert.equal(await db().claim.count({ where: { transactionId: p.transactionId } }), 0, "no claim for a refused refund");
    assertBuckets((await balance(m)).balance, { available: 0, pending: net, reserve: 0, frozen: 0 });
    assert.equal((await getPayment(m, p.transactionId)).refundedAmountLocal, 0);

    const ok = await refund(m, p.transactionId, { amount: net });
    assert.equal(ok.status, 200, ok.text);
    await waitResolved(m, ok.body.refundId);
    const b = await balance(m);
    assert.deepEqual(b.balance, { available: 0, pending: 0, frozen: 0, reserve: 0 });
    assert.deepEqual(b.ledgerWarnings, []);
    assert.equal((await getPayment(m, p.transactionId)).status, "completed", "5.70 of 100 is still unrefunded");
  });

  test("refund of a pending or failed payment: 400 invalid_request; bad amounts: 400 amount_invalid", async () => {
    const m = await newMerchant();
    const pending = await newPayment(m);
    const r = await refund(m, pending.transactionId, { amount: 1 });
    assertEnvelope(r, "invalid_request", 400);
    assert.equal(r.body.error.details.status, "pending");
    const failed = await newPayment(m);
    await simulate(m, failed.transactionId, "failed");
    assertEnvelope(await refund(m, failed.transactionId), "invalid_request", 400);

    const p = await paidPayment(m, "sbx_spei");
    for (const amount of [0, -1, "x", "5", null, 1.001]) {
      const bad = await refund(m, p.transactionId, { amount });
      assertEnvelope(bad, "amount_invalid", 400);
      assert.equal(bad.body.error.param, "amount", JSON.stringify(amount));
    }
    const longReason = await refund(m, p.transactionId, { amount: 1, reason: "x".repeat(501) });
    assertEnvelope(longReason, "invalid_request", 400);
    assert.equal(longReason.body.error.param, "reason");
    assert.equal(await db().claim.count({ where: { merchantId: m.merchantId } }), 0);
  });

  test("unknown ids and other merchants' payments and claims: 404; publishable key: 403", async () => {
    const a = await newMerchant();
    const b = await newMerchant();
    const p = await paidPayment(a, "sbx_card", { amount: 50 });
    const r = await refund(a, p.transactionId, { amount: 5 });
    assert.equal(r.status, 200, r.text);
    assertEnvelope(await refund(b, p.transactionId, { amount: 5 }), "transaction_not_found", 404);
    assertEnvelope(await refund(a, "tx_000000000000000000000000", { amount: 5 }), "transaction_not_found", 404);
    assertEnvelope(await api(`/payments/${p.transactionId}/refund`, { key: a.production.secretKey, method: "POST", body: { amount: 5 } }), "transaction_not_found", 404);
    assertEnvelope(await api(`/payments/${p.transactionId}/refund`, { key: a.sandbox.publishableKey, method: "POST", body: { amount: 5 } }), "key_kind_not_allowed", 403);

    assert.equal((await api(`/claims/${r.body.refundId}`, { key: sk(a) })).status, 200);
    assertEnvelope(await api(`/claims/${r.body.refundId}`, { key: sk(b) }), "claim_not_found", 404);
    assertEnvelope(await api(`/claims/${r.body.refundId}`, { key: a.production.secretKey }), "claim_not_found", 404);
    assertEnvelope(await api("/claims/CLM-UNKNOWN0000000000", { key: sk(a) }), "claim_not_found", 404);
    assertEnvelope(await api(`/claims/${r.body.refundId}`, { key: a.sandbox.publishableKey }), "key_kind_not_allowed", 403);
  });
});
