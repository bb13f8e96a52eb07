import type { Metadata } from "next";
import { requireDashboard } from "@/server/dashboard";
import { listSubscriptions } from "@/lib/webhooks/subscriptions";
import { SUBSCRIBABLE_EVENT_TYPES } from "@/lib/platform/outbox/emit";
import { WebhooksView } from "@/components/dashboard/pages/webhooks";

export const metadata: Metadata = { title: "Webhooks · Dashboard" };

export default async function WebhooksPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const d = await requireDashboard();
  const raw = await searchParams;
  const params: Record<string, string> = { limit: "20", ...(typeof raw.offset === "string" ? { offset: raw.offset } : {}) };
  const initial = await listSubscriptions(d.ctx, params);
  return <WebhooksView environment={d.environment} params={params} initial={initial} eventTypes={[...SUBSCRIBABLE_EVENT_TYPES]} canManage={d.can("manageWebhooks") && d.can("seeSecrets")} />;
}
