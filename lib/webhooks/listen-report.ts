// What the laptop's endpoint answered to a delivery `listen` forwarded: it becomes the delivery's
// last answer in the listen inbox's log (succeeded on a 2xx, failed otherwise; a replay forwards
// it again).
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { presentDelivery } from "@/lib/webhooks/deliveries";
import { listenSubscription } from "@/lib/webhooks/listen-stream";
import { RESPONSE_LIMIT } from "@/lib/webhooks/outbound";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

export async function reportListenResult(auth: AuthContext, deliveryId: string, input: { status: number | null; body: string; durationMs: number; forwardedTo: string }) {
  const s = await listenSubscription(auth);
  const d = await db().webhookDelivery.findFirst({ where: { id: deliveryId, subscriptionId: s.id } });
  if (!d) throw new AppError("webhook_delivery_not_found", `No delivery ${deliveryId} in the listen inbox.`, { param: "deliveryId" });
  const ok = input.status !== null && input.status >= 200 && input.status < 300;
  const answer = input.status === null ? `request failed (${input.forwardedTo}): ${input.body}` : input.body;
  const updated = await db().webhookDelivery.update({
    where: { id: d.id },
    data: { status: ok ? "succeeded" : "failed", responseStatus: input.status, responseBody: answer.slice(0, RESPONSE_LIMIT), durationMs: input.durationMs, nextAttemptAt: null, lockedUntil: null },
  });
  const event = await db().event.findFirst({ where: { id: d.eventId }, select: { payload: true } });
  return presentDelivery(updated, event?.payload);
}
