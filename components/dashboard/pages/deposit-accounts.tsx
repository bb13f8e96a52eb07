"use client";
// Deposit accounts (CLABE) of the merchant's shop: search by endUserRef, newest first, with each
// account's deposit stats. Reads GET /dashboard/api/deposit-accounts (the API's list use case).
import Link from "next/link";
import type { z } from "zod";
import { useDashboardData } from "@/components/dashboard/use-dashboard-data";
import { Card, PageHeader } from "@/components/ui/card";
import { Field, FormError, Input } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { EmptyState, Loading, Table, Td, Th } from "@/components/ui/table";
import { Pagination } from "@/components/ui/pagination";
import { StatusBadge } from "@/components/ui/badge";
import { Money, formatDateTime } from "@/components/ui/money";
import type { depositAccount } from "@/lib/deposits/schema";

export type DepositAccount = z.infer<typeof depositAccount>;
type Envelope = { accounts: DepositAccount[]; pagination?: { total: number; limit: number; offset: number; pages: number } };

export function DepositAccountsView({
  environment,
  shopName,
  params,
  initial,
  error,
}: {
  environment: string;
  shopName: string | null;
  params: Record<string, string>;
  initial: Envelope | null;
  error?: { code: string; message: string; param?: string };
}) {
  const q = useDashboardData<Envelope>(environment, "deposit-accounts", params, { initialData: initial ?? undefined, refetchInterval: 5_000, enabled: !error });
  const { limit: _l, include: _i, ...linkParams } = params;
  const href = (offset: number) => `/dashboard/deposit-accounts?${new URLSearchParams({ ...linkParams, offset: String(offset) })}`;
  const searched = Boolean(params.endUserRef);
  return (
    <>
      <PageHeader
        title="Deposit accounts"
        description={shopName ? `CLABEs issued to your end users by ${shopName}, newest first. Create them with POST /api/v1/me/deposit-accounts.` : "CLABEs issued to your end users."}
      />
      <Card className="mb-6" title="Search" id="deposit-search">
        <form method="get" action="/dashboard/deposit-accounts" role="search" aria-label="Search deposit accounts" className="flex flex-wrap items-end gap-4">
          <Field label="End user (endUserRef)" error={error?.param === "endUserRef" ? error.message : undefined} className="min-w-64 flex-1">
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
        ) : q.data && q.data.accounts.length > 0 ? (
          <>
            <Table caption="Deposit accounts, newest first">
              <thead>
                <tr>
                  <Th>End user</Th>
                  <Th>CLABE</Th>
                  <Th>Beneficiary</Th>
                  <Th>Method</Th>
                  <Th>Status</Th>
                  <Th className="text-right">Deposits (credited / all)</Th>
                  <Th className="text-right">Credited (USD)</Th>
                  <Th>Created</Th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {q.data.accounts.map((a) => (
                  <tr key={a.id} data-testid="deposit-account-row" data-account-id={a.id}>
                    <Td>
                      <Link href={`/dashboard/deposit-accounts/${a.id}`} className="font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900">
                        {a.endUserRef}
                      </Link>
                    </Td>
                    <Td className="font-mono text-xs">{a.clabe}</Td>
                    <Td>{a.beneficiary.name}</Td>
                    <Td>{a.methodName}</Td>
                    <Td>
                      <StatusBadge status={a.status} />
                    </Td>
                    <Td className="text-right tabular-nums">{a.stats ? `${a.stats.credited} / ${a.stats.deposits}` : "—"}</Td>
                    <Td className="text-right">{a.stats ? <Money amount={a.stats.totalUsd} currency="USD" /> : "—"}</Td>
                    <Td>{formatDateTime(a.createdAt)}</Td>
                  </tr>
                ))}
              </tbody>
            </Table>
            <Pagination pagination={q.data.pagination} href={href} label="Deposit account pages" />
          </>
        ) : (
          <EmptyState title={searched ? `No deposit account for ${params.endUserRef}` : "No deposit accounts yet"}>
            {searched ? "endUserRef must match exactly." : "Issue one with POST /api/v1/me/deposit-accounts (a shop-bound key)."}
          </EmptyState>
        )}
      </Card>
    </>
  );
}
