import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { countsFor, priceTableInstallment, quoteInstallments, scheduleOf } from "@/lib/installments/price";
import { defaultPlan, installmentRules, type InstallmentPlan } from "@/lib/installments/defaults";
import { railById } from "@/lib/rails/rails";

const brPlan = defaultPlan(railById("1006")!)!;
const mxPlan = defaultPlan(railById("1007")!)!;
const sum = (xs: bigint[]) => xs.reduce((s, x) => s + x, 0n);

describe("shop-paid plans: the price split, the last installment takes the remainder", () => {
  test("R$ 150.00 in 12x is 12 installments of R$ 12.50; the fee is 12.49% half-up", () => {
    const q = quoteInstallments(15_000n, 12, brPlan);
    assert.deepEqual([q.amount, q.lastAmount, q.total, q.financingFee, q.cet], [1250n, 1250n, 15_000n, 1874n, "0.00"]);
  });
  test("R$ 100.00 in 3x is 33.33, 33.33, 33.34", () => {
    const q = quoteInstallments(10_000n, 3, brPlan);
    assert.deepEqual(scheduleOf(q), [3333n, 3333n, 3334n]);
    assert.equal(q.financingFee, 349n);
  });
  test("every count of every price sums to the price exactly", () => {
    for (const price of [500n, 999n, 10_001n, 123_457n]) {
      for (const n of [...brPlan.counts, ...mxPlan.counts]) {
        const q = quoteInstallments(price, n, n > 12 || n % 3 === 0 ? mxPlan : brPlan);
        assert.equal(sum(scheduleOf(q)), q.total, `${price} in ${n}`);
        assert.ok(q.lastAmount >= q.amount && q.lastAmount - q.amount < BigInt(n));
      }
    }
  });
  test("MX$ 1,500 in 3 MSI is 3 of MX$ 500.00, fee 4.5%", () => {
    const q = quoteInstallments(150_000n, 3, mxPlan);
    assert.deepEqual([q.amount, q.lastAmount, q.financingFee], [50_000n, 50_000n, 6750n]);
  });
});

describe("buyer-paid plans: Price table, CET", () => {
  const buyer: InstallmentPlan = { ...brPlan, paidBy: "buyer", rates: Object.fromEntries(brPlan.counts.map((n) => [n, 199])) };
  test("R$ 150.00 in 10x at 1.99% a month is 10 of R$ 16.69 (16.6902… half-up), total R$ 166.90", () => {
    const q = quoteInstallments(15_000n, 10, buyer);
    assert.deepEqual([q.amount, q.lastAmount, q.total, q.financingFee], [1669n, 1669n, 16_690n, 1690n]);
    assert.equal(q.cet, "26.67");
  });
  test("2x and 12x match the exact fraction", () => {
    assert.equal(priceTableInstallment(15_000n, 2, 199), 7725n);
    assert.equal(priceTableInstallment(15_000n, 12, 199), 1418n);
    assert.equal(quoteInstallments(15_000n, 12, buyer).cet, "26.76");
  });
  test("a zero rate is the price split, CET 0", () => {
    const q = quoteInstallments(10_000n, 4, { paidBy: "buyer", rates: { 4: 0 } });
    assert.deepEqual([q.amount, q.total, q.cet], [2500n, 10_000n, "0.00"]);
  });
});

describe("minimum installment and which rails offer plans", () => {
  test("R$ 30.00 offers up to 6x (R$ 5.00 each), not 7x", () => {
    assert.deepEqual(countsFor(3000n, brPlan), [2, 3, 4, 5, 6]);
  });
  test("MX$ 1,000 offers 3, 6 and 9 MSI, not 12 (MX$ 83.33 < MX$ 100)", () => {
    assert.deepEqual(countsFor(100_000n, mxPlan), [3, 6, 9]);
  });
  test("card rails of Brazil and Mexico only", () => {
    assert.ok(installmentRules(railById("sbx_br_card")!));
    assert.equal(installmentRules(railById("1001")!), null);
    assert.equal(installmentRules(railById("sbx_card")!), null);
  });
});
