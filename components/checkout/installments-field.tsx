// The card step's installment choice on the hosted selector: a plain <select> in the form post
// (works without script and on a phone), one per card rail whose shop plan opens counts to this
// amount (public/buyer/islands.js shows only the chosen rail's; without script all stay), worded in the buyer's language ("12x de R$ 12,50 sem juros", "3 meses sin intereses de
// $500.00"); a buyer-paid plan shows its total and, in Brazil, the CET before paying.
import { toMajor } from "@/lib/money/amount";
import { formatMoney } from "@/lib/i18n/locale";
import type { InstallmentQuote } from "@/lib/installments/price";
import type { Messages } from "@/lib/i18n/messages-en";

type Props = { t: Messages; formatTag: string; paymentMethodId: string; methodName: string; currency: string; country: string; price: bigint; options: InstallmentQuote[] };

/** One plan in the buyer's words: "12x de R$ 12,50 sem juros", "10x de R$ 16,73, total R$ 167,30, CET …". */
export function installmentWords(t: Messages, q: InstallmentQuote, currency: string, country: string, formatTag: string): string {
  const money = (minor: bigint) => formatMoney(toMajor(minor, currency), currency, formatTag);
  const percent = new Intl.NumberFormat(formatTag, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return q.paidBy === "merchant" ? t.installmentShopPaid(q.count, money(q.amount)) : t.installmentBuyerPaid(q.count, money(q.amount), money(q.total), country === "BRA" ? percent.format(Number(q.cet)) : null);
}

export function InstallmentsField({ t, formatTag, paymentMethodId, methodName, currency, country, price, options }: Props) {
  const id = `installments-${paymentMethodId}`;
  const money = (minor: bigint) => formatMoney(toMajor(minor, currency), currency, formatTag);
  return (
    <div className="mt-4 rounded-xl border border-slate-200 bg-white p-4" data-testid={id} data-installments-for={paymentMethodId}>
      <label htmlFor={id} className="block font-semibold text-slate-900">
        {t.installmentsLabel(methodName)}
      </label>
      <p id={`${id}-help`} className="mt-1 text-sm text-slate-600">
        {t.installmentsHelp}
      </p>
      <select id={id} name={id} aria-describedby={`${id}-help`} defaultValue="1" className="mt-2 block min-h-12 w-full rounded-lg border-2 border-slate-300 bg-white px-3 text-base text-slate-900 focus-visible:outline-4 focus-visible:outline-offset-2 focus-visible:outline-blue-400">
        <option value="1">{t.installmentAtOnce(money(price))}</option>
        {options.map((q) => (
          <option key={q.count} value={String(q.count)}>
            {installmentWords(t, q, currency, country, formatTag)}
          </option>
        ))}
      </select>
    </div>
  );
}
