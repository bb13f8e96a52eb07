"use client";
// What happened to a payment, on its detail page (components/dashboard/pages/payment-detail.tsx):
// a timeline, oldest first, of one line per happening (lib/dashboard/payment-timeline.ts), and its
// refunds and chargebacks with their histories, in the merchant's time zone.
import type { LoaderData } from "@/server/dashboard-loaders";
import { claimKindLabel, claimStatusLabel, timelineLine } from "@/components/dashboard/payment-labels";
import { claimStatusOf } from "@/components/dashboard/status-words";
import { Card } from "@/components/ui/card";
import { Money } from "@/components/ui/money";
import { Term } from "@/components/ui/term";
import { useTimes } from "@/components/ui/time-zone";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { EmptyState } from "@/components/ui/table";
import { IdDetail } from "@/components/ui/id-detail";

type Detail = LoaderData<"payment">;

export function TimelineCard({ entries }: { entries: Detail["timeline"] }) {
  const { formatDateTime } = useTimes();
  return (
    <Card title="Timeline" id="timeline">
      {entries.length === 0 ? (
        <EmptyState title="No events yet" />
      ) : (
        <ol className="space-y-3 border-l border-slate-200 pl-4" aria-label="Events, oldest first">
          {entries.map((e) => (
            <li key={e.id} className="relative">
              <span aria-hidden className="absolute -left-[21px] top-1.5 size-2.5 rounded-full bg-indigo-500" />
              <p className="text-sm font-medium text-slate-900" data-testid="timeline-event">
                <Term tech={e.types.join(" + ")}>{timelineLine(e.happened)}</Term>
              </p>
              <p className="text-xs text-slate-600">
                {formatDateTime(e.at)}
              </p>
              <IdDetail id={e.id} label="Event id" />
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

export function ClaimsCard({ claims }: { claims: Detail["claims"] }) {
  const { formatDateTime } = useTimes();
  return (
    <Card title="Refunds and chargebacks" id="claims">
      {claims.length === 0 ? (
        <EmptyState title="None" />
      ) : (
        <ul className="space-y-3">
          {claims.map((c) => (
            <li key={c.id} data-testid="payment-claim" className="rounded-md border border-slate-200 p-3 text-sm">
              <p className="flex flex-wrap items-center gap-2">
                <Term tech={c.id}>
                  <span className="font-medium">{claimKindLabel(c.kind)}</span>
                </Term>
                <Money amount={c.amount} currency={c.currency} />
                <StatusBadge of={claimStatusOf(c.kind)} status={c.status} />
              </p>
              <p className="mt-1 text-xs text-slate-600">{c.history.map((h) => `${claimStatusLabel(h.status, c.kind)} ${formatDateTime(h.at)}`).join(" → ")}</p>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
