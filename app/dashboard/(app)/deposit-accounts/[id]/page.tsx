import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireDashboard, withShop } from "@/server/dashboard";
import { getDepositAccount } from "@/lib/deposits/list-accounts";
import { listDeposits } from "@/lib/deposits/list-deposits";
import { AppError } from "@/lib/platform/errors";
import { DepositAccountDetailView } from "@/components/dashboard/pages/deposit-account-detail";

export const metadata: Metadata = { title: "Deposit account · Dashboard" };

export default async function DepositAccountPage({ params }: { params: Promise<{ id: string }> }) {
  const d = await requireDashboard();
  const { id } = await params;
  let account, deposits;
  try {
    const ctx = await withShop(d);
    [{ account }, deposits] = await Promise.all([getDepositAccount(ctx, id), listDeposits(ctx, id, { limit: 20 })]);
  } catch (err) {
    // Another merchant's (or shop's, or environment's) account is the same 404 as an unknown one.
    if (err instanceof AppError && (err.code === "deposit_account_not_found" || err.code === "shop_not_found")) notFound();
    throw err;
  }
  return <DepositAccountDetailView environment={d.environment} id={id} initialAccount={account} initialDeposits={deposits} canMoveMoney={d.can("moveMoney")} />;
}
