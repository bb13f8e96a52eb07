// The events outbox: an event row is written in the same database transaction as the change it
// reports, so no event is lost and none exists for a change that rolled back. Delivery to
// merchants reads these rows later.
import { newId } from "@/lib/platform/ids";
import type { Tx } from "@/lib/platform/db";
import type { Environment } from "@/lib/generated/prisma/enums";
import { API_VERSION } from "@/lib/platform/contract/version";

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
  "mandate.authorized",
  "mandate.rejected",
  "mandate.cancelled",
  "mandate.expired",
  "webhook.test",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** What a subscription may list: every type but `webhook.test`, which is sent on request to one subscription only. */
export const SUBSCRIBABLE_EVENT_TYPES = EVENT_TYPES.filter((t): t is Exclude<EventType, "webhook.test"> => t !== "webhook.test");

const objectOf = (o: unknown) => (o && typeof o === "object" ? (o as { id?: unknown; status?: unknown }) : {});

/**
 * Writes the event. `data` carries, beside the object, `sequence` (1, 2, … among the events of
 * that object, so a receiver can order deliveries that arrive out of order) and `previousStatus`
 * (the object's status before this change: the caller's, or the status the object had in its
 * previous event). The caller holds the object's row lock, so two events of one object never
 * take the same sequence.
 */
export async function emitEvent(tx: Tx, e: { merchantId: string; environment: Environment; type: EventType; object: unknown; previousStatus?: string | null; data?: Record<string, unknown>; shopId?: string | null }): Promise<string> {
  const id = newId("event");
  const createdAt = new Date();
  const objectId = typeof objectOf(e.object).id === "string" ? (objectOf(e.object).id as string) : null;
  let sequence = 1;
  let previousStatus = e.previousStatus ?? null;
  if (objectId) {
    const last = await tx.event.findFirst({
      where: { merchantId: e.merchantId, environment: e.environment, objectId },
      orderBy: { sequence: "desc" },
      select: { sequence: true, payload: true },
    });
    if (last) {
      sequence = (last.sequence ?? 0) + 1;
      if (e.previousStatus === undefined) {
        const s = objectOf((last.payload as { data?: { object?: unknown } } | null)?.data?.object).status;
        previousStatus = typeof s === "string" ? s : null;
      }
    }
  }
  const shopId = e.shopId !== undefined ? e.shopId : await shopOfObject(tx, e.type, objectId);
  const payload = { id, type: e.type, createdAt: createdAt.toISOString(), environment: e.environment, apiVersion: API_VERSION, data: { object: e.object, previousStatus, sequence, ...e.data } };
  await tx.event.create({ data: { id, merchantId: e.merchantId, environment: e.environment, type: e.type, payload: payload as object, objectId, sequence, shopId, createdAt } });
  return id;
}

/**
 * The fallback when the caller did not say (the kernel passes its operation's shop): the shop an
 * event's object belongs to, read in the emitting transaction: a payment's shop, its
 * claim's (refund or chargeback) payment's shop, the shop of the key that sent a payout. Null for
 * the merchant's own objects (settlements, withdrawals, merchant-wide payouts): those reach every
 * key and subscription of the merchant (decisions.md, Shops).
 */
async function shopOfObject(tx: Tx, type: EventType, objectId: string | null): Promise<string | null> {
  if (!objectId) return null;
  if (type.startsWith("payment.")) return (await tx.transaction.findUnique({ where: { id: objectId }, select: { shopId: true } }))?.shopId ?? null;
  if (type.startsWith("claim.") || type.startsWith("chargeback.")) {
    const claim = await tx.claim.findUnique({ where: { id: objectId }, select: { transaction: { select: { shopId: true } } } });
    return claim?.transaction?.shopId ?? null;
  }
  if (type.startsWith("mandate.")) return (await tx.mandate.findUnique({ where: { id: objectId }, select: { shopId: true } }))?.shopId ?? null;
  if (type.startsWith("payout.")) return (await tx.payout.findUnique({ where: { id: objectId }, select: { shopId: true } }))?.shopId ?? null;
  return null;
}
