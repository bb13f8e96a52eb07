// The head of a detail page: a breadcrumb back to its list, then the record's title.
import Link from "next/link";
import type { ReactNode } from "react";
import { PageHeader } from "@/components/ui/card";
import { StatusBadge } from "@/components/dashboard/status-badge";
import type { StatusOf } from "@/components/dashboard/status-words";
import { CopyButton } from "@/components/ui/copy-button";
import { Money } from "@/components/ui/money";

export function Breadcrumb({ href, label, id }: { href: string; label: string; id: string }) {
  return (
    <nav aria-label="Breadcrumb" className="mb-2 text-sm">
      <Link href={href} className="text-indigo-700 underline underline-offset-2 hover:text-indigo-900">
        {label}
      </Link>{" "}
      / <span className="font-mono text-xs">{id}</span>
    </nav>
  );
}

/**
 * A money record (payment, payout): its amount and status as the title, its id to copy. `lead`
 * replaces the plain amount (a payment leads with what the store asked, USD beside it). `status`
 * is read in the words of `statusOf`; `apiStatus` is the API's, where the page shows its own.
 */
export function MoneyRecordHeader({ href, label, id, amount, currency, lead, status, statusOf, apiStatus, statusTestId }: { href: string; label: string; id: string; amount: number; currency: string; lead?: ReactNode; status: string; statusOf: StatusOf; apiStatus?: string; statusTestId: string }) {
  return (
    <>
      <Breadcrumb href={href} label={label} id={id} />
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            {lead ?? <Money amount={amount} currency={currency} />}
            <span data-testid={statusTestId}>
              <StatusBadge of={statusOf} status={status} api={apiStatus} />
            </span>
          </span>
        }
        description={
          <span className="flex flex-wrap items-center gap-2">
            <span className="font-mono">{id}</span> <CopyButton value={id} label="Copy id" />
          </span>
        }
      />
    </>
  );
}
