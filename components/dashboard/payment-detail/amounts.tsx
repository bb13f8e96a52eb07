// The money of a payment's detail page (components/dashboard/pages/payment-detail.tsx): the
// title's lead and the Amounts card. The title leads with what the store asked, in its currency
// as its buyers write it ("R$ 150,00"), USD beside it; a payment asked in USD shows what the
// buyer paid beside it.
import type { LoaderData } from "@/server/dashboard-loaders";
import { Card, DescriptionList } from "@/components/ui/card";
import { Money, formatMoney } from "@/components/ui/money";
import { askedOf, paymentAmounts } from "@/components/dashboard/payment-amount";

type Payment = LoaderData<"payment">["payment"];

export function PaymentLead({ payment: p }: { payment: Payment }) {
  const { lead, beside } = paymentAmounts(p);
  return (
    <span className="flex flex-wrap items-baseline gap-x-3">
      <span data-testid="payment-asked" className="whitespace-nowrap tabular-nums">
        {lead}
      </span>
      {beside ? (
        <span data-testid={beside.kind === "usd" ? "payment-usd" : "payment-local"} className="whitespace-nowrap text-base font-normal tabular-nums text-slate-600">
          {beside.kind === "paid" ? `${beside.text} paid` : beside.text}
        </span>
      ) : null}
    </span>
  );
}

/** A payment in installments (issue 42): the plan the buyer chose, and who pays its financing. */
function installmentRows(p: Payment): Array<[string, React.ReactNode, string]> {
  const i = p.installments;
  if (!i) return [];
  const each = formatMoney(i.amount, p.currencyLocal);
  const last = i.lastAmount !== i.amount ? `, the last ${formatMoney(i.lastAmount, p.currencyLocal)}` : "";
  return [
    ["Installments", <span key="in" data-testid="payment-installments" className="tabular-nums">{`${i.count} × ${each}${last}, ${formatMoney(i.total, p.currencyLocal)} in all`}</span>, i.paidBy === "merchant" ? "Interest-free for the buyer: the store pays the financing" : "The buyer pays the interest"],
    [i.paidBy === "merchant" ? "Financing fee (paid by the store)" : "Interest (paid by the buyer)", <Money key="ff" amount={i.financingFee} currency={p.currencyLocal} />, i.cet !== undefined ? `CET ${i.cet}% a year` : "Taken from the amount credited"],
  ];
}

export function AmountsCard({ payment: p }: { payment: Payment }) {
  const asked = askedOf(p);
  return (
    <Card title="Amounts" id="amounts">
      <DescriptionList
        items={[
          ...(asked ? ([["Asked by the store", <span key="i" className="tabular-nums">{formatMoney(asked.amount, asked.currency)}</span>, "Charged as (inputAmount in inputCurrency)"]] as Array<[string, React.ReactNode, string]>) : []),
          ["Amount (USD)", <Money key="a" amount={p.amount} currency="USD" />],
          ["Paid by the buyer", <Money key="l" amount={p.amountLocal} currency={p.currencyLocal} />, "Amount (local): amountLocal"],
          ["Refunded", <Money key="r" amount={p.refundedAmountLocal} currency={p.currencyLocal} />],
          ...installmentRows(p),
          ["Platform fee", <Money key="f1" amount={p.fees.platform} currency="USD" />],
          ["Provider fee", <Money key="f2" amount={p.fees.provider} currency="USD" />],
          ["Network fee", <Money key="f3" amount={p.fees.network} currency="USD" />],
          ["Total fees", <Money key="f4" amount={p.fees.total} currency="USD" />],
        ]}
      />
    </Card>
  );
}
