import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { requireDashboard } from "@/server/dashboard";
import { loadDashboardData } from "@/server/dashboard-loaders";
import { PayoutFundingView } from "@/components/dashboard/pages/payout-funding";

export const metadata: Metadata = { title: "Add funds · Payouts · Dashboard" };

export default async function PayoutFundingPage() {
  const d = await requireDashboard();
  // A role that cannot move money has nothing to do here: its payouts tab is the list.
  if (!d.can("moveMoney")) redirect("/dashboard/payouts");
  const [balance, methods] = await Promise.all([loadDashboardData(d, "payout-balance", {}), loadDashboardData(d, "payout-methods", {})]);
  return <PayoutFundingView environment={d.environment} initialBalance={balance} initialMethods={methods} />;
}
