// Read models of the dashboard's pages. Each takes the signed-in dashboard's AuthContext and
// calls the API's own use cases where one exists; the few reads only the dashboard needs (daily
// series, a payment's events, key listing) are here, scoped by merchant and environment.
import { db } from "@/lib/platform/db";
import { toMajor } from "@/lib/money/amount";
import { getBalance } from "@/lib/ledger/get-balance";
import { getPayment } from "@/lib/payments/get-payment";
import { recentPayments } from "@/lib/payments/recent-payments";
import { listClaims } from "@/lib/claims/list-claims";
import { refundableLocal } from "@/lib/claims/refundable";
import { presentDelivery } from "@/lib/webhooks/deliveries";
import { listRecentRequests } from "@/lib/dashboard/request-log";
import { maskKey } from "@/lib/platform/auth/keys";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import { dailyOutcomes } from "@/lib/payments/rollups";
import { addOutcomes, countOutcomes, successRate, type OutcomeCounts } from "@/lib/dashboard/success-rate";
import { merchantScope } from "@/lib/platform/scope";
import { paymentTimeline } from "@/lib/dashboard/payment-timeline";

export type DailyPoint = OutcomeCounts & {
  day: string;
  /** USD volume of the day's payments that were paid. */
  volume: number;
  /** Every payment created that day, pending ones included. */
  payments: number;
  /** succeeded / (succeeded + failed), pending left out; null when none finished that day. */
  successRate: number | null;
};

/** The calendar day (YYYY-MM-DD) of an instant in a time zone. */
function dayIn(timeZone: string): (at: Date) => string {
  const f = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
  return (at) => f.format(at);
}

/**
 * The last `days` days (calendar days in `timeZone`, UTC by default), oldest first: USD volume of
 * paid payments, outcomes and success rate. Read from the hourly rollups (lib/payments/rollups.ts),
 * so it costs the same whatever the merchant's history; an hour belongs to the day it starts in
 * (every Latin American zone is a whole number of hours from UTC).
 */
export async function dailySeries(auth: AuthContext, days = 30, timeZone = "UTC"): Promise<DailyPoint[]> {
  const day = dayIn(timeZone);
  const now = new Date();
  // The wanted days, oldest first: the zone's date of now, one day back at a time.
  const wanted: string[] = [];
  for (let i = days - 1; i >= 0; i--) wanted.push(day(new Date(now.getTime() - i * 86_400_000)));
  // From a little before the first wanted day's start in any zone; hours outside are dropped.
  const since = new Date(now.getTime() - (days + 1) * 86_400_000);
  since.setUTCMinutes(0, 0, 0);
  // Counted per status and classified in lib/dashboard/success-rate.ts, so which statuses count
  // as paid, failed or still pending is decided in one tested place, not in SQL.
  const rows = await dailyOutcomes(merchantScope(auth), since, timeZone);
  const byDay = new Map<string, Map<string, { count: number; volume: bigint }>>();
  for (const r of rows) {
    const statuses = byDay.get(r.day) ?? new Map<string, { count: number; volume: bigint }>();
    byDay.set(r.day, statuses);
    const c = statuses.get(r.status) ?? { count: 0, volume: 0n };
    statuses.set(r.status, { count: c.count + r.payments, volume: c.volume + r.paidVolumeUsd });
  }
  return wanted.map((d) => {
    const statuses = [...(byDay.get(d) ?? new Map<string, { count: number; volume: bigint }>()).entries()];
    const counts = countOutcomes(statuses.map(([status, c]) => ({ status, count: c.count })));
    const volume = statuses.reduce((s, [, c]) => s + c.volume, 0n);
    return { day: d, volume: toMajor(volume, "USD"), payments: counts.succeeded + counts.failed + counts.pending, ...counts, successRate: successRate(counts).rate };
  });
}

/** The overview: balance, the last 30 days in the merchant's time zone, recent payments. */
export async function overview(auth: AuthContext) {
  const [balance, series, recent] = await Promise.all([getBalance(auth), dailySeries(auth, 30, auth.merchant.timeZone), recentPayments(auth, 8)]);
  // The 30 days' rate from the summed counts (an average of daily rates would weigh a day of one
  // payment like a day of a thousand).
  return { balance, series, outcomes: successRate(addOutcomes(series)), recent };
}
export type Overview = Awaited<ReturnType<typeof overview>>;

const objectKind = (payload: unknown): string | null => {
  const kind = (payload as { data?: { object?: { kind?: unknown } } } | null)?.data?.object?.kind;
  return typeof kind === "string" ? kind : null;
};

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
      select: { id: true, type: true, createdAt: true, payload: true },
    }),
  ]);
  const deliveries = events.length
    ? await db().webhookDelivery.findMany({
        where: { eventId: { in: events.map((e) => e.id) }, subscription: merchantScope(auth) },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        take: 200,
      })
    : [];
  // What the refund form offers and checks against (the refund use case's own rule).
  const row = await db().transaction.findFirst({ where: { id, ...merchantScope(auth) }, select: { id: true, amountLocal: true, refundedLocal: true, currencyLocal: true } });
  const refundable = row ? toMajor(await refundableLocal(db(), row), row.currencyLocal) : 0;
  return {
    payment,
    refundable,
    claims: claims.data,
    // The object's kind (a claim is a refund or a chargeback), so the timeline names it in words.
    events: events.map((e) => ({ id: e.id, type: e.type, kind: objectKind(e.payload), createdAt: e.createdAt.toISOString() })),
    // One line per thing that happened (some happenings are two events), with what it moved.
    timeline: paymentTimeline(events),
    deliveries: deliveries.map((d) => ({ ...presentDelivery(d, undefined), subscriptionId: d.subscriptionId })),
  };
}
export type PaymentDetail = Awaited<ReturnType<typeof paymentDetail>>;

/** Key pairs of every shop in the environment: publishable keys in full, secrets as a preview. */
export async function listKeys(auth: AuthContext) {
  const pairs = await db().apiKeyPair.findMany({
    where: { ...merchantScope(auth), revokedAt: null },
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
  return listRecentRequests(merchantScope(auth), limit);
}
