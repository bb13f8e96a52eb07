import type { Metadata } from "next";
import { requireDashboard } from "@/server/dashboard";
import { loadDashboardData } from "@/server/dashboard-loaders";
import { AppError } from "@/lib/platform/errors";
import { PayoutsView } from "@/components/dashboard/pages/payouts";

export const metadata: Metadata = { title: "Payouts · Dashboard" };

const PAGE_SIZE = "20";

export default async function PayoutsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const d = await requireDashboard();
  const raw = await searchParams;
  const params: Record<string, string> = { limit: PAGE_SIZE };
  for (const k of ["status", "offset"] as const) {
    const v = raw[k];
    if (typeof v === "string" && v.trim() !== "") params[k] = v.trim();
  }
  const balance = await loadDashboardData(d, "payout-balance", {});
  let list = null;
  let error;
  try {
    list = await loadDashboardData(d, "payouts", params);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    error = { message: err.message, param: err.param };
  }
  return <PayoutsView environment={d.environment} canMoveMoney={d.can("moveMoney")} params={params} initialBalance={balance} initialList={list} listError={error} />;
}
