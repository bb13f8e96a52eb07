// What a payment's amount leads with, decided once for its page's title, the payments list and
// the overview: the amount the store asked, in its currency's own format ("R$ 100,00"), USD
// beside it; a payment asked in USD leads with USD, what the buyer paid in their currency beside.
import { formatMoney } from "@/components/ui/money";

export type PaymentMoney = { amount: number; currency: string; amountLocal: number; currencyLocal: string; inputAmount?: number; inputCurrency?: string };

export type PaymentAmounts = {
  /** The amount the store asked. */
  lead: string;
  /** USD when the store asked another currency; else what the buyer paid, when not in USD. */
  beside: { kind: "usd" | "paid"; text: string } | null;
};

/** What the store asked, when it asked in a currency of its own (inputAmount in inputCurrency). */
export const askedOf = (p: PaymentMoney) => (p.inputCurrency && p.inputCurrency !== p.currency && p.inputAmount !== undefined ? { amount: p.inputAmount, currency: p.inputCurrency } : null);

export function paymentAmounts(p: PaymentMoney): PaymentAmounts {
  const asked = askedOf(p);
  if (asked) return { lead: formatMoney(asked.amount, asked.currency), beside: { kind: "usd", text: formatMoney(p.amount, p.currency) } };
  return { lead: formatMoney(p.amount, p.currency), beside: p.currencyLocal !== p.currency ? { kind: "paid", text: formatMoney(p.amountLocal, p.currencyLocal) } : null };
}

/** A list's amount cell: the asked amount, the other one small beneath it (its kind in a tooltip, to keep the column narrow). */
export function PaymentAmountCell({ payment }: { payment: PaymentMoney }) {
  const { lead, beside } = paymentAmounts(payment);
  return (
    <>
      <span data-testid="row-amount-lead" className="block whitespace-nowrap tabular-nums">
        {lead}
      </span>
      {beside ? (
        <span data-testid="row-amount-beside" title={beside.kind === "paid" ? "Paid by the buyer" : "In USD"} className="block whitespace-nowrap text-xs font-normal tabular-nums text-slate-600">
          {beside.text}
        </span>
      ) : null}
    </>
  );
}
