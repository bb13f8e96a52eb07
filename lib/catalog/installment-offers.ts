// The catalog's installment offers (GET /payment-methods): each card rail of Brazil and Mexico
// shows the shop's plan, and with `amount` (in the rail's own currency) every count open to it,
// priced as a payment of that amount would be.
import { z } from "zod";
import { toMinor } from "@/lib/money/amount";
import { railById } from "@/lib/rails/rails";
import { defaultPlan } from "@/lib/installments/defaults";
import { shopPlanRows } from "@/lib/installments/shop-plan";
import { presentOffer } from "@/lib/installments/offer";
import type { paymentMethodEntry } from "@/lib/catalog/schema";

type Entry = z.infer<typeof paymentMethodEntry>;

export async function withInstallmentOffers(shopId: string, methods: Entry[], amount: number | undefined): Promise<void> {
  const rails = methods.map((m) => railById(m.paymentMethodId)!).filter((r) => defaultPlan(r));
  if (rails.length === 0) return;
  const rows = await shopPlanRows(shopId);
  for (const m of methods) {
    const rail = railById(m.paymentMethodId)!;
    const plan = rows.get(rail.paymentMethodId) ?? defaultPlan(rail);
    if (!plan) continue;
    const price = amount !== undefined ? toMinor(amount, rail.currency) : null;
    m.installments = presentOffer(plan, rail, price !== null && price > 0n ? price : null);
  }
}
