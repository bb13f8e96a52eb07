import type { Metadata } from "next";
import { requireDashboard } from "@/server/dashboard";
import { loadDashboardData } from "@/server/dashboard-loaders";
import { RoutingAnalyticsView } from "@/components/dashboard/pages/routing-analytics";

export const metadata: Metadata = { title: "Routing analytics · Dashboard" };

export default async function RoutingAnalyticsPage({ searchParams }: { searchParams: Promise<{ range?: string }> }) {
  const d = await requireDashboard();
  const asked = (await searchParams).range;
  const range = asked === "7d" || asked === "30d" ? asked : "24h";
  const initial = await loadDashboardData(d, "routing-analytics", { range });
  return <RoutingAnalyticsView environment={d.environment} initial={initial} range={range} />;
}
