import type { Metadata } from "next";
import { requireDashboard } from "@/server/dashboard";
import { listTopups } from "@/lib/topups/topups";
import { TopupsView } from "@/components/dashboard/pages/topups";

export const metadata: Metadata = { title: "Top-ups · Dashboard" };

export default async function TopupsPage() {
  const d = await requireDashboard();
  const initial = await listTopups(d.ctx, { limit: 20 });
  return <TopupsView environment={d.environment} initial={initial} canCreate={d.can("collect")} canSimulate={d.can("simulateCrypto")} />;
}
