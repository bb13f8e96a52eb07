import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireDashboard } from "@/server/dashboard";
import { paymentDetail } from "@/lib/dashboard/queries";
import { AppError } from "@/lib/platform/errors";
import { PaymentDetailView } from "@/components/dashboard/pages/payment-detail";

export const metadata: Metadata = { title: "Payment · Dashboard" };

export default async function PaymentPage({ params }: { params: Promise<{ id: string }> }) {
  const d = await requireDashboard();
  const { id } = await params;
  let initial;
  try {
    initial = await paymentDetail(d.ctx, id);
  } catch (err) {
    // Another merchant's payment is the same 404 as an unknown one.
    if (err instanceof AppError && err.code === "transaction_not_found") notFound();
    throw err;
  }
  return <PaymentDetailView environment={d.environment} id={id} initial={initial} canMoveMoney={d.can("moveMoney")} />;
}
