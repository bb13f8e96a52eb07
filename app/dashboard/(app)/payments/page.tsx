import type { Metadata } from "next";
import { requireDashboard } from "@/server/dashboard";
import { listPayments } from "@/lib/payments/list-payments";
import { listPaymentsQuery } from "@/lib/payments/schema";
import { parseWith } from "@/lib/platform/contract/validation";
import { AppError } from "@/lib/platform/errors";
import { PaymentsView } from "@/components/dashboard/pages/payments";

export const metadata: Metadata = { title: "Payments · Dashboard" };

const FILTERS = ["q", "status", "paymentMethodId", "country", "merchantOrderId", "method", "limit", "offset"] as const;

export default async function PaymentsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const d = await requireDashboard();
  const raw = await searchParams;
  const params: Record<string, string> = {};
  for (const k of FILTERS) {
    const v = raw[k];
    if (typeof v === "string" && v.trim() !== "") params[k] = v.trim();
  }
  try {
    const initial = await listPayments(d.ctx, parseWith(listPaymentsQuery, params, "query"));
    return <PaymentsView environment={d.environment} params={params} initial={initial} />;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return <PaymentsView environment={d.environment} params={params} initial={null} error={{ message: err.message, param: err.param }} />;
  }
}
