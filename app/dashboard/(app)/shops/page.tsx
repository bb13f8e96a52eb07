import type { Metadata } from "next";
import { requireDashboard } from "@/server/dashboard";
import { listShops } from "@/lib/merchants/list-shops";
import { shopInstallmentPlans } from "@/lib/dashboard/installment-plans";
import { ShopsView } from "@/components/dashboard/pages/shops";
import { ShopInstallments } from "@/components/dashboard/pages/shop-installments";
import { Card, PageHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/table";

export const metadata: Metadata = { title: "Shops · Dashboard" };

export default async function ShopsPage() {
  const d = await requireDashboard();
  const shops = await listShops(d.ctx);
  const installments = Object.fromEntries(await Promise.all(shops.map(async (s) => [s.id, await shopInstallmentPlans(s.id, d.environment)] as const)));
  if (!d.can("seeShops")) {
    // Keys and methods are the owners'; the installment plans buyers are offered anyone may read.
    return (
      <>
        <PageHeader title="Shops" />
        <EmptyState title="Only owners see the shops' keys and payment methods" />
        <div className="mt-6 space-y-6">
          {shops.map((s) =>
            installments[s.id]?.length ? (
              <Card key={s.id} id={`shop-${s.id}`} title={s.name}>
                <ShopInstallments shopId={s.id} plans={installments[s.id]!} canEdit={false} />
              </Card>
            ) : null,
          )}
        </div>
      </>
    );
  }
  return <ShopsView shops={shops} installments={installments} canEditInstallments={d.can("manageInstallments")} environment={d.environment} timeZone={d.merchant.timeZone} />;
}
