"use client";
import type { LoaderData } from "@/server/dashboard-loaders";
import { useLiveData } from "@/components/dashboard/use-dashboard-data";
import { Card, PageHeader } from "@/components/ui/card";
import { Field, Select } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { ResourceTable, IdLink } from "@/components/dashboard/kit/resource-table";
import { Pagination } from "@/components/ui/pagination";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { Money } from "@/components/ui/money";
import { useTimes } from "@/components/ui/time-zone";
import { DateTimeCell } from "@/components/ui/date-time";
import { DueCountdown } from "@/components/ui/due-countdown";
import { CLAIM_KINDS, CLAIM_STATUSES } from "@/lib/claims/schema";
import { CLAIM_KIND_FILTER_LABELS, CLAIM_STATUS_LABELS, claimKindLabel, claimStatusLabel } from "@/components/dashboard/payment-labels";
import { claimStatusOf } from "@/components/dashboard/status-words";
import { claimReasonWord } from "@/components/dashboard/plain-words";

type Claim = { id: string; kind: string; status: string; transactionId: string; amount: number; amountUsd: number; currency: string; reason: string | null; createdAt: string; resolvedAt: string | null; dueBy: string | null; history: Array<{ status: string; at: string }> };
type Envelope = LoaderData<"claims">;

export function ClaimsView({ environment, params, initial }: { environment: string; params: Record<string, string>; initial: Envelope }) {
  const { formatDateTime } = useTimes();
  const { data } = useLiveData(environment, "claims", params, initial, 3_000);
  const { limit: _l, ...linkParams } = params;
  const href = (offset: number) => `/dashboard/claims?${new URLSearchParams({ ...linkParams, offset: String(offset) })}`;
  return (
    <>
      <PageHeader title="Refunds and chargebacks" description="Refunds you made and chargebacks buyers opened, with every step they went through." />
      <Card className="mb-6" title="Filter" id="claim-filters">
        <form method="get" action="/dashboard/claims" aria-label="Filter refunds and chargebacks" className="flex flex-wrap items-end gap-4">
          <Field label="Kind">
            {(p) => (
              <Select {...p} name="kind" defaultValue={params.kind ?? ""}>
                <option value="">Any</option>
                {CLAIM_KINDS.map((k) => (
                  <option key={k} value={k} title={k}>
                    {CLAIM_KIND_FILTER_LABELS[k] ?? k}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field label="Status">
            {(p) => (
              <Select {...p} name="status" defaultValue={params.status ?? ""}>
                <option value="">Any</option>
                {CLAIM_STATUSES.map((s) => (
                  <option key={s} value={s} title={s}>
                    {CLAIM_STATUS_LABELS[s] ?? s}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Button type="submit">Apply</Button>
        </form>
      </Card>
      <Card title="List" id="claims-list">
        <ResourceTable
          caption="Refunds and chargebacks, newest first"
          rows={data.data}
          rowKey={(c) => c.id}
          rowHref={(c) => `/dashboard/claims/${c.id}`}
          rowProps={() => ({ "data-testid": "claim-row" })}
          empty={{ title: "No refunds or chargebacks", body: "Refunds you issue and chargebacks buyers open appear here." }}
          // At 1366 and 820 px the claim's link, amount, status and date stay in view: the
          // history is a column from xl (the claim's page has it), the kind and reason from lg;
          // below lg the status and kind stack under the link.
          columns={[
            {
              header: "Refund or chargeback",
              name: "link",
              cell: (c) => (
                <>
                  <IdLink href={`/dashboard/claims/${c.id}`} id={c.id} text={claimKindLabel(c.kind)} />
                  <span className="block text-xs text-slate-600">
                    on <IdLink href={`/dashboard/payments/${c.transactionId}`} id={c.transactionId} label={`Payment ${c.transactionId}`} />
                  </span>
                  <span className="mt-1 flex flex-wrap items-center gap-x-2 lg:hidden">
                    <span data-col="status">
                      <StatusBadge of={claimStatusOf(c.kind)} status={c.status} />
                    </span>
                  </span>
                  {(c.kind === "chargeback" || c.kind === "pix_med") && c.status === "open" && c.dueBy ? (
                    <DueCountdown className="block text-xs" dueIso={c.dueBy} label={c.kind === "pix_med" ? "Defence due" : "Evidence due"} />
                  ) : null}
                </>
              ),
            },
            {
              header: "Amount",
              name: "amount",
              align: "right",
              cell: (c) => (
                <>
                  <Money amount={c.amount} currency={c.currency} />
                  <Money className="block text-xs text-slate-600" amount={c.amountUsd} currency="USD" />
                </>
              ),
            },
            { header: "Status", name: "status", from: "lg", cell: (c) => <StatusBadge of={claimStatusOf(c.kind)} status={c.status} /> },
            { header: "Opened", name: "date", cell: (c) => <DateTimeCell iso={c.createdAt} /> },
            { header: "Reason", name: "reason", from: "lg", wrap: true, cell: (c) => (c.reason ? <span title={c.reason}>{claimReasonWord(c.reason)}</span> : "—") },
            {
              header: "History",
              from: "xl",
              wrap: true,
              cell: (c) => (
                <ol className="flex flex-wrap gap-x-2 text-xs text-slate-600" aria-label={`Steps of this ${claimKindLabel(c.kind).toLowerCase()}`}>
                  {c.history.map((h, i) => (
                    <li key={i}>
                      {i > 0 ? <span aria-hidden>→ </span> : null}
                      <span className="font-medium text-slate-800">{claimStatusLabel(h.status, c.kind)}</span> <time dateTime={h.at}>{formatDateTime(h.at)}</time>
                    </li>
                  ))}
                </ol>
              ),
            },
          ]}
          footer={<Pagination pagination={data.pagination} href={href} label="Refunds and chargebacks pages" />}
        />
      </Card>
    </>
  );
}
