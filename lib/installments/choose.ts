// POST /payments' installment stage (called from lib/payments/create/price.ts): the count asked,
// checked against the shop's plan for the price the buyer pays, and the financing fee in USD
// that a shop-paid plan books (the local fee's share of the USD headline, half-up).
import { mulDivHalfUp } from "@/lib/money/amount";
import { shopPlan } from "@/lib/installments/shop-plan";
import { chooseInstallments } from "@/lib/installments/offer";
import type { InstallmentQuote } from "@/lib/installments/price";
import type { Rail } from "@/lib/rails/rails";

export type ChosenInstallments = { quote: InstallmentQuote | null; feeFinancingUsd: bigint };

export async function chooseForPayment(shopId: string, rail: Rail, local: bigint, usd: bigint, count: number | undefined): Promise<ChosenInstallments> {
  if (count === undefined || count === 1) return { quote: null, feeFinancingUsd: 0n };
  const quote = chooseInstallments(rail, await shopPlan(shopId, rail), local, count);
  const feeFinancingUsd = quote && quote.paidBy === "merchant" ? mulDivHalfUp(usd, quote.financingFee, local) : 0n;
  return { quote, feeFinancingUsd };
}
