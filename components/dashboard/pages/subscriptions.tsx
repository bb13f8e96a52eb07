"use client";
// Subscriptions (recurring PIX, Pix Automático): every mandate of the merchant's shops, live, with
// its terms, its status and the charge that comes next; filtered by status; each opens its page.
import type { LoaderData } from "@/server/dashboard-loaders";
import { useLiveData } from "@/components/dashboard/use-dashboard-data";
import { Card, PageHeader } from "@/components/ui/card";
import { Field, Select } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { ResourceTable, IdLink } from "@/components/dashboard/kit/resource-table";
import { Pagination } from "@/components/ui/pagination";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { Money } from "@/components/ui/money";
import { DateTimeCell } from "@/components/ui/date-time";
import { MANDATE_STATUSES } from "@/lib/mandates/schema";
import { calendarDay, mandateTerms } from "@/components/dashboard/mandate-words";
import { useWords } from "@/components/dashboard/i18n/words";

type Envelope = LoaderData<"mandates">;

export function SubscriptionsView({ environment, params, initial }: { environment: string; params: Record<string, string>; initial: Envelope }) {
  const { data } = useLiveData(environment, "mandates", params, initial, 3_000);
  const { locale, t } = useWords();
  const w = t.subscriptions;
  const { limit: _l, ...linkParams } = params;
  const href = (offset: number) => `/dashboard/subscriptions?${new URLSearchParams({ ...linkParams, offset: String(offset) })}`;
  return (
    <>
      <PageHeader
        title={w.title}
        description={w.description}
      />
      <Card className="mb-6" title={t.common.filter} id="mandate-filters">
        <form method="get" action="/dashboard/subscriptions" aria-label={w.filterLabel} className="flex flex-wrap items-end gap-4">
          <Field label={t.common.status}>
            {(p) => (
              <Select {...p} name="status" defaultValue={params.status ?? ""}>
                <option value="">{t.common.any}</option>
                {MANDATE_STATUSES.map((s) => (
                  <option key={s} value={s} title={s}>
                    {t.status("mandate", s)}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Button type="submit">{t.common.apply}</Button>
        </form>
      </Card>
      <Card title={w.mandates} id="mandates-list">
        <ResourceTable
          caption={w.caption}
          rows={data.data}
          rowKey={(m) => m.id}
          rowHref={(m) => `/dashboard/subscriptions/${m.id}`}
          rowProps={() => ({ "data-testid": "mandate-row" })}
          empty={{ title: w.emptyTitle, body: w.emptyBody }}
          // At 1366 and 820 px the payer, terms, status and next charge stay in view; the
          // description is a column from xl, the creation date from lg.
          columns={[
            {
              header: w.payer,
              name: "link",
              cell: (m) => (
                <>
                  <IdLink href={`/dashboard/subscriptions/${m.id}`} id={m.id} text={m.customer.name} />
                  <span className="block text-xs text-slate-600">{mandateTerms(m, locale)}</span>
                </>
              ),
            },
            { header: t.common.status, name: "status", cell: (m) => <StatusBadge of="mandate" status={m.status} word={t.status("mandate", m.status)} /> },
            {
              header: w.nextCharge,
              name: "next",
              cell: (m) =>
                m.nextCharge ? (
                  <span data-testid="mandate-next-charge">
                    <span className="block whitespace-nowrap">{calendarDay(m.nextCharge.dueDate, locale)}</span>
                    <Money className="block text-xs text-slate-600" amount={m.nextCharge.amount} currency={m.nextCharge.currency} />
                  </span>
                ) : (
                  <span className="text-slate-600">—</span>
                ),
            },
            { header: t.common.description, from: "xl", wrap: true, cell: (m) => m.description },
            { header: t.common.created, name: "date", from: "lg", cell: (m) => <DateTimeCell iso={m.createdAt} /> },
          ]}
          footer={<Pagination pagination={data.pagination} href={href} label={w.pages} locale={locale} />}
        />
      </Card>
    </>
  );
}
