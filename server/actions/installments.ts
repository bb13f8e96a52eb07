"use server";
// A shop's card installment plan from the Shops page: the operator CLI's use case
// (lib/installments/set-plan.ts), for a shop of the signed-in merchant and a card rail of the
// environment being viewed. Refusals name the form's field, in the words a shop owner reads.
import { AppError } from "@/lib/platform/errors";
import { withShopOf } from "@/lib/platform/auth/gate";
import { dashboardAction } from "@/server/dashboard-action";
import { setInstallmentPlan, type PlanChange } from "@/lib/installments/set-plan";
import { planRailIn } from "@/lib/dashboard/installment-plans";
import { PAID_BY, type PaidBy } from "@/lib/installments/defaults";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import type { Rail } from "@/lib/rails/rails";

type PlanForm = { counts: string[]; minInstallment: string; paidBy: string };

export const setInstallmentPlanAction = dashboardAction(
  "manageInstallments",
  { args: (shopId: string, paymentMethodId: string, form: PlanForm) => ({ shopId, paymentMethodId, input: form }), input: planChange },
  async ({ ctx, shopId, paymentMethodId, input }) => {
    const { shop, rail } = await scoped(ctx, shopId, paymentMethodId);
    return inPlainWords(rail, () => setInstallmentPlan(shop, rail.paymentMethodId, input));
  },
);

export const resetInstallmentPlanAction = dashboardAction(
  "manageInstallments",
  // The form key is taken (ActionForm sends one) and not needed: going back to the default twice is going back once.
  { args: (shopId: string, paymentMethodId: string, formKey?: string) => ({ shopId, paymentMethodId, formKey }) },
  async ({ ctx, shopId, paymentMethodId }) => {
    const { shop, rail } = await scoped(ctx, shopId, paymentMethodId);
    return setInstallmentPlan(shop, rail.paymentMethodId, { reset: true });
  },
);

/** The shop only if it is the signed-in merchant's (another merchant's id reads as no shop), and the rail only if it is of this environment. */
async function scoped(ctx: AuthContext, shopId: string, paymentMethodId: string) {
  const rail = planRailIn(paymentMethodId, ctx.environment);
  const shop = (await withShopOf(ctx, shopId)).shop!.id;
  return { shop, rail };
}

/** The form's strings as the use case's change; what cannot be an amount or a count is refused at its field. */
function planChange(form: PlanForm): PlanChange {
  const counts = (form.counts ?? []).map(Number);
  if (counts.length === 0) throw new AppError("invalid_request", "Choose at least one number of installments.", { param: "counts" });
  if (!PAID_BY.includes(form.paidBy as PaidBy)) throw new AppError("invalid_request", "Choose who pays the financing: the shop or the buyer.", { param: "paidBy" });
  // People write "10,00" as often as "10.00": either is the same amount.
  const min = String(form.minInstallment ?? "").trim().replace(/^(\d+),(\d{1,2})$/, "$1.$2");
  if (!min) throw new AppError("invalid_request", "Enter the minimum per installment.", { param: "minInstallment" });
  return { counts, minInstallment: min, paidBy: form.paidBy as PaidBy };
}

/** setInstallmentPlan's refusals are written for operators; the form shows them as a shop owner would say them. */
async function inPlainWords<T>(rail: Rail, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.param === "minInstallment") {
      const example = rail.currency === "MXN" ? "100.00" : "5.00";
      throw new AppError(err.code, `Enter the minimum per installment as an amount in ${rail.currency} above zero, with at most two decimals (for example ${example}).`, { param: "minInstallment" });
    }
    if (err.param === "counts") throw new AppError(err.code, `${rail.name} can offer ${(err.details?.allowed as number[] | undefined)?.join(", ") ?? "other"} installments; choose among those.`, { param: "counts" });
    throw err;
  }
}
