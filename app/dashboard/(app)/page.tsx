import type { Metadata } from "next";
import { requireDashboard } from "@/server/dashboard";
import { overview } from "@/lib/dashboard/queries";
import { OverviewView } from "@/components/dashboard/pages/overview";

export const metadata: Metadata = { title: "Overview · Dashboard" };

export default async function OverviewPage() {
  const d = await requireDashboard();
  return <OverviewView environment={d.environment} initial={await overview(d.ctx)} />;
}
