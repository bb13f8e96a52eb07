import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { requireDashboard } from "@/server/dashboard";
import { loadDashboardData } from "@/server/dashboard-loaders";
import { PayoutSendView } from "@/components/dashboard/pages/payout-send";

export const metadata: Metadata = { title: "Send a payout · Payouts · Dashboard" };

export default async function PayoutSendPage() {
  const d = await requireDashboard();
  if (!d.can("moveMoney")) redirect("/dashboard/payouts");
  const [balance, methods] = await Promise.all([loadDashboardData(d, "payout-balance", {}), loadDashboardData(d, "payout-methods", {})]);
  return <PayoutSendView environment={d.environment} initialBalance={balance} initialMethods={methods} />;
}
