// What a buyer may choose: the counts of a plan for one price, each with its installments, and
// the check of a chosen count (POST /payments, checkout sessions). A count the plan does not
// offer, or whose installment is below the plan's minimum, is 400 installments_unavailable with
// `details.allowed` (the counts that price can take; 1 is paying at once).
import { AppError } from "@/lib/platform/errors";
import { toMajor } from "@/lib/money/amount";
import { countsFor, quoteInstallments, type InstallmentQuote } from "@/lib/installments/price";
import type { InstallmentPlan } from "@/lib/installments/defaults";
import type { Rail } from "@/lib/rails/rails";

/** The counts open to `price`, at once first. */
export function allowedCounts(price: bigint, plan: InstallmentPlan | null): number[] {
  return [1, ...(plan ? countsFor(price, plan) : [])];
}

/** The quote of the chosen count, or the refusal. Count 1 or none: paid at once (null). */
export function chooseInstallments(rail: Rail, plan: InstallmentPlan | null, price: bigint, count: number | undefined): InstallmentQuote | null {
  if (count === undefined || count === 1) return null;
  const allowed = allowedCounts(price, plan);
  if (!plan || !allowed.includes(count)) {
    const why = !plan
      ? `${rail.name} takes no installments.`
      : !plan.counts.includes(count)
        ? `This shop's plan on ${rail.name} offers ${plan.counts.join(", ")} installments, not ${count}.`
        : `${count} installments of this amount would be below the plan's minimum of ${toMajor(plan.minInstallment, rail.currency)} ${rail.currency}.`;
    throw new AppError("installments_unavailable", why, { param: "installments", details: { allowed, minInstallment: plan ? toMajor(plan.minInstallment, rail.currency) : null, currency: rail.currency } });
  }
  return quoteInstallments(price, count, plan);
}

/** One choice as the API shows it (major units of the rail's currency). */
export function presentQuote(q: InstallmentQuote, currency: string) {
  return {
    count: q.count,
    amount: toMajor(q.amount, currency),
    lastAmount: toMajor(q.lastAmount, currency),
    total: toMajor(q.total, currency),
    financingFee: toMajor(q.financingFee, currency),
    paidBy: q.paidBy,
    ...(q.paidBy === "buyer" ? { monthlyRate: q.rateBp / 100, cet: Number(q.cet) } : {}),
  };
}

/** A rail's offer in the catalog: the plan, and with an `amount`, every count it allows priced. */
export function presentOffer(plan: InstallmentPlan, rail: Rail, price: bigint | null) {
  return {
    counts: plan.counts,
    minInstallment: toMajor(plan.minInstallment, rail.currency),
    currency: rail.currency,
    paidBy: plan.paidBy,
    ...(price !== null ? { options: countsFor(price, plan).map((n) => presentQuote(quoteInstallments(price, n, plan), rail.currency)) } : {}),
  };
}
