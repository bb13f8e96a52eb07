// POST /webhooks/{id}/test (sandbox) and the dashboard's "Send a test event": a `webhook.test`
// event whose `data.object` is the subscription as GET /webhooks/{id} returns it, delivered to
// that one subscription only, whatever its events list says, through the normal pipeline
// (signed with its secrets, retried, logged in its deliveries, stored by a managed inbox). The
// event row and its delivery commit together; the event is marked fanned out in the same
// transaction, so the fan-out job never offers it to the merchant's other subscriptions.
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { emitEvent } from "@/lib/platform/outbox/emit";
import { JOB_SIGNALS, wakeJobs } from "@/lib/platform/outbox/wake";
import { findSubscription, presentSubscription } from "@/lib/webhooks/subscriptions";
import { presentDelivery } from "@/lib/webhooks/deliveries";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

export const TEST_EVENT_TYPE = "webhook.test";

export async function sendTestEvent(auth: AuthContext, id: string) {
  const s = await findSubscription(auth, id);
  if (s.status !== "enabled") throw new AppError("invalid_request", `Webhook subscription ${id} is disabled: enable it to send it a test event.`, { param: "id" });
  const { delivery, payload } = await db().$transaction(async (tx) => {
    const now = new Date();
    const eventId = await emitEvent(tx, { merchantId: s.merchantId, environment: s.environment, type: TEST_EVENT_TYPE, object: presentSubscription(s), shopId: s.shopId });
    const event = await tx.event.update({ where: { id: eventId }, data: { fannedOutAt: now }, select: { payload: true } });
    const delivery = await tx.webhookDelivery.create({ data: { id: newId("delivery"), subscriptionId: s.id, eventId, event: TEST_EVENT_TYPE, nextAttemptAt: now } });
    return { delivery, payload: event.payload };
  });
  wakeJobs(JOB_SIGNALS.webhooksDue);
  return presentDelivery(delivery, payload);
}
