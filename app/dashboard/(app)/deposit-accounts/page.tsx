import type { Metadata } from "next";
import { requireDashboard, withShop } from "@/server/dashboard";
import { listDepositAccounts } from "@/lib/deposits/list-accounts";
import { listAccountsQuery } from "@/lib/deposits/schema";
import { parseWith } from "@/lib/platform/contract/validation";
import { AppError } from "@/lib/platform/errors";
import { DepositAccountsView } from "@/components/dashboard/pages/deposit-accounts";

export const metadata: Metadata = { title: "Deposit accounts · Dashboard" };

const PAGE_SIZE = "20";

export default async function DepositAccountsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const d = await requireDashboard();
  const raw = await searchParams;
  const params: Record<string, string> = { include: "stats", limit: PAGE_SIZE };
  for (const k of ["endUserRef", "offset"] as const) {
    const v = raw[k];
    if (typeof v === "string" && v.trim() !== "") params[k] = v.trim();
  }
  try {
    // Deposit accounts belong to a shop (4.6); the dashboard shows the merchant's first shop's.
    const ctx = await withShop(d);
    const initial = await listDepositAccounts(ctx, parseWith(listAccountsQuery, params, "query"));
    return <DepositAccountsView environment={d.environment} shopName={ctx.shop!.name} params={params} initial={initial} canCreateTest={d.can("createTestDepositAccount")} />;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return <DepositAccountsView environment={d.environment} shopName={null} params={params} initial={null} error={{ code: err.code, message: err.message, param: err.param }} />;
  }
}
