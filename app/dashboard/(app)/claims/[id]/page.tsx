import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireDashboard } from "@/server/dashboard";
import { dashboardTitle } from "@/server/dashboard-locale";
import { getClaim } from "@/lib/claims/get-claim";
import { AppError } from "@/lib/platform/errors";
import { ClaimDetailView } from "@/components/dashboard/pages/claim-detail";

export const generateMetadata = (): Promise<Metadata> => dashboardTitle((t) => t.claim);

export default async function ClaimPage({ params }: { params: Promise<{ id: string }> }) {
  const d = await requireDashboard();
  const { id } = await params;
  let initial;
  try {
    initial = await getClaim(d.ctx, id);
  } catch (err) {
    // Another merchant's claim (or the other environment's) is the same 404 as an unknown one.
    if (err instanceof AppError && err.code === "claim_not_found") notFound();
    throw err;
  }
  return <ClaimDetailView environment={d.environment} initial={initial} canRespond={d.can("respondToDisputes")} canSimulate={d.can("simulateDispute")} />;
}
