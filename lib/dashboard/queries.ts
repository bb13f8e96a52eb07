// Read models of the dashboard's pages. Each takes the signed-in dashboard's AuthContext and
// calls the API's own use cases where one exists; the few reads only the dashboard needs (daily
// series, a payment's events, key listing) are here, scoped by merchant and environment.
import { db, sql } from "@/lib/db";
import { toMajor } from "@/lib/money/amount";
import { getBalance } from "@/lib/ledger/get-balance";
import { getPayment, listPayments } from "@/lib/payments/list-payments";
import { listClaims } from "@/lib/claims/list-claims";
import { presentDelivery } from "@/lib/webhooks/deliveries";
import { listRecentRequests } from "@/lib/http/request-log";
import { maskKey } from "@/lib/auth/keys";
import type { AuthContext } from "@/lib/auth/authenticate";

export type DailyPoint = { day: string; volume: number; payments: number; succeeded: number; successRate: number | null };

/** The last `days` days (UTC), oldest first: USD volume of completed payments, and success rate. */
export async function dailySeries(auth: AuthContext, days = 30): Promise<DailyPoint[]> {
  const since = new Date(Date.now() - (days - 1) * 86_400_000);
  since.setUTCHours(0, 0, 0, 0);
  const rows = await sql<{ day: Date; n: string; ok: string; volume: string | null }>(
    `SELECT date_trunc('day', created_at AT TIME ZONE 'UTC') AS day, count(*) AS n,
            count(*) FILTER (WHERE completed_at IS NOT NULL) AS ok,
            sum(amount_usd) FILTER (WHERE completed_at IS NOT NULL) AS volume
       FROM transactions WHERE merchant_id = $1 AND environment = $2::"Environment" AND created_at >= $3
      GROUP BY 1 ORDER BY 1`,
    [auth.merchant.id, auth.environment, since],
  );
  const byDay = new Map(rows.map((r) => [new Date(r.day).toISOString().slice(0, 10), r]));
  const out: DailyPoint[] = [];
  for (let i = 0; i < days; i++) {
    const day = new Date(since.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    const r = byDay.get(day);
    const n = Number(r?.n ?? 0);
    const ok = Number(r?.ok ?? 0);
    out.push({ day, volume: toMajor(BigInt(r?.volume ?? 0), "USD"), payments: n, succeeded: ok, successRate: n ? Math.round((ok / n) * 1000) / 10 : null });
  }
  return out;
}

export async function overview(auth: AuthContext) {
  const [balance, series, recent] = await Promise.all([getBalance(auth), dailySeries(auth), listPayments(auth, { limit: 8 })]);
  return { balance, series, recent: recent.data };
}
export type Overview = Awaited<ReturnType<typeof overview>>;

/** A payment with what the detail page shows beside it: claims, events, webhook deliveries. */
export async function paymentDetail(auth: AuthContext, id: string) {
  const payment = await getPayment(auth, id);
  const [claims, events] = await Promise.all([
    listClaims(auth, { transactionId: id, limit: 100 }),
    db().event.findMany({
      where: {
        merchantId: auth.merchant.id,
        environment: auth.environment,
        createdAt: { gte: new Date(payment.timestamps.created) },
        OR: [{ payload: { path: ["data", "object", "id"], equals: id } }, { payload: { path: ["data", "object", "transactionId"], equals: id } }],
      },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: 100,
      select: { id: true, type: true, createdAt: true },
    }),
  ]);
  const deliveries = events.length
    ? await db().webhookDelivery.findMany({
        where: { eventId: { in: events.map((e) => e.id) }, subscription: { merchantId: auth.merchant.id, environment: auth.environment } },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        take: 200,
      })
    : [];
  return {
    payment,
    claims: claims.data,
    events: events.map((e) => ({ id: e.id, type: e.type, createdAt: e.createdAt.toISOString() })),
    deliveries: deliveries.map((d) => ({ ...presentDelivery(d, undefined), subscriptionId: d.subscriptionId })),
  };
}
export type PaymentDetail = Awaited<ReturnType<typeof paymentDetail>>;

/** Key pairs of every shop in the environment: publishable keys in full, secrets as a preview. */
export async function listKeys(auth: AuthContext) {
  const pairs = await db().apiKeyPair.findMany({
    where: { merchantId: auth.merchant.id, environment: auth.environment, revokedAt: null },
    orderBy: [{ createdAt: "asc" }],
    select: { id: true, shopId: true, publishableKey: true, secretPreview: true, rolledAt: true, createdAt: true, shop: { select: { name: true } } },
  });
  return pairs.map((p) => ({
    id: p.id,
    shopId: p.shopId,
    shopName: p.shop?.name ?? "(merchant-wide)",
    publishableKey: p.publishableKey,
    secretPreview: maskKey("secret", auth.environment, p.secretPreview),
    rolledAt: p.rolledAt?.toISOString() ?? null,
    createdAt: p.createdAt.toISOString(),
  }));
}

export function recentRequests(auth: AuthContext, limit = 50) {
  return listRecentRequests({ merchantId: auth.merchant.id, environment: auth.environment }, limit);
}
