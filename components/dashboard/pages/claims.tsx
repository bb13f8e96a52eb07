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
import { claimStatusOf } from "@/components/dashboard/status-words";
import { useWords } from "@/components/dashboard/i18n/words";

type Claim = { id: string; kind: string; status: string; transactionId: string; amount: number; amountUsd: number; currency: string; reason: string | null; createdAt: string; resolvedAt: string | null; dueBy: string | null; history: Array<{ status: string; at: string }> };
type Envelope = LoaderData<"claims">;

export function ClaimsView({ environment, params, initial }: { environment: string; params: Record<string, string>; initial: Envelope }) {
  const { formatDateTime } = useTimes();
  const { data } = useLiveData(environment, "claims", params, initial, 3_000);
  const { locale, t } = useWords();
  const w = t.claims;
  const { limit: _l, ...linkParams } = params;
  const href = (offset: number) => `/dashboard/claims?${new URLSearchParams({ ...linkParams, offset: String(offset) })}`;
  return (
    <>
      <PageHeader title={w.title} description={w.description} />
      <Card className="mb-6" title={t.common.filter} id="claim-filters">
        <form method="get" action="/dashboard/claims" aria-label={w.filterLabel} className="flex flex-wrap items-end gap-4">
          <Field label={t.common.kind}>
            {(p) => (
              <Select {...p} name="kind" defaultValue={params.kind ?? ""}>
                <option value="">{t.common.any}</option>
                {CLAIM_KINDS.map((k) => (
                  <option key={k} value={k} title={k}>
                    {w.kindFilter(k)}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field label={t.common.status}>
            {(p) => (
              <Select {...p} name="status" defaultValue={params.status ?? ""}>
                <option value="">{t.common.any}</option>
                {CLAIM_STATUSES.map((s) => (
                  <option key={s} value={s} title={s}>
                    {w.status(s, null)}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Button type="submit">{t.common.apply}</Button>
        </form>
      </Card>
      <Card title={w.list} id="claims-list">
        <ResourceTable
          caption={w.caption}
          rows={data.data}
          rowKey={(c) => c.id}
          rowHref={(c) => `/dashboard/claims/${c.id}`}
          rowProps={() => ({ "data-testid": "claim-row" })}
          empty={{ title: w.emptyTitle, body: w.emptyBody }}
          // At 1366 and 820 px the claim's link, amount, status and date stay in view: the
          // history is a column from xl (the claim's page has it), the kind and reason from lg;
          // below lg the status and kind stack under the link.
          columns={[
            {
              header: w.column,
              name: "link",
              cell: (c) => (
                <>
                  <IdLink href={`/dashboard/claims/${c.id}`} id={c.id} text={w.kind(c.kind)} />
                  <span className="block text-xs text-slate-600">
                    {w.on} <IdLink href={`/dashboard/payments/${c.transactionId}`} id={c.transactionId} label={t.common.paymentId(c.transactionId)} />
                  </span>
                  <span className="mt-1 flex flex-wrap items-center gap-x-2 lg:hidden">
                    <span data-col="status">
                      <StatusBadge of={claimStatusOf(c.kind)} status={c.status} word={w.status(c.status, c.kind)} />
                    </span>
                  </span>
                  {(c.kind === "chargeback" || c.kind === "pix_med") && c.status === "open" && c.dueBy ? (
                    <DueCountdown className="block text-xs" dueIso={c.dueBy} label={c.kind === "pix_med" ? w.defenceDue : w.evidenceDue} />
                  ) : null}
                </>
              ),
            },
            {
              header: t.common.amount,
              name: "amount",
              align: "right",
              cell: (c) => (
                <>
                  <Money amount={c.amount} currency={c.currency} />
                  <Money className="block text-xs text-slate-600" amount={c.amountUsd} currency="USD" />
                </>
              ),
            },
            { header: t.common.status, name: "status", from: "lg", cell: (c) => <StatusBadge of={claimStatusOf(c.kind)} status={c.status} word={w.status(c.status, c.kind)} /> },
            { header: t.common.opened, name: "date", cell: (c) => <DateTimeCell iso={c.createdAt} /> },
            { header: t.common.reason, name: "reason", from: "lg", wrap: true, cell: (c) => (c.reason ? <span title={c.reason}>{w.reason(c.reason)}</span> : "—") },
            {
              header: w.history,
              from: "xl",
              wrap: true,
              cell: (c) => (
                <ol className="flex flex-wrap gap-x-2 text-xs text-slate-600" aria-label={w.steps(w.kind(c.kind))}>
                  {c.history.map((h, i) => (
                    <li key={i}>
                      {i > 0 ? <span aria-hidden>→ </span> : null}
                      <span className="font-medium text-slate-800">{w.status(h.status, c.kind)}</span> <time dateTime={h.at}>{formatDateTime(h.at)}</time>
                    </li>
                  ))}
                </ol>
              ),
            },
          ]}
          footer={<Pagination pagination={data.pagination} href={href} label={w.pages} locale={locale} />}
        />
      </Card>
    </>
  );
}
