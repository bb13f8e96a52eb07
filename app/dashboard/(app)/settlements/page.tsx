import type { Metadata } from "next";
import { requireDashboard } from "@/server/dashboard";
import { listSettlements } from "@/lib/settlements/list-settlements";
import { getSettlementDestination } from "@/lib/crypto-assets/settlement-destination";
import { SettlementsView } from "@/components/dashboard/pages/settlements";

export const metadata: Metadata = { title: "Settlements · Dashboard" };

export default async function SettlementsPage() {
  const d = await requireDashboard();
  const [initial, { destination }] = await Promise.all([listSettlements(d.ctx, { limit: 20 }), getSettlementDestination(d.ctx)]);
  return <SettlementsView environment={d.environment} initial={initial} destination={destination} canRun={d.can("runSettlement")} canSettle={d.can("settleNow")} canSimulate={d.can("simulateCrypto")} canManage={d.can("manageSettlements")} />;
}
