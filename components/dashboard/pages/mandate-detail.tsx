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

type Detail = LoaderData<"mandate">;

const CANCELLED_BY: Record<string, string> = { payer: "The payer, in their bank's app", merchant: "Your shop" };

export function MandateDetailView({ environment, initial, canCancel, canSimulate }: { environment: string; initial: Detail; canCancel: boolean; canSimulate: boolean }) {
  const { formatDateTime } = useTimes();
  const { data } = useLiveData(environment, "mandate", { id: initial.mandate.id }, initial, 3_000);
  const { mandate: m, charges } = data;
  const pending = m.status === "pending_authorization";
  const active = m.status === "active";
  return (
    <>
      <MoneyRecordHeader
        href="/dashboard/subscriptions"
        label="Subscriptions"
        current={`Mandate of ${m.customer.name}`}
        id={m.id}
        amount={m.amount ?? m.maxAmount ?? 0}
        currency={m.currency}
        lead={<span data-testid="mandate-title">{mandateTerms(m)}</span>}
        status={m.status}
        statusOf="mandate"
        statusTestId="mandate-status"
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card title="Details" id="mandate-details">
            <DescriptionList
              items={[
                ["Payer", `${m.customer.name} · ${m.customer.email}`],
                ["CPF or CNPJ", m.customer.documentId],
                ["Charges", mandateTerms(m)],
                ["Kind", m.amount !== null ? "Fixed amount" : "Variable amount, up to a ceiling"],
                ["Description", m.description],
                ["First due date", calendarDay(m.startDate)],
                ["Last due date", m.endDate ? calendarDay(m.endDate) : "Until cancelled"],
                ["Authorized", formatDateTime(m.authorizedAt)],
                ["Cancelled by", m.cancelledBy ? CANCELLED_BY[m.cancelledBy] : null],
                ["Ended", formatDateTime(m.endedAt)],
                ["Created", formatDateTime(m.createdAt)],
              ]}
            />
          </Card>
          <Card title="Charges" id="mandate-charges">
            <ResourceTable
              caption="This mandate's charges, by due date"
              rows={charges}
              rowKey={(c) => c.id}
              rowProps={() => ({ "data-testid": "mandate-charge-row" })}
              empty={{ title: "No charges scheduled", body: "Schedule each charge with POST /mandates/{id}/charges; it is sent to the payer's bank 2 to 10 days before its due date." }}
              columns={[
                { header: "Due date", name: "date", cell: (c) => <span className="whitespace-nowrap">{calendarDay(c.dueDate)}</span> },
                { header: "Amount", name: "amount", align: "right", cell: (c) => <Money amount={c.amount} currency={c.currency} /> },
                {
                  header: "Status",
                  name: "status",
                  cell: (c) => (
                    <>
                      <StatusBadge of="mandateCharge" status={c.status} />
                      {c.attempts > 1 ? <span className="block text-xs text-slate-600">{c.attempts} attempts</span> : null}
                    </>
                  ),
                },
                {
                  header: "Payment",
                  name: "payment",
                  cell: (c) => (c.paymentId ? <IdLink href={`/dashboard/payments/${c.paymentId}`} id={c.paymentId} text="View the payment" label={`Payment ${c.paymentId}`} /> : <span className="text-slate-600">Not sent yet</span>),
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
              description="Answer this test mandate as the payer would in their bank's app."
              outcomes={[
                { action: "authorize", label: "Simulate authorized", enabled: pending },
                { action: "reject", label: "Simulate refused", enabled: pending },
                { action: "cancel_by_payer", label: "Simulate cancelled by the payer", enabled: active },
              ]}
            />
          ) : null}
        </div>
      </div>
    </>
  );
}

function AuthorizationCard({ url }: { url: string }) {
  return (
    <Card title="Waiting for the payer" id="mandate-authorization">
      <p className="mb-3 text-sm text-slate-600">Send the payer this page: it shows the QR code they scan in their bank&apos;s app to authorize the mandate.</p>
      <p className="mb-3 break-all font-mono text-sm" data-testid="mandate-authorization-url">
        {url}
      </p>
      <div className="flex flex-wrap gap-2">
        <CopyButton value={url} label="Copy link" />
        <a className="text-sm text-indigo-700 underline underline-offset-2" href={url} target="_blank" rel="noreferrer">
          Open the payer&apos;s page
        </a>
      </div>
    </Card>
  );
}

function CancelCard({ mandateId }: { mandateId: string }) {
  const cancel = useOnceMutation(cancelMandateAction);
  const [confirming, setConfirming] = useState(false);
  const error = actionError(cancel.data, cancel.error);
  return (
    <Card title="Cancel the subscription" id="cancel-mandate">
      <p className="mb-3 text-sm text-slate-600">Charges not yet sent are cancelled with it and nothing more is charged. The payer sees it cancelled in their bank&apos;s app.</p>
      {confirming ? (
        <div className="flex flex-wrap gap-2">
          <Button variant="danger" busy={cancel.isPending} disabled={cancel.isPending} onClick={() => cancel.mutate([mandateId])}>
            Yes, cancel it
          </Button>
          <Button variant="secondary" disabled={cancel.isPending} onClick={() => setConfirming(false)}>
            Keep it
          </Button>
        </div>
      ) : (
        <Button variant="secondary" onClick={() => setConfirming(true)}>
          Cancel subscription…
        </Button>
      )}
      <div className="mt-3">
        <FormError message={error?.message} />
      </div>
    </Card>
  );
}
