// Operator and dashboard action: a shop's installment plan on one card rail. What is not given
// keeps the current plan's value (or the default's); `reset` goes back to the default plan.
// Counts outside the country's (Brazil 2-12; Mexico 3, 6, 9, 12, 18) are refused, and every
// offered count has a rate: the default's fee when the shop pays, the country's default monthly
// rate when the buyer does.
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { decimalToMinor, toMajor } from "@/lib/money/amount";
import { railById } from "@/lib/rails/rails";
import { defaultPlan, installmentRules, PAID_BY, type InstallmentPlan, type PaidBy } from "@/lib/installments/defaults";
import { shopPlan } from "@/lib/installments/shop-plan";

export type PlanChange = {
  counts?: number[];
  /** Major units of the rail's currency, an exact decimal ("5.00"). */
  minInstallment?: string;
  paidBy?: PaidBy;
  /** Basis points per count (the shop's fee, or the buyer's monthly rate). */
  rates?: Record<number, number>;
  reset?: boolean;
};

export async function setInstallmentPlan(shopId: string, paymentMethodId: string, change: PlanChange) {
  const rail = railById(paymentMethodId);
  const rules = rail ? installmentRules(rail) : null;
  if (!rail || !rules) throw new AppError("installments_unavailable", `Payment method ${paymentMethodId} takes no installments (card rails of Brazil and Mexico do).`, { param: "paymentMethodId", details: { allowed: [1] } });
  const shop = await db().shop.findUnique({ where: { id: shopId }, select: { id: true, merchantId: true } });
  if (!shop) throw new AppError("shop_not_found", `No shop ${shopId}.`, { param: "shopId" });
  if (change.reset) {
    await db().installmentPlan.deleteMany({ where: { shopId, paymentMethodId } });
    return describe(shopId, rail.paymentMethodId, defaultPlan(rail)!, rail.currency);
  }
  const current = (await shopPlan(shopId, rail))!;
  const counts = [...new Set(change.counts ?? current.counts)].sort((a, b) => a - b);
  const outside = counts.filter((n) => !rules.allowed.includes(n));
  if (outside.length || counts.length === 0) throw new AppError("invalid_request", `${rail.name} offers ${rules.allowed.join(", ")} installments; not ${outside.join(", ") || "none"}.`, { param: "counts", details: { allowed: rules.allowed } });
  const paidBy = change.paidBy ?? current.paidBy;
  if (!PAID_BY.includes(paidBy)) throw new AppError("invalid_request", "paidBy is merchant or buyer.", { param: "paidBy" });
  const minInstallment = change.minInstallment !== undefined ? minorOf(change.minInstallment, rail.currency) : current.minInstallment;
  const base = paidBy === current.paidBy ? current.rates : paidBy === "merchant" ? rules.plan.rates : {};
  const rates: Record<number, number> = {};
  for (const n of counts) {
    const bp = change.rates?.[n] ?? base[n] ?? (paidBy === "buyer" ? rules.buyerRateBp : (rules.plan.rates[n] ?? 0));
    if (!Number.isInteger(bp) || bp < 0 || bp > 5_000) throw new AppError("invalid_request", `The rate of ${n} installments must be 0 to 5000 basis points.`, { param: "rates" });
    rates[n] = bp;
  }
  const plan: InstallmentPlan = { counts, minInstallment, paidBy, rates };
  const data = { counts, minInstallment, paidBy, rates, merchantId: shop.merchantId };
  await db().installmentPlan.upsert({ where: { shopId_paymentMethodId: { shopId, paymentMethodId } }, create: { shopId, paymentMethodId, ...data }, update: data });
  return describe(shopId, paymentMethodId, plan, rail.currency);
}

function minorOf(decimal: string, currency: string): bigint {
  let minor: bigint;
  try {
    minor = decimalToMinor(decimal, currency);
  } catch {
    throw new AppError("invalid_request", `minInstallment must be an amount of ${currency}.`, { param: "minInstallment" });
  }
  if (minor <= 0n) throw new AppError("invalid_request", "minInstallment must be above zero.", { param: "minInstallment" });
  return minor;
}

function describe(shopId: string, paymentMethodId: string, plan: InstallmentPlan, currency: string) {
  return { shopId, paymentMethodId, counts: plan.counts, minInstallment: toMajor(plan.minInstallment, currency), currency, paidBy: plan.paidBy, rates: plan.rates };
}
