// The delivery log and replay, and the managed inbox's list.
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { clampPage, envelope, listEnvelope, readPage } from "@/lib/platform/paging/pagination";
import { pageModel } from "@/lib/platform/paging/page-model";
import { findSubscription } from "@/lib/webhooks/subscriptions";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import type { InboxMessage, WebhookDelivery } from "@/lib/generated/prisma/client";

export function presentDelivery(d: WebhookDelivery, payload: unknown) {
  return {
    id: d.id,
    eventId: d.eventId,
    event: d.event,
    status: d.status as "pending" | "succeeded" | "failed",
    attempts: d.attempts,
    responseStatus: d.responseStatus,
    responseBody: d.responseBody,
    durationMs: d.durationMs,
    nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
    createdAt: d.createdAt.toISOString(),
    payload,
  };
}

async function payloads(eventIds: string[]): Promise<Map<string, unknown>> {
  const events = await db().event.findMany({ where: { id: { in: eventIds } }, select: { id: true, payload: true } });
  return new Map(events.map((e) => [e.id, e.payload]));
}

export async function listDeliveries(auth: AuthContext, id: string, query: { limit?: unknown; offset?: unknown; startingAfter?: string; endingBefore?: string; status?: string; event?: string }) {
  const s = await findSubscription(auth, id);
  const where = { subscriptionId: s.id, ...(query.status ? { status: query.status } : {}), ...(query.event ? { event: query.event } : {}) };
  const { rows, meta } = await pageModel<WebhookDelivery>(readPage(query), { model: db().webhookDelivery, name: "webhookDelivery", where, scope: { subscriptionId: s.id } });
  const p = await payloads(rows.map((r) => r.eventId));
  return listEnvelope(rows.map((r) => presentDelivery(r, p.get(r.eventId))), meta);
}

/** A new attempt now, whatever the delivery's state; it keeps its attempt count. */
export async function replayDelivery(auth: AuthContext, id: string, deliveryId: string) {
  const s = await findSubscription(auth, id);
  const d = await db().webhookDelivery.findFirst({ where: { id: deliveryId, subscriptionId: s.id } });
  if (!d) throw new AppError("webhook_delivery_not_found", `No delivery ${deliveryId} under subscription ${id}.`, { param: "deliveryId" });
  const updated = await db().webhookDelivery.update({ where: { id: d.id }, data: { status: "pending", nextAttemptAt: new Date(), lockedUntil: null } });
  return presentDelivery(updated, (await payloads([d.eventId])).get(d.eventId));
}

export async function listInbox(auth: AuthContext, id: string, query: { limit?: unknown; offset?: unknown; startingAfter?: string; endingBefore?: string }) {
  const s = await findSubscription(auth, id);
  const where = { subscriptionId: s.id };
  const { rows, meta } = await pageModel<InboxMessage>(readPage(query), { model: db().inboxMessage, name: "inboxMessage", where, scope: where, field: "receivedAt" });
  return listEnvelope(rows.map((m) => ({ id: m.id, deliveryId: m.deliveryId, event: m.event, payload: m.payload, receivedAt: m.receivedAt.toISOString() })), meta);
}
