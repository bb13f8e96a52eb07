"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { HTMLAttributes, MouseEvent } from "react";
import { PaymentAmountCell } from "@/components/dashboard/payment-amount";
import { DateTimeCell } from "@/components/ui/date-time";
import { useTimes } from "@/components/ui/time-zone";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { paymentDisplayStatus } from "@/lib/dashboard/display-status";
import { Table, Td, Th } from "@/components/ui/table";
import { countryName } from "@/components/dashboard/payment-labels";
import { methodName } from "@/components/dashboard/plain-words";
import { cn } from "@/components/ui/cn";

export type PaymentRow = {
  id: string;
  status: string;
  amount: number;
  currency: string;
  amountLocal: number;
  currencyLocal: string;
  /** What the store asked, when it asked in a currency of its own: the amount the row leads with. */
  inputAmount?: number;
  inputCurrency?: string;
  paymentMethodName: string;
  country: string;
  merchantOrderId: string | null;
  customer?: { name: string | null; email: string | null };
  /** Local amount refunded so far (a partly refunded payment reads so in the list). */
  refundedAmountLocal?: number;
  timestamps: { created: string };
};

// Whatever handles its own click inside a row: the row leaves those alone.
const CONTROLS = "a[href], button, input, select, textarea, label, summary, [role='button'], [role='link']";

/**
 * A table row that opens `href` when clicked anywhere outside its controls, like Stripe's lists.
 * The row is not a link and not focusable: keyboard and screen-reader users get the real <a> the
 * row must contain (Enter on it navigates), so there is one tab stop per row and no interactive
 * element inside another. A click that ends a text selection does nothing (ids get copied);
 * ctrl/⌘/shift or middle click opens a new tab, as on a link.
 */
export function ClickableRow({ href, className, children, ...rest }: { href: string } & HTMLAttributes<HTMLTableRowElement>) {
  const router = useRouter();
  const follow = (e: MouseEvent<HTMLTableRowElement>, newTab: boolean) => {
    const control = (e.target as Element).closest(CONTROLS);
    if (e.defaultPrevented || (control && e.currentTarget.contains(control))) return;
    if (window.getSelection()?.toString()) return;
    if (newTab) window.open(href, "_blank", "noopener");
    else router.push(href);
  };
  return (
    <tr
      {...rest}
      onClick={(e) => e.button === 0 && follow(e, e.metaKey || e.ctrlKey || e.shiftKey)}
      onAuxClick={(e) => e.button === 1 && follow(e, true)}
      className={cn("cursor-pointer hover:bg-slate-50 focus-within:bg-indigo-50/60", className)}
    >
      {children}
    </tr>
  );
}

/** The id as the row's link. Never truncated: it is the payment's name and is copied from here. */
function PaymentLink({ id }: { id: string }) {
  return (
    <Link href={`/dashboard/payments/${id}`} className="rounded-sm font-mono text-xs font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600">
      {id}
    </Link>
  );
}

/**
 * The payments table (list page and overview). What matters comes first and stays in view at
 * 1366 and 820 px: the amount (the one the store asked, USD or what the buyer paid under it), the
 * id (the row's only link), the status and the date (day over time, never clipped). Method and customer/order are columns from
 * the xl breakpoint; narrower they stack under the link, and below lg the status does too, so
 * the table fits its card instead of hiding columns behind a sideways scroll. `compact` (the
 * overview's two-thirds card) drops the customer and shortens the date.
 */
export function PaymentRows({ payments, caption, compact }: { payments: PaymentRow[]; caption: string; compact?: boolean }) {
  const { formatShortDateTime } = useTimes();
  return (
    <Table caption={caption}>
      <thead>
        <tr>
          <Th className="text-right">Amount</Th>
          <Th>Payment</Th>
          <Th className="hidden lg:table-cell">Status</Th>
          <Th className={compact ? undefined : "hidden xl:table-cell"}>Method</Th>
          {compact ? null : <Th className="hidden xl:table-cell">Customer · order</Th>}
          <Th>Created</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {payments.map((p) => (
          <ClickableRow key={p.id} href={`/dashboard/payments/${p.id}`} data-testid="payment-row" data-payment-id={p.id}>
            <Td className="text-right font-medium" data-col="amount">
              <PaymentAmountCell payment={p} />
            </Td>
            <Td data-testid="payment-link-cell" data-col="link">
              <PaymentLink id={p.id} />
              <span className="mt-1 block lg:hidden" data-col="status">
                <StatusBadge of="payment" status={paymentDisplayStatus(p)} api={p.status} />
              </span>
              {compact ? null : (
                <span className="block max-w-60 whitespace-normal break-words text-xs text-slate-600 xl:hidden">
                  {methodName(p.paymentMethodName)} · {countryName(p.country)}
                  {p.customer?.name || p.customer?.email ? ` · ${p.customer.name ?? p.customer.email}` : ""}
                  {p.merchantOrderId ? ` · order ${p.merchantOrderId}` : ""}
                </span>
              )}
            </Td>
            <Td className="hidden lg:table-cell" data-col="status">
              <StatusBadge of="payment" status={paymentDisplayStatus(p)} api={p.status} />
            </Td>
            <Td className={compact ? "min-w-24 lg:whitespace-normal!" : "hidden whitespace-normal! xl:table-cell"}>
              {methodName(p.paymentMethodName)} <span className="text-slate-600">· {countryName(p.country)}</span>
            </Td>
            {compact ? null : (
              <Td data-testid="payment-customer" className="hidden xl:table-cell">
                {p.customer?.name || p.customer?.email ? (
                  <>
                    <span className="block max-w-48 whitespace-normal wrap-anywhere">{p.customer.name ?? "—"}</span>
                    {p.customer.email ? <span className="block max-w-48 whitespace-normal wrap-anywhere text-xs text-slate-600">{p.customer.email}</span> : null}
                  </>
                ) : (
                  <span className="text-slate-600">—</span>
                )}
                {p.merchantOrderId ? <span className="block max-w-48 whitespace-normal break-all font-mono text-xs text-slate-600">order {p.merchantOrderId}</span> : null}
              </Td>
            )}
            <Td className={compact ? "min-w-20 whitespace-normal! text-slate-600" : "text-slate-600"} data-col="date">
              {compact ? <time dateTime={p.timestamps.created}>{formatShortDateTime(p.timestamps.created)}</time> : <DateTimeCell iso={p.timestamps.created} />}
            </Td>
          </ClickableRow>
        ))}
      </tbody>
    </Table>
  );
}
