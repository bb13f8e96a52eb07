"use client";
import type { LoaderData } from "@/server/dashboard-loaders";
import { useLiveData } from "@/components/dashboard/use-dashboard-data";
import { Card, PageHeader } from "@/components/ui/card";
import { Field, Select } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { ResourceTable, IdLink } from "@/components/dashboard/kit/resource-table";
import { Pagination } from "@/components/ui/pagination";
import { StatusBadge } from "@/components/ui/badge";
import { Money, formatDateTime } from "@/components/ui/money";
import { CLAIM_KINDS, CLAIM_STATUSES } from "@/lib/claims/schema";

type Claim = { id: string; kind: string; status: string; transactionId: string; amount: number; amountUsd: number; currency: string; reason: string | null; createdAt: string; resolvedAt: string | null; dueBy: string | null; history: Array<{ status: string; at: string }> };
type Envelope = LoaderData<"claims">;

export function ClaimsView({ environment, params, initial }: { environment: string; params: Record<string, string>; initial: Envelope }) {
  const { data } = useLiveData(environment, "claims", params, initial, 3_000);
  const { limit: _l, ...linkParams } = params;
  const href = (offset: number) => `/dashboard/claims?${new URLSearchParams({ ...linkParams, offset: String(offset) })}`;
  return (
    <>
      <PageHeader title="Claims" description="Refunds and chargebacks, with every status they went through." />
      <Card className="mb-6" title="Filter" id="claim-filters">
        <form method="get" action="/dashboard/claims" aria-label="Filter claims" className="flex flex-wrap items-end gap-4">
          <Field label="Kind">
            {(p) => (
              <Select {...p} name="kind" defaultValue={params.kind ?? ""}>
                <option value="">Any</option>
                {CLAIM_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {k === "user_dispute" ? "refund" : k}
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
                  <option key={s} value={s}>
                    {s.replace(/_/g, " ")}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Button type="submit">Apply</Button>
        </form>
      </Card>
      <Card title="Claims" id="claims-list">
        <ResourceTable
          caption="Claims, newest first"
          rows={data.data}
          rowKey={(c) => c.id}
          rowHref={(c) => `/dashboard/claims/${c.id}`}
          rowProps={() => ({ "data-testid": "claim-row" })}
          empty={{ title: "No claims", body: "Refunds you issue and chargebacks buyers open appear here." }}
          columns={[
            {
              header: "Claim",
              cell: (c) => (
                <>
                  <IdLink href={`/dashboard/claims/${c.id}`} id={c.id} />
                  <span className="block text-xs text-slate-600">
                    on <IdLink href={`/dashboard/payments/${c.transactionId}`} id={c.transactionId} label={`Payment ${c.transactionId}`} />
                  </span>
                </>
              ),
            },
            {
              header: "Kind",
              cell: (c) => (
                <>
                  {c.kind === "chargeback" ? "Chargeback" : "Refund"}
                  {c.kind === "chargeback" && c.status === "open" && c.dueBy ? <span className="block text-xs text-slate-600">evidence due {formatDateTime(c.dueBy)}</span> : null}
                </>
              ),
            },
            {
              header: "Amount",
              align: "right",
              cell: (c) => (
                <>
                  <Money amount={c.amount} currency={c.currency} />
                  <Money className="block text-xs text-slate-600" amount={c.amountUsd} currency="USD" />
                </>
              ),
            },
            { header: "Status", cell: (c) => <StatusBadge status={c.status} /> },
            {
              header: "History",
              wrap: true,
              cell: (c) => (
                <ol className="flex flex-wrap gap-x-2 text-xs text-slate-600" aria-label={`Status history of ${c.id}`}>
                  {c.history.map((h, i) => (
                    <li key={i}>
                      {i > 0 ? <span aria-hidden>→ </span> : null}
                      <span className="font-medium text-slate-800">{h.status}</span> <time dateTime={h.at}>{formatDateTime(h.at)}</time>
                    </li>
                  ))}
                </ol>
              ),
            },
            { header: "Reason", wrap: true, cell: (c) => (c.reason ? c.reason.replace(/_/g, " ") : "—") },
          ]}
          footer={<Pagination pagination={data.pagination} href={href} label="Claims pages" />}
        />
      </Card>
    </>
  );
}
