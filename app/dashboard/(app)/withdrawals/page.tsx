import type { Metadata } from "next";
import { requireDashboard } from "@/server/dashboard";
import { listWithdrawals } from "@/lib/withdrawals/list-withdrawals";
import { getSettlementDestination } from "@/lib/crypto-assets/settlement-destination";
import { loadDashboardData } from "@/server/dashboard-loaders";
import { WithdrawalsView } from "@/components/dashboard/pages/withdrawals";

export const metadata: Metadata = { title: "Withdrawals · Dashboard" };

export default async function WithdrawalsPage() {
  const d = await requireDashboard();
  const [initial, { destination }, balance] = await Promise.all([listWithdrawals(d.ctx, { limit: 20 }), getSettlementDestination(d.ctx), loadDashboardData(d, "balance", {})]);
  return (
    <WithdrawalsView
      environment={d.environment}
      initial={initial}
      destination={destination}
      initialBalance={balance}
      canWithdraw={d.can("moveMoney")}
      canSimulate={d.can("simulateCrypto")}
    />
  );
}
