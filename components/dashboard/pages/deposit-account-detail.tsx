"use client";
// One deposit account: its CLABE (to copy), holder, stats and the transfers received on it,
// live; in the sandbox, a form that simulates a SPEI transfer to the CLABE (the API's
// simulate-deposit use case, credited exactly like a provider's notice).
import { ActionForm } from "@/components/dashboard/kit/action-form";
import type { LoaderData } from "@/server/dashboard-loaders";
import { useState } from "react";
import Link from "next/link";
import type { z } from "zod";
import { simulateDepositAction } from "@/server/actions/deposits";
import { Breadcrumb } from "@/components/dashboard/detail-header";
import { useDashboardData, useLiveData } from "@/components/dashboard/use-dashboard-data";
import type { DepositAccount } from "@/components/dashboard/pages/deposit-accounts";
import { Card, DescriptionList, PageHeader, Stat } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/field";
import { EmptyState, Loading, Table, Td, Th } from "@/components/ui/table";
import { PagerButtons } from "@/components/ui/pagination";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { CopyButton } from "@/components/ui/copy-button";
import { IdDetail } from "@/components/ui/id-detail";
import { Term } from "@/components/ui/term";
import { countryName } from "@/components/dashboard/payment-labels";
import { methodName } from "@/components/dashboard/plain-words";
import { Money } from "@/components/ui/money";
import { useTimes } from "@/components/ui/time-zone";
import { DateTimeCell } from "@/components/ui/date-time";
import type { deposit, depositStats } from "@/lib/deposits/schema";
import { statusWord } from "@/components/dashboard/status-words";

type Deposit = z.infer<typeof deposit>;
type DepositsPage = LoaderData<"deposits">;

const PAGE = 20;

export function DepositAccountDetailView({ environment, id, initialAccount, initialDeposits, canMoveMoney }: { environment: string; id: string; initialAccount: LoaderData<"deposit-account">["account"]; initialDeposits: DepositsPage; canMoveMoney: boolean }) {
  const { formatDateTime } = useTimes();
  const { data: accountData } = useLiveData(environment, "deposit-account", { id }, { account: initialAccount }, false);
  const a = accountData.account;
  const [offset, setOffset] = useState(0);
  const q = useDashboardData(environment, "deposits", { id, limit: PAGE, offset }, { initialData: offset === 0 ? initialDeposits : undefined, refetchInterval: 3_000 });
  const stats = (q.data ?? initialDeposits).stats;
  return (
    <>
      <Breadcrumb href="/dashboard/deposit-accounts" label="Deposit accounts" current={a.endUserRef} />
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            {a.endUserRef} <StatusBadge of="depositAccount" status={a.status} />
          </span>
        }
        description={
          <>
            <span className="block">
              <Term tech={a.depositMethodId}>{methodName(a.methodName)}</Term> · {countryName(a.country)} · {a.currency}
            </span>
            <IdDetail id={a.id} />
          </>
        }
      />
      <Card className="mb-6" title="CLABE" id="clabe">
        <div className="flex flex-wrap items-center gap-3">
          <span data-testid="clabe" className="font-mono text-xl tracking-wider text-slate-900">
            {a.clabe}
          </span>
          <CopyButton value={a.clabe} label="Copy CLABE" />
        </div>
        <p className="mt-2 text-sm text-slate-600">Transfers in {a.currency} to this CLABE credit your pay-in balance. It never changes.</p>
      </Card>
      <dl className="mb-6 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="Deposit stats">
        <Stat label="Transfers received" value={<span data-testid="stat-deposits">{stats.deposits}</span>} />
        <Stat label="Credited" value={<span data-testid="stat-credited">{stats.credited}</span>} />
        <Stat label="Credited (USD)" value={<Money amount={stats.totalUsd} currency="USD" />} />
        <Stat
          label={`Credited (${a.currency})`}
          value={<Money amount={stats.localTotals.find((t) => t.currency === a.currency)?.amount ?? 0} currency={a.currency} />}
          hint={stats.lastDepositAt ? `Last transfer ${formatDateTime(stats.lastDepositAt)}` : "No transfer yet"}
        />
      </dl>
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card title="Deposits" id="deposits">
            {q.isPending ? (
              <Loading />
            ) : !q.data || q.data.deposits.length === 0 ? (
              <EmptyState title="No deposits yet">Transfers to the CLABE appear here as they arrive.</EmptyState>
            ) : (
              <>
                {/* What matters stays in view at 1366 and 820 px (the card is two thirds wide on a
                    desktop, the page's width on a tablet): the day and status, the amount (net USD
                    under it), the payment with the payer and tracking key under it. */}
                <Table caption="Deposits on this account, newest first">
                  <thead>
                    <tr>
                      <Th>Received · status</Th>
                      <Th className="text-right">Amount (net USD)</Th>
                      <Th>Payment · payer</Th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-100">
                    {q.data.deposits.map((dp) => (
                      <tr key={dp.id} data-testid="deposit-row">
                        <Td data-col="date">
                          <DateTimeCell iso={dp.receivedAt} />
                          <span className="mt-1 block" data-col="status">
                            <StatusBadge of="deposit" status={dp.status} />
                          </span>
                          {dp.rejectReason ? <span className="block max-w-40 whitespace-normal text-xs text-slate-600">{dp.rejectReason}</span> : null}
                        </Td>
                        <Td className="text-right" data-col="amount">
                          <Money amount={dp.amount} currency={dp.currency} />
                          <span className="block text-xs text-slate-600">{dp.netUsd === null ? "—" : <Money amount={dp.netUsd} currency="USD" />}</span>
                        </Td>
                        <Td data-col="link">
                          {dp.transactionId ? (
                            <Link href={`/dashboard/payments/${dp.transactionId}`} className="font-mono text-xs text-indigo-700 underline underline-offset-2 hover:text-indigo-900">
                              {dp.transactionId}
                            </Link>
                          ) : (
                            "—"
                          )}
                          <span className="block max-w-56 whitespace-normal break-words text-xs text-slate-600">{[dp.payerName, dp.payerBank].filter(Boolean).join(" · ") || "—"}</span>
                          <span className="block max-w-56 whitespace-normal break-all font-mono text-xs text-slate-600" data-col="tracking">
                            <span className="sr-only">Tracking key </span>
                            {dp.trackingKey}
                          </span>
                        </Td>
                      </tr>
                    ))}
                  </tbody>
                </Table>
                <PagerButtons pagination={q.data.pagination} onChange={setOffset} label="Deposit pages" />
              </>
            )}
          </Card>
          <Card title="Holder" id="holder">
            <DescriptionList
              items={[
                ["Beneficiary", a.beneficiary.name],
                ["Beneficiary email", a.beneficiary.email],
                ["Phone", a.customer.phone],
                ["Document", [a.customer.documentType, a.customer.documentId].filter(Boolean).join(" ") || null],
                ["Customer country", a.customer.country ? countryName(a.customer.country) : null],
                ["Bank", a.bank ?? "Not stated by the network"],
                ["Deposit method", <Term key="m" tech={a.depositMethodId}>{methodName(a.methodName)}</Term>],
                ["Created", formatDateTime(a.createdAt)],
                ...Object.entries(a.metadata).map(([k, v]) => [k, v, `metadata.${k}`] as [string, string, string]),
              ]}
            />
          </Card>
        </div>
        <div className="space-y-6">{canMoveMoney && environment === "sandbox" ? <SimulateTransferCard id={a.id} currency={a.currency} /> : null}</div>
      </div>
    </>
  );
}

