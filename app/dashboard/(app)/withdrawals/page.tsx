import type { Metadata } from "next";
import { requireDashboard } from "@/server/dashboard";
import { listWithdrawals } from "@/lib/withdrawals/list-withdrawals";
import { getSettlementDestination } from "@/lib/crypto-assets/settlement-destination";
import { getBalance } from "@/lib/ledger/get-balance";
import { WithdrawalsView } from "@/components/dashboard/pages/withdrawals";

export const metadata: Metadata = { title: "Withdrawals · Dashboard" };

export default async function WithdrawalsPage() {
  const d = await requireDashboard();
  const [initial, { destination }, balance] = await Promise.all([listWithdrawals(d.ctx, { limit: 20 }), getSettlementDestination(d.ctx), getBalance(d.ctx)]);
  return (
    <WithdrawalsView
      environment={d.environment}
      initial={initial}
      destination={destination}
      availableUsd={balance.balance.available}
      feeUsd={balance.withdrawalFeeUsd}
      canWithdraw={d.can("moveMoney")}
      canSimulate={d.can("simulateCrypto")}
    />
  );
}
