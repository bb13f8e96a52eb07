import type { Metadata } from "next";
import { requireDashboard } from "@/server/dashboard";
import { listShops } from "@/lib/merchants/list-shops";
import { ShopsView } from "@/components/dashboard/pages/shops";
import { PageHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/table";

export const metadata: Metadata = { title: "Shops · Dashboard" };

export default async function ShopsPage() {
  const d = await requireDashboard();
  if (!d.can("seeShops")) {
    return (
      <>
        <PageHeader title="Shops" />
        <EmptyState title="Only owners see the shops" />
      </>
    );
  }
  return <ShopsView shops={await listShops(d.ctx)} environment={d.environment} timeZone={d.merchant.timeZone} />;
}
