// The plan a payment was paid on, once the provider says (issue 42 point 5). Where the buyer
// chooses the count on the provider's own page (Stripe Checkout's meses sin intereses, whose
// session takes no count: lib/providers/stripe/transformers.ts' installmentsOptions), the count
// we asked for is only what the buyer chose on our side; on completion the payment follows what
// the provider reports, priced by the same code as at creation (./price.ts), inside the
// completion's own transaction (lib/payments/transitions.ts' completePayment), so the row's
// `installments`, its `feeFinancing` and the ledger's financing_fees leg agree.
// - the count we asked: nothing changes (the quote priced at creation stands);
// - paid at once (1): no installments, no financing fee;
// - another count: quoted at the shop's plan as it is now (its paidBy, its fee for that count);
//   a count the plan does not offer (or below its minimum installment) is still what happened,
//   so it is booked too, at the plan's fee for that count if it has one, else the country's
//   default fee table (./defaults.ts, the simulated acquirer's fee per count); a count neither
//   prices books no financing fee, and says so in the log for an operator.
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Tx } from "@/lib/platform/db";
import { log } from "@/lib/platform/log";
import { railById } from "@/lib/rails/rails";
import { defaultPlan } from "@/lib/installments/defaults";
import { financingFeeUsd } from "@/lib/installments/choose";
import { quoteInstallments } from "@/lib/installments/price";
import { shopPlan } from "@/lib/installments/shop-plan";
import { quoteOf, storedQuote } from "@/lib/installments/stored";

/** What the row needs for it (a Transaction has all of it). */
export type Paid = { id: string; shopId: string; paymentMethodId: string; amountLocal: bigint; amountUsd: bigint; installments: Prisma.JsonValue | null };
export type FinalInstallments = { installments: Prisma.JsonObject | null; feeFinancing: bigint };

/** The row's installments and financing fee for `count` as the provider reports it; null: as they are. */
export async function finalInstallments(tx: Tx, t: Paid, count: number | undefined): Promise<FinalInstallments | null> {
  if (count === undefined || !Number.isInteger(count) || count < 1) return null;
  const asked = quoteOf(t.installments);
  if ((asked?.count ?? 1) === count) return null;
  if (count === 1) return { installments: null, feeFinancing: 0n };
  const rail = railById(t.paymentMethodId);
  const plan = rail ? await shopPlan(t.shopId, rail, tx) : null;
  const table = rail ? defaultPlan(rail) : null;
  const rateBp = plan?.rates[count] ?? table?.rates[count];
  if (rateBp === undefined) log.warn({ transactionId: t.id, count }, "the provider reports an installment count no fee table prices; no financing fee booked");
  const paidBy = asked?.paidBy ?? plan?.paidBy ?? "merchant";
  const quote = quoteInstallments(t.amountLocal, count, { paidBy, rates: { [count]: rateBp ?? 0 } });
  return { installments: storedQuote(quote), feeFinancing: financingFeeUsd(quote, t.amountUsd, t.amountLocal) };
}
