// Sandbox simulation of pay-ins over real HTTP (API reference 3.1, 3.5; decisions.md
// Sandbox-Simulate header): POST /payments/{id}/simulate and the events outbox it writes (once,
// under concurrency; refused actions change nothing), and the Sandbox-Simulate header's scheduled
// outcomes (delays × SANDBOX_DELAY_SCALE).
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { api, assertEnvelope, newMerchant, waitFor } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { type SandboxRail, expectedPricing, sk, newPayment, simulate, paidPayment, getPayment, waitForStatus, events, eventsAbout, assertEventShape, sortedTypes, balance, assertBuckets, catalogFee, settleAll } from "./payments-fixtures.ts";

after(() => db().$disconnect());

describe("POST /payments/{id}/simulate (3.1) and the events outbox", () => {
  test("paid: pending -> completed, payment.completed + payment.captured carrying the transaction", async () => {
    const m = await newMerchant();
    const p = await newPayment(m, "sbx_pix");
    const r = await simulate(m, p.transactionId, "paid");
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { id: p.transactionId, status: "completed", eventsFired: ["payment.completed", "payment.captured"] });
    const t = await getPayment(m, p.transactionId);
    assert.equal(t.status, "completed");
    assert.ok(Date.parse(t.timestamps.completed) >= Date.parse(t.timestamps.created));

    const rows = await events(m.merchantId);
    assert.deepEqual(sortedTypes(rows), ["payment.captured", "payment.completed"]);
    for (const e of rows) {
      assertEventShape(e);
      assert.deepEqual((e.payload as any).data.object, t, "data.object is the transaction as GET returns it");
    }
  });

  test("failed: pending -> failed, payment.failed", async () => {
    const m = await newMerchant();
    const p = await newPayment(m, "sbx_spei");
    const r = await simulate(m, p.transactionId, "failed");
    assert.deepEqual(r.body, { id: p.transactionId, status: "failed", eventsFired: ["payment.failed"] });
    const t = await getPayment(m, p.transactionId);
    assert.equal(t.status, "failed");
    const rows = await events(m.merchantId);
    assert.deepEqual(sortedTypes(rows), ["payment.failed"]);
    assertEventShape(rows[0]!);
    assert.deepEqual((rows[0]!.payload as any).data.object, t);
    // Nothing reached the ledger.
    const b = await balance(m);
    assert.deepEqual(b.balance, { available: 0, pending: 0, frozen: 0, reserve: 0 });
  });

  test("expired: pending -> expired, payment.failed", async () => {
    const m = await newMerchant();
    const p = await newPayment(m, "sbx_cash");
    const r = await simulate(m, p.transactionId, "expired");
    assert.deepEqual(r.body, { id: p.transactionId, status: "expired", eventsFired: ["payment.failed"] });
    const rows = await events(m.merchantId);
    assert.deepEqual(sortedTypes(rows), ["payment.failed"]);
    assertEventShape(rows[0]!);
    assert.equal((rows[0]!.payload as any).data.object.id, p.transactionId);
    assert.equal((rows[0]!.payload as any).data.object.status, "expired");
  });

  test("refunded: completed -> refunded, payment.refunded; the ledger stays consistent", async () => {
    const m = await newMerchant();
    const p = await paidPayment(m, "sbx_pix");
    const r = await simulate(m, p.transactionId, "refunded");
    assert.deepEqual(r.body, { id: p.transactionId, status: "refunded", eventsFired: ["payment.refunded"] });
    const t = await getPayment(m, p.transactionId);
    assert.equal(t.status, "refunded");
    assert.equal(t.refundedAmountLocal, t.amountLocal);
    const rows = await eventsAbout(m.merchantId, p.transactionId);
    assert.deepEqual(sortedTypes(rows), ["payment.captured", "payment.completed", "payment.refunded"]);
    const refunded = rows.find((e) => e.type === "payment.refunded")!;
    assertEventShape(refunded);
    assert.deepEqual((refunded.payload as any).data.object, t);
    const b = await balance(m);
    assert.deepEqual(b.ledgerWarnings, []);
    assert.equal(b.balance.pending, 0, "the refunded amount left this payment's pending net");
    assert.equal(b.balance.frozen, 0);
  });

  test("chargeback: completed stays completed, chargeback.created + claim.opened carrying the claim", async () => {
    const m = await newMerchant();
    const p = await paidPayment(m, "sbx_card", { amount: 40 });
    const r = await simulate(m, p.transactionId, "chargeback");
    assert.deepEqual(r.body, { id: p.transactionId, status: "completed", eventsFired: ["chargeback.created", "claim.opened"] });
    assert.equal((await getPayment(m, p.transactionId)).status, "completed");

    const all = await events(m.merchantId);
    const claimEvents = all.filter((e) => e.type === "chargeback.created" || e.type === "claim.opened");
    assert.deepEqual(sortedTypes(claimEvents), ["chargeback.created", "claim.opened"]);
    const claimId = (claimEvents[0]!.payload as any).data.object.id;
    assert.match(claimId, /^CLM-/);
    const claim = await api(`/claims/${claimId}`, { key: sk(m) });
    assert.equal(claim.status, 200);
    assert.equal(claim.body.claim.kind, "chargeback");
    assert.equal(claim.body.claim.status, "open");
    assert.equal(claim.body.claim.transactionId, p.transactionId);
    assert.equal(claim.body.claim.amount, 40);
    assert.equal(claim.body.claim.amountUsd, 40);
    for (const e of claimEvents) {
      assertEventShape(e);
      assert.deepEqual((e.payload as any).data.object, claim.body.claim, "data.object is the claim as GET /claims returns it");
    }
    // The disputed amount is frozen against the open claim.
    const b = await balance(m);
    assert.equal(b.balance.frozen, 40);
    assert.deepEqual(b.ledgerWarnings, []);
    // A full refund must wait for the open claim.
    assertEnvelope(await simulate(m, p.transactionId, "refunded"), "invalid_request", 400);
  });

  test("five concurrent paid simulations: one completion, one ledger posting, events once", async () => {
    const m = await newMerchant();
    const p = await newPayment(m, "sbx_card", { amount: 100 });
    const results = await Promise.all(Array.from({ length: 5 }, () => simulate(m, p.transactionId, "paid")));
    for (const r of results) assert.ok(r.status === 200 || r.body?.error?.code === "invalid_request", r.text);
    assert.equal(results.filter((r) => r.body.eventsFired?.length).length, 1, "exactly one call fired the events");
    assert.deepEqual(sortedTypes(await events(m.merchantId)), ["payment.captured", "payment.completed"]);
    const b = await balance(m);
    assertBuckets(b.balance, { available: 0, pending: expectedPricing(100, "premium", await catalogFee(m, "sbx_card")).pending, reserve: 0, frozen: 0 });
    assert.deepEqual(b.ledgerWarnings, []);
  });

  test("actions the status does not allow: 400 invalid_request, no change, no event", async () => {
    const m = await newMerchant();
    const pending = await newPayment(m);
    const completed = await paidPayment(m);
    const failed = await newPayment(m);
    await simulate(m, failed.transactionId, "failed");
    const before = (await events(m.merchantId)).length;
    const cases: Array<[any, string, string]> = [
      [completed, "paid", "completed"],
      [completed, "failed", "completed"],
      [completed, "expired", "completed"],
      [pending, "refunded", "pending"],
      [pending, "chargeback", "pending"],
      [failed, "paid", "failed"],
      [failed, "expired", "failed"],
      [failed, "refunded", "failed"],
    ];
    for (const [p, action, status] of cases) {
      const r = await simulate(m, p.transactionId, action);
      assertEnvelope(r, "invalid_request", 400);
      assert.equal(r.body.error.details.status, status, `${action} on ${status}`);
      assert.equal((await getPayment(m, p.transactionId)).status, status);
    }
    assert.equal((await events(m.merchantId)).length, before);
  });

  test("bad action: 400; production key: 400 production_key_refused; unknown or another merchant's id: 404", async () => {
    const m = await newMerchant();
    const other = await newMerchant();
    const p = await newPayment(m);
    const bad = await simulate(m, p.transactionId, "capture");
    assertEnvelope(bad, "invalid_request", 400);
    assert.equal(bad.body.error.param, "action");
    const none = await api(`/payments/${p.transactionId}/simulate`, { key: sk(m), body: {} });
    assertEnvelope(none, "missing_field", 400);
    assert.equal(none.body.error.param, "action");
    assertEnvelope(await api(`/payments/${p.transactionId}/simulate`, { key: m.production.secretKey, body: { action: "paid" } }), "production_key_refused", 400);
    assertEnvelope(await simulate(m, "tx_000000000000000000000000", "paid"), "transaction_not_found", 404);
    assertEnvelope(await simulate(other, p.transactionId, "paid"), "transaction_not_found", 404);
    assertEnvelope(await api(`/payments/${p.transactionId}/simulate`, { key: m.sandbox.publishableKey, body: { action: "paid" } }), "key_kind_not_allowed", 403);
    assert.equal((await getPayment(m, p.transactionId)).status, "pending");
    assert.deepEqual(await events(m.merchantId), []);
  });
});

