import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireDashboard } from "@/server/dashboard";
import { dashboardTitle } from "@/server/dashboard-locale";
import { mandateWithCharges } from "@/lib/dashboard/subscriptions";
import { AppError } from "@/lib/platform/errors";
import { MandateDetailView } from "@/components/dashboard/pages/mandate-detail";

export const generateMetadata = (): Promise<Metadata> => dashboardTitle((t) => t.subscription);

export default async function MandatePage({ params }: { params: Promise<{ id: string }> }) {
  const d = await requireDashboard();
  const { id } = await params;
  let initial;
  try {
    initial = await mandateWithCharges(d.ctx, id);
  } catch (err) {
    // Another merchant's mandate (or the other environment's) is the same 404 as an unknown one.
    if (err instanceof AppError && err.code === "mandate_not_found") notFound();
    throw err;
  }
  return <MandateDetailView environment={d.environment} initial={initial} canCancel={d.can("collect")} canSimulate={d.can("simulateMandate")} />;
}
