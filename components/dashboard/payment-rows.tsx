import Link from "next/link";
import { Money, formatDateTime } from "@/components/ui/money";
import { StatusBadge } from "@/components/ui/badge";
import { Table, Td, Th } from "@/components/ui/table";
import { countryName } from "@/components/dashboard/payment-labels";

export type PaymentRow = {
  id: string;
  status: string;
  amount: number;
  currency: string;
  amountLocal: number;
  currencyLocal: string;
  paymentMethodName: string;
  country: string;
  merchantOrderId: string | null;
  customer?: { name: string | null; email: string | null };
  timestamps: { created: string };
};

/** The payments table (list page and overview). */
export function PaymentRows({ payments, caption, compact }: { payments: PaymentRow[]; caption: string; compact?: boolean }) {
  return (
    <Table caption={caption}>
      <thead>
        <tr>
          <Th className="text-right">Amount</Th>
          {compact ? null : <Th className="text-right">Local</Th>}
          <Th>Status</Th>
          <Th>Method</Th>
          {compact ? null : <Th>Customer</Th>}
          {compact ? null : <Th>Order</Th>}
          <Th>Created</Th>
          <Th>
            Payment
          </Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {payments.map((p) => (
          <tr key={p.id} className="hover:bg-slate-50" data-testid="payment-row" data-payment-id={p.id}>
            <Td className="text-right font-medium">
              <Money amount={p.amount} currency={p.currency} />
            </Td>
            {compact ? null : (
              <Td className="text-right text-slate-600">
                <Money amount={p.amountLocal} currency={p.currencyLocal} />
              </Td>
            )}
            <Td>
              <StatusBadge status={p.status} />
            </Td>
            <Td>
              {p.paymentMethodName} <span className="text-slate-600">· {countryName(p.country)}</span>
            </Td>
            {compact ? null : (
              <Td data-testid="payment-customer">
                {p.customer?.name || p.customer?.email ? (
                  <>
                    <span className="block max-w-56 truncate">{p.customer.name ?? "—"}</span>
                    {p.customer.email ? <span className="block max-w-56 truncate text-xs text-slate-600">{p.customer.email}</span> : null}
                  </>
                ) : (
                  <span className="text-slate-600">—</span>
                )}
              </Td>
            )}
            {compact ? null : <Td className="font-mono text-xs">{p.merchantOrderId ?? "—"}</Td>}
            <Td className="text-slate-600">{formatDateTime(p.timestamps.created)}</Td>
            <Td>
              <Link href={`/dashboard/payments/${p.id}`} className="font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900">
                <span className="font-mono text-xs">{p.id}</span>
              </Link>
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
