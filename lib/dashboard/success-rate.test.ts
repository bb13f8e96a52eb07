import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { addOutcomes, countOutcomes, outcomeOf, successRate } from "@/lib/dashboard/success-rate";
import { TRANSACTION_STATUSES } from "@/lib/payments/schema";

describe("overview success rate", () => {
  test("pending payments are left out of the rate and counted apart", () => {
    // The case: 1 completed, 1 failed, 3 pending is 50 % of 2, not 20 % of 5.
    const r = successRate(countOutcomes([
      { status: "completed", count: 1 },
      { status: "failed", count: 1 },
      { status: "pending", count: 3 },
    ]));
    assert.deepEqual(r, { succeeded: 1, failed: 1, pending: 3, finished: 2, rate: 50 });
  });

  test("only pending payments: no rate yet, never 0 %", () => {
    const r = successRate(countOutcomes([{ status: "pending", count: 10 }]));
    assert.equal(r.rate, null);
    assert.equal(r.finished, 0);
    assert.equal(r.pending, 10);
  });

  test("one completed among ten pending is 100 % of 1 (the old arithmetic said 9.1 % of 11)", () => {
    const r = successRate(countOutcomes([{ status: "completed", count: 1 }, { status: "pending", count: 10 }]));
    assert.equal(r.rate, 100);
    assert.equal(r.finished, 1);
  });

  test("expired counts against the rate; refunded and charged-back payments were paid", () => {
    assert.equal(outcomeOf("expired"), "failed");
    assert.equal(outcomeOf("refunded"), "succeeded");
    assert.equal(outcomeOf("chargeback"), "succeeded");
    const r = successRate(countOutcomes([
      { status: "completed", count: 2 },
      { status: "refunded", count: 1 },
      { status: "chargeback", count: 1 },
      { status: "expired", count: 3 },
      { status: "failed", count: 1 },
    ]));
    assert.deepEqual(r, { succeeded: 4, failed: 4, pending: 0, finished: 8, rate: 50 });
  });

  test("every status has an outcome, and only pending is pending", () => {
    for (const s of TRANSACTION_STATUSES) assert.equal(outcomeOf(s) === "pending", s === "pending", s);
  });

  test("one decimal, rounded half up", () => {
    assert.equal(successRate({ succeeded: 2, failed: 1, pending: 0 }).rate, 66.7);
    assert.equal(successRate({ succeeded: 1, failed: 2, pending: 0 }).rate, 33.3);
    assert.equal(successRate({ succeeded: 1, failed: 7, pending: 0 }).rate, 12.5);
  });

  test("days add up before the rate is taken (not an average of daily rates)", () => {
    const days = [
      { succeeded: 1, failed: 0, pending: 0 },
      { succeeded: 0, failed: 3, pending: 2 },
      { succeeded: 0, failed: 0, pending: 0 },
    ];
    assert.deepEqual(successRate(addOutcomes(days)), { succeeded: 1, failed: 3, pending: 2, finished: 4, rate: 25 });
  });
});
