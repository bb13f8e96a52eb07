import { test } from "node:test";
import assert from "node:assert/strict";
import { paymentTimeline, type TimelineEvent } from "@/lib/dashboard/payment-timeline";

let clock = Date.parse("2026-12-01T12:00:00Z");
const tx = (status: string, refunded = 0, extra: object = {}) => ({ id: "tx_1", status, amountLocal: 100, currencyLocal: "BRL", refundedAmountLocal: refunded, ...extra });
const claim = (id: string, kind: string, status: string, amount: number) => ({ id, kind, status, amount, currency: "BRL" });
function ev(type: string, object: object, previousStatus: string | null = null): TimelineEvent {
  clock += 1_000;
  return { id: `evt_${clock}`, type, createdAt: new Date(clock), payload: { data: { object, previousStatus } } };
}

test("a completion and its captured alias are one line, with the amount paid", () => {
  const lines = paymentTimeline([ev("payment.completed", tx("completed")), ev("payment.captured", tx("completed"))]);
  assert.equal(lines.length, 1);
  assert.deepEqual(lines[0]!.happened, { what: "paid", amount: { amount: 100, currency: "BRL" } });
  assert.deepEqual(lines[0]!.types, ["payment.completed", "payment.captured"]);
});

test("a chargeback's chargeback.created and claim.opened are one line", () => {
  const cb = claim("CLM-1", "chargeback", "open", 70);
  const lines = paymentTimeline([ev("chargeback.created", cb), ev("claim.opened", cb)]);
  assert.equal(lines.length, 1);
  assert.deepEqual(lines[0]!.happened, { what: "chargeback_opened", amount: { amount: 70, currency: "BRL" } });
  assert.deepEqual(lines[0]!.types, ["chargeback.created", "claim.opened"]);
});

test("a partial refund says how much of how much, in one line with its claim's resolution (either order)", () => {
  for (const order of ["refund first", "claim first"]) {
    const refunded = ev("payment.refunded", tx("completed", 30));
    const resolved = ev("claim.resolved", claim("CLM-2", "user_dispute", "resolved", 30));
    const lines = paymentTimeline([ev("payment.completed", tx("completed")), ...(order === "refund first" ? [refunded, resolved] : [resolved, refunded])]);
    assert.equal(lines.length, 2, order);
    assert.deepEqual(lines[1]!.happened, { what: "refunded", amount: { amount: 30, currency: "BRL" }, of: { amount: 100, currency: "BRL" }, full: false });
    assert.deepEqual([...lines[1]!.types].sort(), ["claim.resolved", "payment.refunded"]);
  }
});

test("a second refund counts only what it added, and says when the payment is refunded in full", () => {
  const lines = paymentTimeline([ev("payment.refunded", tx("completed", 30)), ev("payment.refunded", tx("refunded", 100))]);
  assert.deepEqual(
    lines.map((l) => l.happened),
    [
      { what: "refunded", amount: { amount: 30, currency: "BRL" }, of: { amount: 100, currency: "BRL" }, full: false },
      { what: "refunded", amount: { amount: 70, currency: "BRL" }, of: { amount: 100, currency: "BRL" }, full: true },
    ],
  );
});

test("decided chargebacks, refused refunds, failures and expiries each read as what they are", () => {
  const lines = paymentTimeline([
    ev("payment.failed", tx("expired")),
    ev("payment.completed", tx("completed", 0, { lateCompletion: true }), "expired"),
    ev("claim.resolved", claim("CLM-3", "user_dispute", "rejected", 20)),
    ev("claim.resolved", claim("CLM-4", "chargeback", "lost", 100)),
    ev("settlement.closed", { id: "stl_1" }),
  ]);
  assert.deepEqual(
    lines.map((l) => l.happened.what),
    ["expired", "paid", "refund_refused", "chargeback_lost", "other"],
  );
  assert.equal((lines[1]!.happened as { after?: string }).after, "expired");
});
