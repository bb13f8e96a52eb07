"use client";
// Deposit accounts (CLABE) of the merchant's shop: search by endUserRef, newest first, with each
// account's deposit stats. Reads GET /dashboard/api/deposit-accounts (the API's list use case).
import type { LoaderData } from "@/server/dashboard-loaders";
import Link from "next/link";
import type { z } from "zod";
import { useDashboardData } from "@/components/dashboard/use-dashboard-data";
import { Card, PageHeader } from "@/components/ui/card";
import { Field, FormError, Input } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { EmptyState, Loading } from "@/components/ui/table";
import { ResourceTable } from "@/components/dashboard/kit/resource-table";
import { Pagination } from "@/components/ui/pagination";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { Money } from "@/components/ui/money";
import { useTimes } from "@/components/ui/time-zone";
import type { depositAccount } from "@/lib/deposits/schema";
import { TestDepositAccountCard } from "@/components/dashboard/test-deposit-account-card";
import { methodName } from "@/components/dashboard/plain-words";

export type DepositAccount = z.infer<typeof depositAccount>;
type Envelope = LoaderData<"deposit-accounts">;

export function DepositAccountsView({
  environment,
  shopName,
  params,
  initial,
  error,
  canCreateTest = false,
}: {
  environment: string;
  /** Sandbox, staff: the "Create test deposit account" card (its action is refused in production anyway). */
  canCreateTest?: boolean;
  shopName: string | null;
  params: Record<string, string>;
  initial: Envelope | null;
  error?: { code: string; message: string; param?: string };
}) {
  const { formatDateTime } = useTimes();
  const q = useDashboardData(environment, "deposit-accounts", params, { initialData: initial ?? undefined, refetchInterval: 5_000, enabled: !error });
  const { limit: _l, include: _i, ...linkParams } = params;
  const href = (offset: number) => `/dashboard/deposit-accounts?${new URLSearchParams({ ...linkParams, offset: String(offset) })}`;
  const searched = Boolean(params.endUserRef);
  return (
    <>
      <PageHeader
        title="Deposit accounts"
        description={shopName ? `CLABEs issued to your customers by ${shopName}, newest first. Your integration creates them through the API.` : "CLABEs issued to your customers."}
      />
      {canCreateTest && environment === "sandbox" && !error ? <TestDepositAccountCard /> : null}
      <Card className="mb-6" title="Search" id="deposit-search">
        <form method="get" action="/dashboard/deposit-accounts" role="search" aria-label="Search deposit accounts" className="flex flex-wrap items-end gap-4">
          <Field label="Customer reference" tech="End user (endUserRef)" hint="The reference your system gave the customer." error={error?.param === "endUserRef" ? error.message : undefined} className="min-w-64 flex-1">
            {(p) => <Input {...p} name="endUserRef" type="search" defaultValue={params.endUserRef} placeholder="user-1234" maxLength={200} />}
          </Field>
          <div className="flex gap-2">
            <Button type="submit">Search</Button>
            {searched ? (
              <Link href="/dashboard/deposit-accounts" className="rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100">
                Clear
              </Link>
            ) : null}
          </div>
        </form>
      </Card>
      {error && error.param !== "endUserRef" ? <FormError message={error.code === "shop_not_found" ? "Deposit accounts belong to a shop, and this merchant has no active shop." : error.message} /> : null}
      <Card title="Accounts" id="deposit-accounts-list">
        {error ? (
          <EmptyState title="No deposit accounts to show" />
        ) : q.isPending ? (
          <Loading />
        ) : (
          <ResourceTable
            caption="Deposit accounts, newest first"
            rows={q.data?.accounts ?? []}
            rowKey={(a) => a.id}
            rowHref={(a) => `/dashboard/deposit-accounts/${a.id}`}
            rowProps={(a) => ({ "data-testid": "deposit-account-row", "data-account-id": a.id })}
            empty={
              searched
                ? { title: `No deposit account for ${params.endUserRef}`, body: "The end user reference must match exactly." }
                : { title: "No deposit accounts yet", body: "Accounts your integration issues to its end users appear here with their CLABE." }
            }
            columns={[
              {
                header: "End user",
                cell: (a) => (
                  <Link href={`/dashboard/deposit-accounts/${a.id}`} className="font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900">
                    {a.endUserRef}
                  </Link>
                ),
              },
              { header: "CLABE", cell: (a) => <span className="font-mono text-xs">{a.clabe}</span> },
              { header: "Beneficiary", wrap: true, cell: (a) => a.beneficiary.name },
              { header: "Method", wrap: true, cell: (a) => <span title={a.depositMethodId}>{methodName(a.methodName)}</span> },
              { header: "Status", cell: (a) => <StatusBadge of="depositAccount" status={a.status} /> },
              { header: "Deposits (credited / all)", align: "right", cell: (a) => <span className="tabular-nums">{a.stats ? `${a.stats.credited} / ${a.stats.deposits}` : "—"}</span> },
              { header: "Credited (USD)", align: "right", cell: (a) => (a.stats ? <Money amount={a.stats.totalUsd} currency="USD" /> : "—") },
              { header: "Created", cell: (a) => formatDateTime(a.createdAt) },
            ]}
            footer={<Pagination pagination={q.data?.pagination} href={href} label="Deposit account pages" />}
          />
        )}
      </Card>
    </>
  );
}
