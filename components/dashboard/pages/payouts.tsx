"use client";
// Payouts, split as Stripe splits its balance pages: the list (this tab), adding funds
// (payout-funding.tsx) and sending (payout-send.tsx), each a sub-page under the same tabs with
// the payout balance on top. Every action is a server action calling the API's lib/payouts use
// case; reads are the API's reads through the typed loaders.
import type { LoaderData } from "@/server/dashboard-loaders";
import { useDashboardData, useLiveData } from "@/components/dashboard/use-dashboard-data";
import { ResourceTable, IdLink } from "@/components/dashboard/kit/resource-table";
import { SubNav } from "@/components/dashboard/kit/sub-nav";
import { Card, PageHeader, Stat } from "@/components/ui/card";
import { Field, FormError, Select } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { Loading, Table, Td, Th } from "@/components/ui/table";
import { Pagination } from "@/components/ui/pagination";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { Money } from "@/components/ui/money";
import { useTimes } from "@/components/ui/time-zone";
import { PAYOUT_STATUSES } from "@/lib/payouts/schema";
import { STATUS_WORDS } from "@/components/dashboard/status-words";
import { methodName } from "@/components/dashboard/plain-words";

type Envelope = LoaderData<"payouts">;
type Balance = LoaderData<"payout-balance">;

export function PayoutTabs({ canMoveMoney }: { canMoveMoney: boolean }) {
  const tabs = [{ href: "/dashboard/payouts", label: "Payouts" }];
  if (canMoveMoney) tabs.push({ href: "/dashboard/payouts/funding", label: "Add funds" }, { href: "/dashboard/payouts/send", label: "Send a payout" });
  return <SubNav label="Payouts sections" tabs={tabs} />;
}

export function PayoutsHeader({ canMoveMoney }: { canMoveMoney: boolean }) {
  return (
    <>
      <PageHeader title="Payouts" description="A payout balance per currency, funded from your pay-in balance, swapped from USD, and sent to bank accounts and PIX keys." />
      <PayoutTabs canMoveMoney={canMoveMoney} />
    </>
  );
}

/** The payout balance per currency, live; on every payouts sub-page. */
export function PayoutBalanceCard({ environment, initial }: { environment: string; initial: Balance }) {
  const { data: balance } = useLiveData(environment, "payout-balance", {}, initial, 3_000);
  return (
    <Card className="mb-6" title="Payout balance" id="payout-balance">
      <dl className="mb-4 grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Stat label="Available to move from your sales" tech="Transferable from pay-in (transferableFromPayinUsd)" value={<Money amount={balance.transferableFromPayinUsd} currency="USD" />} hint="Your pay-in available balance" />
        <Stat label="Payout USD available" value={<Money amount={balance.balances.find((b) => b.currency === "USD")?.available ?? 0} currency="USD" />} />
      </dl>
      <Table caption="Payout balance per currency">
        <thead>
          <tr>
            <Th>Currency</Th>
            <Th className="text-right">Available</Th>
            <Th className="text-right">Held by payouts in progress</Th>
            <Th className="text-right">Pending</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {balance.balances.map((b) => (
            <tr key={b.currency} data-testid="payout-balance-row" data-currency={b.currency}>
              <Td className="font-medium">{b.currency}</Td>
              <Td className="text-right" data-testid="balance-available">
                <Money amount={b.available} currency={b.currency} />
              </Td>
              <Td className="text-right" data-testid="balance-reserved">
                <Money amount={b.reserved} currency={b.currency} />
              </Td>
              <Td className="text-right">
                <Money amount={b.pending} currency={b.currency} />
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
    </Card>
  );
}

const STATUS_LABELS: Record<string, string> = STATUS_WORDS.payout;

export function PayoutsView({ environment, canMoveMoney, params, initialBalance, initialList, listError }: { environment: string; canMoveMoney: boolean; params: Record<string, string>; initialBalance: Balance; initialList: Envelope | null; listError?: { message: string; param?: string } }) {
  return (
    <>
      <PayoutsHeader canMoveMoney={canMoveMoney} />
      <PayoutBalanceCard environment={environment} initial={initialBalance} />
      <PayoutList environment={environment} params={params} initial={initialList} error={listError} />
    </>
  );
}

function PayoutList({ environment, params, initial, error }: { environment: string; params: Record<string, string>; initial: Envelope | null; error?: { message: string; param?: string } }) {
  const { formatDateTime } = useTimes();
  const q = useDashboardData(environment, "payouts", params, { initialData: initial ?? undefined, refetchInterval: 3_000, enabled: !error });
  const { limit: _l, ...linkParams } = params;
  const href = (offset: number) => `/dashboard/payouts?${new URLSearchParams({ ...linkParams, offset: String(offset) })}#payouts-list`;
  return (
    <Card
      title="Payouts"
      id="payouts-list"
      actions={
        <form method="get" action="/dashboard/payouts" aria-label="Filter payouts" className="flex items-end gap-2">
          <Field label="Status">
            {(p) => (
              <Select {...p} name="status" defaultValue={params.status ?? ""}>
                <option value="">Any</option>
                {PAYOUT_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {STATUS_LABELS[s] ?? s}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Button type="submit" variant="secondary">
            Apply
          </Button>
        </form>
      }
    >
      {error ? (
        <FormError message="That filter is not one this list knows; choose a status from the list." />
      ) : q.isPending ? (
        <Loading />
      ) : (
        <ResourceTable
          caption="Payouts, newest first"
          rows={q.data?.data ?? []}
          rowKey={(p) => p.id}
          rowHref={(p) => `/dashboard/payouts/${p.id}`}
          rowProps={(p) => ({ "data-testid": "payout-row", "data-payout-id": p.id })}
          empty={{ title: params.status ? `No ${(STATUS_LABELS[params.status] ?? params.status).toLowerCase()} payouts` : "No payouts yet", body: "Payouts you send here or through the API appear here." }}
          columns={[
            { header: "Payout", cell: (p) => <IdLink href={`/dashboard/payouts/${p.id}`} id={p.id} /> },
            { header: "Amount", align: "right", cell: (p) => <Money amount={p.amount} currency={p.currency} /> },
            { header: "Status", cell: (p) => <StatusBadge of="payout" status={p.status} /> },
            { header: "Recipient", wrap: true, cell: (p) => `${p.recipient.name} ••••${p.recipient.accountLast4}` },
            { header: "Method", wrap: true, cell: (p) => <span title={p.methodId}>{methodName(p.methodName)}</span> },
            { header: "Created", cell: (p) => formatDateTime(p.createdAt) },
          ]}
          footer={<Pagination pagination={q.data?.pagination} href={href} label="Payout pages" />}
        />
      )}
    </Card>
  );
}
