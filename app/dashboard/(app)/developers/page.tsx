import type { Metadata } from "next";
import { requireDashboard } from "@/server/dashboard";
import { listKeys, recentRequests } from "@/lib/dashboard/queries";
import { DevelopersView } from "@/components/dashboard/pages/developers";

export const metadata: Metadata = { title: "Developers · Dashboard" };

export default async function DevelopersPage() {
  const d = await requireDashboard();
  const [keys, requests] = await Promise.all([listKeys(d.ctx), recentRequests(d.ctx)]);
  return <DevelopersView environment={d.environment} initialKeys={keys} initialRequests={requests} canRoll={d.can("seeSecrets")} canTestCascade={d.environment === "sandbox" && d.can("simulatePayment")} />;
}
