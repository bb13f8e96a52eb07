// Installment plans (issue 42, decisions.md "Installments"): which card rails offer them, the
// counts each country's acquirers allow, and the plan a shop has until it sets its own.
// Brazil (parcelamento): 2 to 12 installments, R$ 5.00 the smallest, shop-paid ("sem juros") at
// the simulated acquirer's fee per count. Mexico (meses sin intereses): 3, 6, 9, 12 (18 may be
// offered) months, MX$ 100.00 the smallest (so 3 MSI from MX$ 300, 12 MSI from MX$ 1,200: the
// minimum ticket per count Mexican banks set), shop-paid at the simulated acquirer's table.
import type { Rail } from "@/lib/rails/rails";

export const PAID_BY = ["merchant", "buyer"] as const;
export type PaidBy = (typeof PAID_BY)[number];

/**
 * A plan: `rates` maps each offered count to basis points, the shop's fee of the price when
 * `paidBy` is merchant, the buyer's monthly interest rate when buyer. Count 1 (paid at once) is
 * always allowed and never in `counts`.
 */
export type InstallmentPlan = {
  counts: number[];
  minInstallment: bigint;
  paidBy: PaidBy;
  rates: Record<number, number>;
};

type CountryRules = { allowed: readonly number[]; plan: InstallmentPlan; buyerRateBp: number };

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

const COUNTRY_RULES: Record<string, CountryRules> = {
  BRA: {
    allowed: range(2, 12),
    // The simulated acquirer's advance fee: 2.49% for 2x, one point more per installment.
    plan: { counts: range(2, 12), minInstallment: 500n, paidBy: "merchant", rates: Object.fromEntries(range(2, 12).map((n) => [n, 249 + (n - 2) * 100])) },
    // "Com juros": 1.99% a month when a shop passes the financing to the buyer without a rate.
    buyerRateBp: 199,
  },
  MEX: {
    allowed: [3, 6, 9, 12, 18],
    plan: { counts: [3, 6, 9, 12], minInstallment: 10_000n, paidBy: "merchant", rates: { 3: 450, 6: 750, 9: 1050, 12: 1350, 18: 1950 } },
    buyerRateBp: 150,
  },
};

/** The installment rules of a rail: card rails of Brazil and Mexico only; null for every other. */
export function installmentRules(rail: Rail): CountryRules | null {
  if (rail.method !== "card" || rail.currency === "USD") return null;
  return COUNTRY_RULES[rail.countryIso3] ?? null;
}

export function defaultPlan(rail: Rail): InstallmentPlan | null {
  const rules = installmentRules(rail);
  return rules ? { ...rules.plan, counts: [...rules.plan.counts], rates: { ...rules.plan.rates } } : null;
}
