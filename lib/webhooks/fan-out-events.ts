// Fan-out: every event row gets one delivery per subscription that wants it (enabled, not
// deleted, its events list names the type or "*", and it covers the event's shop: a shop's
// subscription gets that shop's events and the merchant's own, an all-shops one every event). Events are claimed with SKIP LOCKED, and the
// (subscription, event) unique key makes a repeated fan-out harmless.
import { db } from "@/lib/platform/db";
import { newId } from "@/lib/platform/ids";

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
        .map((s) => ({ id: newId("delivery"), subscriptionId: s.id, eventId: e.id, event: e.type })),
    );
    // Column arrays rather than a row of parameters per value: a batch of a thousand events is one
    // small statement to plan (bench:webhooks; createMany spent more than the deliveries did).
    if (rows.length) {
      await tx.$executeRaw`
        INSERT INTO webhook_deliveries (id, subscription_id, event_id, event, next_attempt_at, updated_at)
        SELECT r.id, r.subscription_id, r.event_id, r.event, ${now}::timestamptz, ${now}::timestamptz
        FROM unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.subscriptionId)}::text[], ${rows.map((r) => r.eventId)}::text[], ${rows.map((r) => r.event)}::text[])
          AS r(id, subscription_id, event_id, event)
        ON CONFLICT (subscription_id, event_id) DO NOTHING`;
    }
    await tx.$executeRaw`UPDATE events SET fanned_out_at = ${now}::timestamptz WHERE id = ANY(${events.map((e) => e.id)}::text[])`;
    return rows.length;
  });
}
