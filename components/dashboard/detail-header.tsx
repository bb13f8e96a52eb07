// The head of a detail page: a breadcrumb back to its list, then the record's title. Both name
// the record in words ("Chargeback on R$ 100,00"); its id is offered to copy, never the title.
import Link from "next/link";
import type { ReactNode } from "react";
import { PageHeader } from "@/components/ui/card";
import { StatusBadge } from "@/components/dashboard/status-badge";
import type { StatusOf } from "@/components/dashboard/status-words";
import { IdDetail } from "@/components/ui/id-detail";
import { Money } from "@/components/ui/money";

export function Breadcrumb({ href, label, current, navLabel = "Breadcrumb" }: { href: string; label: string; /** This record, in words. */ current: string; navLabel?: string }) {
  return (
    <nav aria-label={navLabel} className="mb-2 text-sm">
      <Link href={href} className="text-indigo-700 underline underline-offset-2 hover:text-indigo-900">
        {label}
      </Link>{" "}
      / <span aria-current="page">{current}</span>
    </nav>
  );
}

/**
 * A money record (payment, payout): its amount and status as the title, its id to copy. `current`
 * names it in the breadcrumb ("Payout of $50.00 USD"). `lead`
 * replaces the plain amount (a payment leads with what the store asked, USD beside it). `status`
 * is read in the words of `statusOf` (or `statusWord`, a page in another language); `apiStatus` is
 * the API's, where the page shows its own.
 */
export function MoneyRecordHeader({ href, label, current, id, amount, currency, lead, status, statusOf, statusWord, apiStatus, statusTestId, breadcrumbLabel }: { href: string; label: string; current: string; id: string; amount: number; currency: string; lead?: ReactNode; status: string; statusOf: StatusOf; statusWord?: string; apiStatus?: string; statusTestId: string; breadcrumbLabel?: string }) {
  return (
    <>
      <Breadcrumb href={href} label={label} current={current} navLabel={breadcrumbLabel} />
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            {lead ?? <Money amount={amount} currency={currency} />}
            <span data-testid={statusTestId}>
              <StatusBadge of={statusOf} status={status} api={apiStatus} word={statusWord} />
            </span>
          </span>
        }
        description={<IdDetail id={id} />}
      />
    </>
  );
}
