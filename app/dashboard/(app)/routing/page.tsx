import type { Metadata } from "next";
import { requireDashboard } from "@/server/dashboard";
import { loadDashboardData } from "@/server/dashboard-loaders";
import { RoutingView } from "@/components/dashboard/pages/routing";

export const metadata: Metadata = { title: "Routing · Dashboard" };

export default async function RoutingPage() {
  const d = await requireDashboard();
  const initial = await loadDashboardData(d, "routing", {});
  return <RoutingView environment={d.environment} initial={initial} canEdit={d.can("manageRouting")} canTry={d.can("tryRouting")} />;
}
