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
  return { quote, feeFinancingUsd: quote ? financingFeeUsd(quote, usd, local) : 0n };
}

/** A shop-paid plan's fee in USD: the local fee's share of the USD headline, half-up; a buyer-paid plan books none. */
export function financingFeeUsd(quote: InstallmentQuote, usd: bigint, local: bigint): bigint {
  return quote.paidBy === "merchant" ? mulDivHalfUp(usd, quote.financingFee, local) : 0n;
}
