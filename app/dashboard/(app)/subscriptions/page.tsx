import type { Metadata } from "next";
import { requireDashboard } from "@/server/dashboard";
import { dashboardTitle } from "@/server/dashboard-locale";
import { listMandatesWithNextCharge } from "@/lib/dashboard/subscriptions";
import { MANDATE_STATUSES } from "@/lib/mandates/schema";
import { SubscriptionsView } from "@/components/dashboard/pages/subscriptions";

export const generateMetadata = (): Promise<Metadata> => dashboardTitle((t) => t.subscriptions);

export default async function SubscriptionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const d = await requireDashboard();
  const raw = await searchParams;
  const status = typeof raw.status === "string" && (MANDATE_STATUSES as readonly string[]).includes(raw.status) ? (raw.status as (typeof MANDATE_STATUSES)[number]) : undefined;
  const params: Record<string, string> = {};
  if (status) params.status = status;
  if (typeof raw.offset === "string") params.offset = raw.offset;
  const initial = await listMandatesWithNextCharge(d.ctx, { status, offset: params.offset, limit: 25 });
  return <SubscriptionsView environment={d.environment} params={{ ...params, limit: "25" }} initial={initial} />;
}
