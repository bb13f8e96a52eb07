// The plan a shop offers on a card rail: its own row, else the rail's default (defaults.ts);
// null for a rail without installments.
import { db, type Tx } from "@/lib/platform/db";
import { defaultPlan, type InstallmentPlan, type PaidBy } from "@/lib/installments/defaults";
import type { Rail } from "@/lib/rails/rails";

type PlanRow = { counts: number[]; minInstallment: bigint; paidBy: string; rates: unknown };

export function planFromRow(row: PlanRow): InstallmentPlan {
  const rates = Object.fromEntries(Object.entries(row.rates as Record<string, number>).map(([n, bp]) => [Number(n), bp]));
  return { counts: [...row.counts].sort((a, b) => a - b), minInstallment: row.minInstallment, paidBy: row.paidBy as PaidBy, rates };
}

/** The shop's plan on `rail` (scoped by the shop, whose rails are of one environment by id); `client`: a transaction's, to read it there. */
export async function shopPlan(shopId: string, rail: Rail, client: Tx = db()): Promise<InstallmentPlan | null> {
  const fallback = defaultPlan(rail);
  if (!fallback) return null;
  const row = await client.installmentPlan.findUnique({ where: { shopId_paymentMethodId: { shopId, paymentMethodId: rail.paymentMethodId } } });
  return row ? planFromRow(row) : fallback;
}

/** Every plan row of a shop, by payment method id (the catalog reads them once per listing). */
export async function shopPlanRows(shopId: string): Promise<Map<string, InstallmentPlan>> {
  const rows = await db().installmentPlan.findMany({ where: { shopId } });
  return new Map(rows.map((r) => [r.paymentMethodId, planFromRow(r)]));
}
