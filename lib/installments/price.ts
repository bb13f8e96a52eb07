// The price of an installment plan, in integer minor units of the rail's currency (no floats on
// money). The rounding rule (docs/integrators/installments.md):
// - shop-paid ("sem juros", "meses sin intereses"): the buyer pays the price; each installment is
//   the price divided by the count rounded down to the minor unit, and the LAST installment takes
//   the remainder, so the installments sum to the price exactly. The financing fee is the price
//   times the count's fee (basis points), rounded half-up.
// - buyer-paid ("com juros"): each installment is the Price-table (French amortisation) amount
//   P·i·(1+i)^n / ((1+i)^n − 1) for the monthly rate i, computed exactly as a fraction of
//   integers and rounded half-up once; the total is n times it (every installment equal, the
//   last included). The financing fee is what the buyer pays above the price.
// The CET (Custo Efetivo Total) is the annualised internal rate of the buyer's cash flows: the
// monthly rate m at which the installments are worth the price today, (1+m)^12 − 1. It is a
// rate, not money, so it is found by bisection on doubles and shown to two decimals.
import type { InstallmentPlan, PaidBy } from "@/lib/installments/defaults";

export type InstallmentQuote = {
  count: number;
  /** Each installment but the last. */
  amount: bigint;
  /** The last installment (equal to `amount` unless the rounding remainder falls on it). */
  lastAmount: bigint;
  /** What the buyer pays in all. */
  total: bigint;
  /** Shop-paid: the shop's fee; buyer-paid: the interest the buyer pays. */
  financingFee: bigint;
  paidBy: PaidBy;
  /** Basis points: the shop's fee of the price, or the buyer's monthly interest. */
  rateBp: number;
  /** Annual effective cost to the buyer in percent, two decimals ("26.82"); "0.00" when the shop pays. */
  cet: string;
};

const BP = 10_000n;

const divHalfUp = (num: bigint, den: bigint) => (2n * num + den) / (2n * den);

/** The Price-table installment for `price` over `count` months at `rateBp` a month (half-up). */
export function priceTableInstallment(price: bigint, count: number, rateBp: number): bigint {
  if (rateBp === 0) return divHalfUp(price, BigInt(count));
  const i = BigInt(rateBp);
  const grown = (BP + i) ** BigInt(count);
  const base = BP ** BigInt(count);
  return divHalfUp(price * i * grown, BP * (grown - base));
}

/** Monthly internal rate of paying `installments` (one a month, from the first month) for `price`. */
export function monthlyInternalRate(price: bigint, installments: bigint[]): number {
  const p = Number(price);
  const worth = (m: number) => installments.reduce((s, a, k) => s + Number(a) / (1 + m) ** (k + 1), 0);
  if (worth(0) <= p) return 0;
  let lo = 0;
  let hi = 1;
  for (let step = 0; step < 200 && hi - lo > 1e-15; step++) {
    const mid = (lo + hi) / 2;
    if (worth(mid) > p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** CET in percent, two decimals, from the monthly internal rate. */
export function annualCet(price: bigint, installments: bigint[]): string {
  const m = monthlyInternalRate(price, installments);
  return (((1 + m) ** 12 - 1) * 100).toFixed(2);
}

/** The installments a quote consists of, in order. */
export function scheduleOf(q: Pick<InstallmentQuote, "count" | "amount" | "lastAmount">): bigint[] {
  return [...Array.from({ length: q.count - 1 }, () => q.amount), q.lastAmount];
}

/** The quote of `count` installments of `price` under `plan` (count 1: paid at once). */
export function quoteInstallments(price: bigint, count: number, plan: Pick<InstallmentPlan, "paidBy" | "rates">): InstallmentQuote {
  const rateBp = count === 1 ? 0 : (plan.rates[count] ?? 0);
  if (plan.paidBy === "merchant" || count === 1) {
    const amount = price / BigInt(count);
    const lastAmount = price - amount * BigInt(count - 1);
    const financingFee = divHalfUp(price * BigInt(rateBp), BP);
    return { count, amount, lastAmount, total: price, financingFee: count === 1 ? 0n : financingFee, paidBy: plan.paidBy, rateBp, cet: "0.00" };
  }
  const amount = priceTableInstallment(price, count, rateBp);
  const total = amount * BigInt(count);
  const quote = { count, amount, lastAmount: amount, total, financingFee: total - price, paidBy: plan.paidBy, rateBp, cet: "0.00" };
  return { ...quote, cet: annualCet(price, scheduleOf(quote)) };
}

/** The counts of `plan` whose installments are at least its minimum for `price`. */
export function countsFor(price: bigint, plan: InstallmentPlan): number[] {
  return plan.counts.filter((n) => quoteInstallments(price, n, plan).amount >= plan.minInstallment);
}
