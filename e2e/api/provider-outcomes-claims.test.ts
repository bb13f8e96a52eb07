// Money leaves at most once (decisions.md), refunds and notices over real HTTP against the
// simulated PSPs: a refund whose answer is lost answers pending and the status job learns the
// outcome by our reference; a refused refund releases the freeze; a replayed notice (same id), a
// stale timestamp and a notice signed with the outbound secret are refused or ignored.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { api, assertEnvelope, newMerchant, waitFor } from "./helpers.ts";
import { outboundSecret, signedNotice } from "./provider-notices.ts";
import { db } from "@/lib/platform/db";
import { resolveDispute } from "@/lib/claims/resolve-dispute";
import { email, psp, behave, seedRates, paidPayment } from "./provider-outcomes-fixtures.ts";

after(() => db().$disconnect());
before(seedRates);

describe("refunds whose answer is lost", () => {
  for (const mode of ["succeed_then_timeout", "succeed_then_error"] as const) {
    test(`${mode}: the claim stays pending with its money frozen, then resolves once by the refund's status`, async () => {
      const m = await newMerchant({ tier: "premium" });
      const key = m.production.secretKey;
      const buyer = email();
      const { tx, charge } = await paidPayment(key, buyer);
      await behave("pagosur", mode, buyer);
      const refund = await api(`/payments/${tx}/refund`, { key, body: { amount: 100, reason: "requested_by_customer" }, headers: { "idempotency-key": `k-${randomUUID()}` } });
      assert.equal(refund.status, 200, refund.text);
      const claimId = refund.body.refundId;
      const claim = await waitFor(async () => {
        const c = (await api(`/claims/${claimId}`, { key })).body.claim;
        return c.status !== "pending" && c;
      }, "the refund's status by reference", 30_000);
      assert.equal(claim.status, "resolved", JSON.stringify(claim));
      const refunds = (await psp("pagosur", `/_control/charges/${charge}`)).refunds;
      assert.deepEqual(refunds.map((r: any) => r.reference), [claimId], "one refund at the provider, under our claim id");
      assert.equal(await db().ledgerPosting.count({ where: { claimId, kind: "refund_resolved" } }), 1);
      assert.equal(await db().ledgerPosting.count({ where: { claimId, kind: "refund_rejected" } }), 0);
      const frozen = await db().ledgerEntry.aggregate({ where: { merchantId: m.merchantId, environment: "production", account: "frozen" }, _sum: { amount: true } });
      assert.equal(frozen._sum.amount ?? 0n, 0n);
    });
  }

  test("a refund the provider refuses: the claim is rejected and the freeze released", async () => {
    const m = await newMerchant({ tier: "premium" });
    const key = m.production.secretKey;
    const buyer = email();
    const { tx, charge } = await paidPayment(key, buyer);
    await behave("pagosur", "decline", buyer);
    const refund = await api(`/payments/${tx}/refund`, { key, body: { amount: 100 } });
    assert.equal(refund.status, 200, refund.text);
    const claim = await waitFor(async () => {
      const c = (await api(`/claims/${refund.body.refundId}`, { key })).body.claim;
      return c.status !== "pending" && c;
    }, "the refusal", 30_000);
    assert.equal(claim.status, "rejected");
    assert.deepEqual((await psp("pagosur", `/_control/charges/${charge}`)).refunds, []);
  });
});

describe("notices once", () => {
  test("a replayed chargeback notice (same id) after the chargeback was won opens nothing", async () => {
    const m = await newMerchant({ tier: "premium" });
    const key = m.production.secretKey;
    const { tx, charge } = await paidPayment(key, email());
    const body = JSON.stringify({ noticeId: `ntc_${randomUUID()}`, chargeId: charge, status: "chargeback" });
    const headers = signedNotice("pagosur", body);
    const first = await api("/providers/pagosur/notifications", { raw: body, headers });
    assert.deepEqual(first.body, { received: true, applied: true });
    const opened = await db().claim.findFirstOrThrow({ where: { transactionId: tx, kind: "chargeback" } });
    await resolveDispute(opened.id, "won");
    const replay = await api("/providers/pagosur/notifications", { raw: body, headers });
    assert.equal(replay.status, 200, replay.text);
    assert.deepEqual(replay.body, { received: true, applied: false });
    assert.equal(await db().claim.count({ where: { transactionId: tx, kind: "chargeback" } }), 1);
    assert.equal(await db().ledgerPosting.count({ where: { transactionId: tx, kind: "chargeback_freeze" } }), 1);
  });

  test("a stale timestamp and a notice signed with the outbound secret are refused, nothing applied", async () => {
    const m = await newMerchant({ tier: "premium" });
    const key = m.production.secretKey;
    const r = await api("/payments", { key, body: { amount: 25, paymentMethodId: "1003", userName: "Juan Pérez", userEmail: email(), documentId: "GODE561231GR8" } });
    const tx = r.body.transactionId;
    const charge = (await db().transaction.findUniqueOrThrow({ where: { id: tx } })).providerRef!;
    const body = JSON.stringify({ noticeId: `ntc_${randomUUID()}`, chargeId: charge, status: "paid" });
    const stale = await api("/providers/pagosur/notifications", { raw: body, headers: signedNotice("pagosur", body, { at: Math.floor(Date.now() / 1000) - 6 * 60 }) });
    assertEnvelope(stale, "invalid_signature", 401);
    assert.equal(stale.body.error.details.reason, "timestamp_out_of_tolerance");
    const future = await api("/providers/pagosur/notifications", { raw: body, headers: signedNotice("pagosur", body, { at: Math.floor(Date.now() / 1000) + 6 * 60 }) });
    assertEnvelope(future, "invalid_signature", 401);
    assertEnvelope(await api("/providers/pagosur/notifications", { raw: body, headers: signedNotice("pagosur", body, { secret: outboundSecret("pagosur") }) }), "invalid_signature", 401);
    // The same refusals on the payout and deposit pipelines.
    const payoutBody = JSON.stringify({ noticeId: `ntc_${randomUUID()}`, payoutId: "pagosur_po_x", status: "PAID" });
    assertEnvelope(await api("/providers/pagosur/payouts", { raw: payoutBody, headers: signedNotice("pagosur", payoutBody, { secret: outboundSecret("pagosur") }) }), "invalid_signature", 401);
    assertEnvelope(await api("/providers/pagosur/payouts", { raw: payoutBody, headers: signedNotice("pagosur", payoutBody, { at: 1_000_000_000 }) }), "invalid_signature", 401);
    assert.equal((await api(`/payments/${tx}`, { key })).body.status, "pending");
    assert.equal(await db().ledgerPosting.count({ where: { transactionId: tx } }), 0);
    // Within the window and with the notice secret, it applies.
    const ok = await api("/providers/pagosur/notifications", { raw: body, headers: signedNotice("pagosur", body, { at: Math.floor(Date.now() / 1000) - 60 }) });
    assert.deepEqual(ok.body, { received: true, applied: true });
    assert.equal(await db().ledgerPosting.count({ where: { transactionId: tx, kind: "payment_completed" } }), 1);
  });
});
