// The events outbox: an event row is written in the same database transaction as the change it
// reports, so no event is lost and none exists for a change that rolled back. Delivery to
// merchants reads these rows later.
import { newId } from "@/lib/ids";
import type { Tx } from "@/lib/db";
import type { Environment } from "@/lib/generated/prisma/enums";
import { API_VERSION } from "@/lib/merchants/schema";

export const EVENT_TYPES = [
  "payment.completed",
  "payment.failed",
  "payment.refunded",
  "payment.captured",
  "chargeback.created",
  "claim.opened",
  "claim.resolved",
  "settlement.closed",
  "settlement.pdf_ready",
  "withdrawal.completed",
  "withdrawal.failed",
  "payout.completed",
  "payout.failed",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export async function emitEvent(tx: Tx, e: { merchantId: string; environment: Environment; type: EventType; object: unknown }): Promise<string> {
  const id = newId("event");
  const createdAt = new Date();
  const payload = { id, type: e.type, createdAt: createdAt.toISOString(), environment: e.environment, apiVersion: API_VERSION, data: { object: e.object } };
  await tx.event.create({ data: { id, merchantId: e.merchantId, environment: e.environment, type: e.type, payload: payload as object, createdAt } });
  return id;
}
