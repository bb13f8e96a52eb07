// The dashboard's view of a shop's installment plans: one entry per card rail of Brazil and
// Mexico the shop can take in the environment being viewed, with the plan it offers now (its own
// or the default), the counts the country allows and what the default would be.
// In the sandbox only the test rails are shown: a plan is kept per shop and payment method, not
// per environment, so the production rails' plans (1006, 1007) are changed from the production view.
import { AppError } from "@/lib/platform/errors";
import { toMajor } from "@/lib/money/amount";
import { railById, type Rail } from "@/lib/rails/rails";
import { shopRails } from "@/lib/catalog/list-payment-methods";
import { defaultPlan, installmentRules, type InstallmentPlan } from "@/lib/installments/defaults";
import { shopPlanRows } from "@/lib/installments/shop-plan";
import type { Environment } from "@/lib/generated/prisma/enums";

export type RailPlanView = {
  paymentMethodId: string;
  railName: string;
  country: string;
  currency: string;
  /** The counts the country's acquirers allow (the form's checkboxes). */
  allowed: number[];
  /** Whether the shop has its own plan (false: the default applies). */
  own: boolean;
  plan: PlanView;
  defaults: PlanView;
};

export type PlanView = { counts: number[]; minInstallment: number; paidBy: InstallmentPlan["paidBy"]; rates: Record<number, number> };

function viewOf(plan: InstallmentPlan, currency: string): PlanView {
  return { counts: plan.counts, minInstallment: toMajor(plan.minInstallment, currency), paidBy: plan.paidBy, rates: plan.rates };
}

/** Whether `rail` is one whose plan the dashboard shows in `environment`. */
export function planRailOf(rail: Rail, environment: Environment): boolean {
  return Boolean(installmentRules(rail)) && Boolean(rail.sandbox) === (environment === "sandbox");
}

/** The card rail `paymentMethodId` as the dashboard may change it in `environment`, or the API's refusal. */
export function planRailIn(paymentMethodId: string, environment: Environment): Rail {
  const rail = railById(paymentMethodId);
  if (!rail || !planRailOf(rail, environment)) {
    throw new AppError("installments_unavailable", `Payment method ${paymentMethodId} takes no installments in the ${environment}.`, { param: "paymentMethodId" });
  }
  return rail;
}

export async function shopInstallmentPlans(shopId: string, environment: Environment): Promise<RailPlanView[]> {
  const rails = (await shopRails(shopId, environment)).filter(({ rail, enabled }) => enabled && planRailOf(rail, environment)).map(({ rail }) => rail);
  if (rails.length === 0) return [];
  const rows = await shopPlanRows(shopId);
  return rails.map((rail) => {
    const fallback = defaultPlan(rail)!;
    const own = rows.get(rail.paymentMethodId);
    return {
      paymentMethodId: rail.paymentMethodId,
      railName: rail.name,
      country: rail.countryIso2,
      currency: rail.currency,
      allowed: [...installmentRules(rail)!.allowed],
      own: Boolean(own),
      plan: viewOf(own ?? fallback, rail.currency),
      defaults: viewOf(fallback, rail.currency),
    };
  });
}