describe("Sandbox-Simulate header (delays × SANDBOX_DELAY_SCALE)", () => {
  const outcome = async (value: string, rail: SandboxRail = "sbx_card") => {
    const m = await newMerchant();
    const p = await newPayment(m, rail, {}, { "sandbox-simulate": value });
    assert.equal(p.status, "pending", "the create answer is always pending");
    return { m, p };
  };

  test("paid: completed after the scaled 5 s, with payment.completed", async () => {
    const { m, p } = await outcome("paid", "sbx_pix");
    const t = await waitForStatus(m, p.transactionId, "completed");
    assert.ok(Date.parse(t.timestamps.completed) - Date.parse(t.timestamps.created) >= 50, "not before its delay");
    await waitFor(async () => (await eventsAbout(m.merchantId, p.transactionId)).some((e) => e.type === "payment.completed"), "payment.completed");
  });

  test("failed: failed, with payment.failed", async () => {
    const { m, p } = await outcome("failed");
    await waitForStatus(m, p.transactionId, "failed");
    assert.deepEqual(sortedTypes(await eventsAbout(m.merchantId, p.transactionId)), ["payment.failed"]);
  });

  test("expired: expired, with payment.failed", async () => {
    const { m, p } = await outcome("expired", "sbx_spei");
    await waitForStatus(m, p.transactionId, "expired");
    assert.deepEqual(sortedTypes(await eventsAbout(m.merchantId, p.transactionId)), ["payment.failed"]);
  });

  // Five payments, because the failure depends on which of the two due actions the job runner
  // happens to take first.
  test(
    "chargeback: paid, then a chargeback claim opens; the payment stays completed",
    async () => {
      const m = await newMerchant();
      const ps = [];
      for (let i = 0; i < 5; i++) ps.push(await newPayment(m, "sbx_card", {}, { "sandbox-simulate": "chargeback" }));
      await settleAll(ps.map((p) => waitForStatus(m, p.transactionId, "completed")));
      await settleAll(
        ps.map(async (p) => {
          const opened = await waitFor(
            async () => (await events(m.merchantId)).find((e) => e.type === "chargeback.created" && (e.payload as any).data.object.transactionId === p.transactionId),
            `chargeback.created for ${p.transactionId}`,
            3_000,
          );
          const claim = (opened.payload as any).data.object;
          assert.equal(claim.kind, "chargeback");
          assert.equal(claim.status, "open");
          assert.equal(claim.amount, p.amountLocal);
          assert.ok((await events(m.merchantId)).some((e) => e.type === "claim.opened" && (e.payload as any).data.object.id === claim.id));
          assert.equal((await getPayment(m, p.transactionId)).status, "completed");
        }),
      );
    },
  );

  test("slow_payment: completed, not before 60 s × scale (600 ms)", async () => {
    const { m, p } = await outcome("slow_payment");
    const t = await waitForStatus(m, p.transactionId, "completed");
    const took = Date.parse(t.timestamps.completed) - Date.parse(t.timestamps.created);
    assert.ok(took >= 600, `completed ${took} ms after creation`);
  });

  test("without the header a sandbox payment stays pending (nothing is scheduled)", async () => {
    const m = await newMerchant();
    const p = await newPayment(m);
    // Another payment with a header, created after it, finishes: the ticker has run since.
    const q = await newPayment(m, "sbx_card", {}, { "sandbox-simulate": "paid" });
    await waitForStatus(m, q.transactionId, "completed");
    assert.equal((await getPayment(m, p.transactionId)).status, "pending");
  });
});
