// Fan-out: every event row gets one delivery per subscription that wants it (enabled, not
// deleted, its events list names the type or "*", and it covers the event's shop: a shop's
// subscription gets that shop's events and the merchant's own, an all-shops one every event). Events are claimed with SKIP LOCKED, and the
// (subscription, event) unique key makes a repeated fan-out harmless.
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";

export async function fanOutEvents(opts: { limit?: number } = {}): Promise<number> {
  return db().$transaction(async (tx) => {
    const events = await tx.$queryRaw<{ id: string; merchant_id: string; environment: string; type: string; shop_id: string | null }[]>`
      SELECT id, merchant_id, environment, type, shop_id FROM events WHERE fanned_out_at IS NULL
      ORDER BY created_at LIMIT ${opts.limit ?? 200} FOR UPDATE SKIP LOCKED`;
    if (events.length === 0) return 0;
    const merchants = [...new Set(events.map((e) => e.merchant_id))];
    const subs = await tx.webhookSubscription.findMany({ where: { merchantId: { in: merchants }, status: "enabled", deletedAt: null }, select: { id: true, merchantId: true, environment: true, events: true, shopId: true } });
    const now = new Date();
    const rows = events.flatMap((e) =>
      subs
        .filter((s) => s.merchantId === e.merchant_id && s.environment === e.environment && (s.events.includes("*") || s.events.includes(e.type)) && (s.shopId === null || e.shop_id === null || s.shopId === e.shop_id))
        .map((s) => ({ id: newId("delivery"), subscriptionId: s.id, eventId: e.id, event: e.type, nextAttemptAt: now })),
    );
    if (rows.length) await tx.webhookDelivery.createMany({ data: rows, skipDuplicates: true });
    await tx.event.updateMany({ where: { id: { in: events.map((e) => e.id) } }, data: { fannedOutAt: now } });
    return rows.length;
  });
}
