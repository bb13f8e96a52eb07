import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireDashboard } from "@/server/dashboard";
import { getPayout } from "@/lib/payouts/list-payouts";
import { AppError } from "@/lib/platform/errors";
import { PayoutDetailView } from "@/components/dashboard/pages/payout-detail";

export const metadata: Metadata = { title: "Payout · Dashboard" };

export default async function PayoutPage({ params }: { params: Promise<{ id: string }> }) {
  const d = await requireDashboard();
  const { id } = await params;
  let initial;
  try {
    initial = await getPayout(d.ctx, id);
  } catch (err) {
    // Another merchant's payout (or the other environment's) is the same 404 as an unknown one.
    if (err instanceof AppError && err.code === "payout_not_found") notFound();
    throw err;
  }
  return <PayoutDetailView environment={d.environment} id={id} initial={initial} canMoveMoney={d.can("moveMoney")} />;
}
