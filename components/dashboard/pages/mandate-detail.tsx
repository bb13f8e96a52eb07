"use client";
// One recurring PIX mandate, live: its terms and the payer, the authorization link while the
// payer has not answered, every charge with its payment, the shop's cancel behind a confirmation,
// and in the sandbox the payer's answers (authorize, refuse, cancel in the bank's app).
import { useState } from "react";
import type { LoaderData } from "@/server/dashboard-loaders";
import { cancelMandateAction, simulateMandateAction } from "@/server/actions/mandates";
import { useOnceMutation } from "@/components/dashboard/use-once-mutation";
import { MoneyRecordHeader } from "@/components/dashboard/detail-header";
import { SimulateCard } from "@/components/dashboard/kit/simulate";
import { actionError, useLiveData } from "@/components/dashboard/use-dashboard-data";
import { ResourceTable, IdLink } from "@/components/dashboard/kit/resource-table";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { Card, DescriptionList } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/field";
import { Money } from "@/components/ui/money";
import { CopyButton } from "@/components/ui/copy-button";
import { useTimes } from "@/components/ui/time-zone";
import { calendarDay, mandateTerms } from "@/components/dashboard/mandate-words";
import { useWords } from "@/components/dashboard/i18n/words";

type Detail = LoaderData<"mandate">;

export function MandateDetailView({ environment, initial, canCancel, canSimulate }: { environment: string; initial: Detail; canCancel: boolean; canSimulate: boolean }) {
  const { formatDateTime } = useTimes();
  const { locale, t } = useWords();
  const w = t.mandateDetail;
  const { data } = useLiveData(environment, "mandate", { id: initial.mandate.id }, initial, 3_000);
  const { mandate: m, charges } = data;
  const pending = m.status === "pending_authorization";
  const active = m.status === "active";
  return (
    <>
      <MoneyRecordHeader
        href="/dashboard/subscriptions"
        label={t.subscriptions.title}
        current={w.current(m.customer.name)}
        id={m.id}
        amount={m.amount ?? m.maxAmount ?? 0}
        currency={m.currency}
        lead={<span data-testid="mandate-title">{mandateTerms(m, locale)}</span>}
        status={m.status}
        statusOf="mandate"
        statusWord={t.status("mandate", m.status)}
        breadcrumbLabel={t.common.breadcrumb}
        statusTestId="mandate-status"
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card title={t.common.details} id="mandate-details">
            <DescriptionList
              items={[
                [w.payer, `${m.customer.name} · ${m.customer.email}`],
                [w.document, m.customer.documentId],
                [w.charges, mandateTerms(m, locale)],
                [w.kind, m.amount !== null ? w.fixedAmount : w.variableAmount],
                [t.common.description, m.description],
                [w.firstDue, calendarDay(m.startDate, locale)],
                [w.lastDue, m.endDate ? calendarDay(m.endDate, locale) : w.untilCancelled],
                [w.authorized, formatDateTime(m.authorizedAt)],
                [w.cancelledBy, m.cancelledBy ? w.cancelledByWho[m.cancelledBy] : null],
                [w.ended, formatDateTime(m.endedAt)],
                [t.common.created, formatDateTime(m.createdAt)],
              ]}
            />
          </Card>
          <Card title={w.charges} id="mandate-charges">
            <ResourceTable
              caption={w.chargesCaption}
              rows={charges}
              rowKey={(c) => c.id}
              rowProps={() => ({ "data-testid": "mandate-charge-row" })}
              empty={{ title: w.noChargesTitle, body: w.noChargesBody }}
              columns={[
                { header: w.dueDate, name: "date", cell: (c) => <span className="whitespace-nowrap">{calendarDay(c.dueDate, locale)}</span> },
                { header: t.common.amount, name: "amount", align: "right", cell: (c) => <Money amount={c.amount} currency={c.currency} /> },
                {
                  header: t.common.status,
                  name: "status",
                  cell: (c) => (
                    <>
                      <StatusBadge of="mandateCharge" status={c.status} word={t.status("mandateCharge", c.status)} />
                      {c.attempts > 1 ? <span className="block text-xs text-slate-600">{w.attempts(c.attempts)}</span> : null}
                    </>
                  ),
                },
                {
                  header: t.common.payment,
                  name: "payment",
                  cell: (c) => (c.paymentId ? <IdLink href={`/dashboard/payments/${c.paymentId}`} id={c.paymentId} text={t.common.viewPayment} label={t.common.paymentId(c.paymentId)} /> : <span className="text-slate-600">{w.notSentYet}</span>),
                },
              ]}
            />
          </Card>
        </div>
        <div className="space-y-6">
          {pending ? <AuthorizationCard url={m.authorizationUrl} /> : null}
          {canCancel && active ? <CancelCard mandateId={m.id} /> : null}
          {canSimulate && environment === "sandbox" ? (
            <SimulateCard
              id="simulate-mandate"
              target={m.id}
              action={simulateMandateAction}
              title={t.common.sandboxSimulation}
              description={w.simulateDescription}
              outcomes={[
                { action: "authorize", label: w.simulateAuthorized, enabled: pending },
                { action: "reject", label: w.simulateRefused, enabled: pending },
                { action: "cancel_by_payer", label: w.simulateCancelledByPayer, enabled: active },
              ]}
            />
          ) : null}
        </div>
      </div>
    </>
  );
}

function AuthorizationCard({ url }: { url: string }) {
  const w = useWords().t.mandateDetail;
  return (
    <Card title={w.waitingTitle} id="mandate-authorization">
      <p className="mb-3 text-sm text-slate-600">{w.waitingBody}</p>
      <p className="mb-3 break-all font-mono text-sm" data-testid="mandate-authorization-url">
        {url}
      </p>
      <div className="flex flex-wrap gap-2">
        <CopyButton value={url} label={w.copyLink} />
        <a className="text-sm text-indigo-700 underline underline-offset-2" href={url} target="_blank" rel="noreferrer">
          {w.openPayerPage}
        </a>
      </div>
    </Card>
  );
}

function CancelCard({ mandateId }: { mandateId: string }) {
  const cancel = useOnceMutation(cancelMandateAction);
  const [confirming, setConfirming] = useState(false);
  const error = actionError(cancel.data, cancel.error);
  const { t } = useWords();
  const w = t.mandateDetail;
  return (
    <Card title={w.cancelTitle} id="cancel-mandate">
      <p className="mb-3 text-sm text-slate-600">{w.cancelBody}</p>
      {confirming ? (
        <div className="flex flex-wrap gap-2">
          <Button variant="danger" busy={cancel.isPending} disabled={cancel.isPending} onClick={() => cancel.mutate([mandateId])}>
            {w.cancelConfirm}
          </Button>
          <Button variant="secondary" disabled={cancel.isPending} onClick={() => setConfirming(false)}>
            {w.cancelKeep}
          </Button>
        </div>
      ) : (
        <Button variant="secondary" onClick={() => setConfirming(true)}>
          {w.cancelButton}
        </Button>
      )}
      <div className="mt-3">
        <FormError message={error ? t.common.apiError(error.message, error.code) : undefined} />
      </div>
    </Card>
  );
}
