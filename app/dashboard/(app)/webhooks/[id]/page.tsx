import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireDashboard } from "@/server/dashboard";
import { findSubscription, presentSubscription } from "@/lib/webhooks/subscriptions";
import { listDeliveries, listInbox } from "@/lib/webhooks/deliveries";
import { SUBSCRIBABLE_EVENT_TYPES } from "@/lib/platform/outbox/emit";
import { AppError } from "@/lib/platform/errors";
import { WebhookDetailView } from "@/components/dashboard/pages/webhook-detail";

export const metadata: Metadata = { title: "Webhook · Dashboard" };

export default async function WebhookPage({ params }: { params: Promise<{ id: string }> }) {
  const d = await requireDashboard();
  const { id } = await params;
  let sub;
  try {
    sub = await findSubscription(d.ctx, id);
  } catch (err) {
    if (err instanceof AppError && err.code === "webhook_not_found") notFound();
    throw err;
  }
  const [deliveries, inbox] = await Promise.all([listDeliveries(d.ctx, id, { limit: 20 }), sub.managed ? listInbox(d.ctx, id, { limit: 20 }) : null]);
  return (
    <WebhookDetailView
      environment={d.environment}
      subscription={presentSubscription(sub)}
      initialDeliveries={deliveries}
      initialInbox={inbox}
      eventTypes={[...SUBSCRIBABLE_EVENT_TYPES]}
      canManage={d.can("manageWebhooks")}
      canSeeSecrets={d.can("seeSecrets")}
      canSendTest={d.can("sendTestEvent")}
    />
  );
}