const SIM_FIELDS = ["amount", "payerName", "payerBank", "payerDocument", "trackingKey", "reference"] as const;

function SimulateTransferCard({ id, currency }: { id: string; currency: string }) {
  return (
    <Card title="Simulate a transfer" id="simulate-deposit">
      <p className="mb-3 text-sm text-slate-600">Sandbox: a SPEI transfer to this CLABE, credited like a real one (a completed payment, fees, reserve).</p>
      <ActionForm
        label="Simulate a transfer"
        action={simulateDepositAction}
        toArgs={(f) => [id, Object.fromEntries(SIM_FIELDS.map((k) => [k, String(f.get(k) ?? "")]))]}
        fields={SIM_FIELDS}
        labels={{ amount: "Amount", payerName: "Payer name", payerBank: "Payer bank", payerDocument: "Payer document", trackingKey: "Tracking key", reference: "Reference" }}
        submitLabel="Simulate transfer"
        done={(d) => (
          <>
            {d.created ? "Deposit" : "Already received: a deposit"} of <Money amount={d.deposit.amount} currency={d.deposit.currency} /> is {statusWord("deposit", d.deposit.status).toLowerCase()}.
          </>
        )}
      >
        {(f) => (
          <>
            <Field label={`Amount (${currency})`} error={f.error("amount")}>
              {(p) => <Input {...p} name="amount" inputMode="decimal" autoComplete="off" required />}
            </Field>
            <Field label="Payer name" error={f.error("payerName")}>
              {(p) => <Input {...p} name="payerName" autoComplete="off" required maxLength={200} />}
            </Field>
            <Field label="Payer bank" error={f.error("payerBank")}>
              {(p) => <Input {...p} name="payerBank" autoComplete="off" required maxLength={100} placeholder="BBVA" />}
            </Field>
            <Field label="Payer document (optional)" error={f.error("payerDocument")}>
              {(p) => <Input {...p} name="payerDocument" autoComplete="off" maxLength={60} />}
            </Field>
            <Field label="Tracking key (optional)" hint="Up to 30 letters and digits; the same key credits once." error={f.error("trackingKey")}>
              {(p) => <Input {...p} name="trackingKey" autoComplete="off" maxLength={30} />}
            </Field>
            <Field label="Reference (optional)" error={f.error("reference")}>
              {(p) => <Input {...p} name="reference" autoComplete="off" maxLength={120} />}
            </Field>
          </>
        )}
      </ActionForm>
    </Card>
  );
}
