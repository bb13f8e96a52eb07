import { test } from "node:test";
import assert from "node:assert/strict";
import * as r from "@/lib/ledger/recipes";
import { balancedLegs, negativeAfter, UnbalancedPostingError, type Leg } from "@/lib/ledger/post";

const t = { id: "tx_1", amountUsd: 10_000n, feePlatform: 320n, feeProvider: 290n, feeNetwork: 10n, reserveAmount: 469n, pendingDebited: 1_000n };
const claim = { id: "CLM-1", transactionId: "tx_1", amountUsd: 2_500n, frozenFromPending: 1_000n };
const payout = { currency: "MXN", amount: 50_000n };
const send = { amountUsd: 9_000n, feeUsd: 100n };
const sum = (legs: Leg[], account: string) => legs.filter((l) => l.account === account).reduce((s, l) => s + l.amount, 0n);

test("every recipe balances per currency", () => {
  const all: r.Posting[] = [
    r.paymentCompleted(t),
    r.depositCredited(t),
    r.settlement(t),
    r.reserveRelease(t),
    r.freeze("refund_freeze", claim, { fromPending: 1_000n, fromAvailable: 1_500n }),
    r.freezeRelease("refund_rejected", claim, 1_000n),
    r.freezeRelease("chargeback_won", claim, 0n),
    r.refundResolved(claim),
    r.refundImmediate(claim, { fromPending: 0n, fromAvailable: 2_500n }),
    r.chargebackLost(claim, 1_500n),
    r.payoutTransfer(7_000n),
    r.payoutSwap({ amountUsd: 10_000n, feeUsd: 50n, toCurrency: "MXN", amountLocal: 181_000n }),
    r.sandboxFunding("BRL", 99n),
    r.payoutDebit(payout),
    r.payoutCompleted(payout),
    r.payoutReversed(payout),
    r.payoutReturn(payout),
    r.settlementClosed(send),
    r.settlementPaid(send),
    r.settlementFailed(send),
    r.withdrawalRequested(send),
    r.withdrawalCompleted(send),
    r.withdrawalFailed(send),
    r.topupCredited(5_000n),
  ];
  for (const p of all) assert.doesNotThrow(() => balancedLegs(p.kind, p.legs), p.kind);
});

test("completion: net to pending, reserve held, the flat fee apart; settlement moves what pending still holds of it", () => {
  const c = r.paymentCompleted(t);
  assert.equal(sum(c.legs, "pending"), 10_000n - 320n - 290n - 10n - 469n);
  assert.equal(sum(c.legs, "reserve"), 469n);
  assert.equal(sum(c.legs, "flat_fees"), 30n);
  assert.equal(sum(c.legs, "platform_fees"), 290n);
  assert.equal(r.depositCredited(t).kind, "deposit_credited");
  assert.equal(sum(r.settlement(t).legs, "available"), r.netOf(t) - 1_000n);
});

test("a released freeze goes back to the buckets it came from", () => {
  const back = r.freezeRelease("chargeback_won", claim, 1_000n);
  assert.equal(sum(back.legs, "frozen"), -2_500n);
  assert.equal(sum(back.legs, "pending"), 1_000n);
  assert.equal(sum(back.legs, "available"), 1_500n);
});

test("a returned payout comes back from payouts_sent to the available payout balance", () => {
  const p = r.payoutReturn(payout);
  assert.equal(p.kind, "payout_returned");
  assert.equal(sum(p.legs, "payouts_sent"), -50_000n);
  assert.equal(sum(p.legs, "payout_available"), 50_000n);
});

test("the cheap checks: unbalanced legs are refused; a decrease that leaves a guarded account negative is found", () => {
  assert.throws(() => balancedLegs("adjustment", [{ account: "available", currency: "USD", amount: 1n }]), UnbalancedPostingError);
  const legs: Leg[] = [{ account: "pending", currency: "USD", amount: -5n }, { account: "available", currency: "USD", amount: 5n }];
  assert.match(negativeAfter(legs, [{ account: "pending", currency: "USD", balance: -1n }, { account: "available", currency: "USD", balance: 3n }])!, /pending/);
  assert.equal(negativeAfter(legs, [{ account: "pending", currency: "USD", balance: 0n }]), null);
  // `available` may go negative (a lost chargeback's fee).
  assert.equal(negativeAfter([{ account: "available", currency: "USD", amount: -5n }, { account: "chargeback_fees", currency: "USD", amount: 5n }], [{ account: "available", currency: "USD", balance: -5n }]), null);
});

test("crypto out: amount and fee held in transit, then sent (fee earned) or all of it back to available", () => {
  for (const [held, sent, back] of [[r.settlementClosed, r.settlementPaid, r.settlementFailed], [r.withdrawalRequested, r.withdrawalCompleted, r.withdrawalFailed]] as const) {
    assert.equal(sum(held(send).legs, "available"), -9_100n);
    assert.equal(sum(held(send).legs, "in_transit"), 9_100n);
    assert.equal(sum(sent(send).legs, "in_transit"), -9_100n);
    assert.equal(sum(sent(send).legs, "crypto_sent"), 9_000n);
    assert.equal(sum(sent(send).legs, "withdrawal_fees"), 100n);
    assert.equal(sum(back(send).legs, "available"), 9_100n);
  }
  assert.equal(sum(r.topupCredited(5_000n).legs, "payout_available"), 5_000n);
});
