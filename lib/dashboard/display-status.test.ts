import { test } from "node:test";
import assert from "node:assert/strict";
import { hasOpenChargeback, paymentDisplayStatus } from "@/lib/dashboard/display-status";

test("every status but completed stays as the API says it", () => {
  for (const s of ["pending", "failed", "expired", "refunded", "chargeback"]) assert.equal(paymentDisplayStatus({ status: s, refundedAmountLocal: 5 }, [{ kind: "chargeback", status: "open" }]), s);
});

test("a completed payment with refunds reads partially refunded", () => {
  assert.equal(paymentDisplayStatus({ status: "completed", refundedAmountLocal: 0 }), "completed");
  assert.equal(paymentDisplayStatus({ status: "completed", refundedAmountLocal: 10 }), "partially_refunded");
});

test("a completed payment with an undecided chargeback reads disputed, before its refunds", () => {
  assert.equal(paymentDisplayStatus({ status: "completed", refundedAmountLocal: 10 }, [{ kind: "chargeback", status: "open" }]), "disputed");
  assert.equal(paymentDisplayStatus({ status: "completed" }, [{ kind: "chargeback", status: "won" }]), "completed");
  assert.equal(paymentDisplayStatus({ status: "completed" }, [{ kind: "user_dispute", status: "pending" }]), "completed");
});

test("an open chargeback is one not decided yet", () => {
  assert.equal(hasOpenChargeback([{ kind: "user_dispute", status: "pending" }, { kind: "chargeback", status: "lost" }]), false);
  assert.equal(hasOpenChargeback([{ kind: "chargeback", status: "pending" }]), true);
});
