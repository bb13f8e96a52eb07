"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { HTMLAttributes, MouseEvent } from "react";
import { Money, formatDateTime } from "@/components/ui/money";
import { StatusBadge } from "@/components/ui/badge";
import { paymentDisplayStatus } from "@/lib/dashboard/display-status";
import { Table, Td, Th } from "@/components/ui/table";
import { countryName } from "@/components/dashboard/payment-labels";
import { cn } from "@/components/ui/cn";

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

const shortDateTime = (iso: string) => new Date(iso).toLocaleString("en-US", { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hour12: false, timeZone: "UTC" });

/**
 * The payments table (list page and overview). The id column, the row's only link, comes right
 * after the amount, so when a narrow screen makes the table scroll sideways it is the secondary
 * columns that go out of view, never the link. `compact` (the overview's two-thirds card) drops
 * the local amount and order id, shortens the date (UTC said once, in the header) and, from the
 * lg breakpoint where the card is two thirds wide, lets the method wrap, so the table fits the
 * card at 1366 px. Narrower, the table scrolls inside its card (wrapping there only made rows
 * three lines tall without making it fit).
 */
export function PaymentRows({ payments, caption, compact }: { payments: PaymentRow[]; caption: string; compact?: boolean }) {
  return (
    <Table caption={caption}>
      <thead>
        <tr>
          <Th className="text-right">Amount</Th>
          {compact ? null : <Th className="text-right">Local</Th>}
          <Th>Payment</Th>
          <Th>Status</Th>
          <Th>Method</Th>
          {compact ? null : <Th>Customer</Th>}
          {compact ? null : <Th>Order</Th>}
          <Th>{compact ? "Created (UTC)" : "Created"}</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {payments.map((p) => (
          <ClickableRow key={p.id} href={`/dashboard/payments/${p.id}`} data-testid="payment-row" data-payment-id={p.id}>
            <Td className="text-right font-medium">
              <Money amount={p.amount} currency={p.currency} />
            </Td>
            {compact ? null : (
              <Td className="text-right text-slate-600">
                <Money amount={p.amountLocal} currency={p.currencyLocal} />
              </Td>
            )}
            <Td data-testid="payment-link-cell">
              <PaymentLink id={p.id} />
            </Td>
            <Td>
              <StatusBadge status={paymentDisplayStatus(p)} />
            </Td>
            <Td className={compact ? "min-w-24 lg:whitespace-normal!" : undefined}>
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
            <Td className="text-slate-600">
              <time dateTime={p.timestamps.created}>{compact ? shortDateTime(p.timestamps.created) : formatDateTime(p.timestamps.created)}</time>
            </Td>
          </ClickableRow>
        ))}
      </tbody>
    </Table>
  );
}
