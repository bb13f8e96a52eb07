// The QR orders' expiry job: pending orders past their deadline. A counter is waiting on them,
// so they are looked at as soon as they are due rather than at the payments' 5-minute poll.
//   Sandbox (its own provider): the transaction expires (payment.failed) and the order with it.
//   Production: the provider is asked by reference; the status it reports applies (expired,
//   failed, or paid: a payer who scanned at the last second), through the same transition as a
//   notice. No answer, or still pending: the order stays pending (unknown is not failed) and is
//   asked again later, backing off (30 s, then half the time since its deadline, at most 1 h).
// Rows are claimed with a lease (next_check_at, FOR UPDATE SKIP LOCKED), so several instances
// share the work and no order is asked twice at once.
import { db } from "@/lib/platform/db";
import { log } from "@/lib/platform/log";
import { failPayment } from "@/lib/payments/transitions";
import { applyProviderStatus } from "@/lib/outcomes/apply-provider-status";
import { connectorFor } from "@/lib/providers/connectors";
import { isProviderConfigured } from "@/lib/providers/registry";

type Due = { id: string; transaction_id: string; environment: "sandbox" | "production" };

export async function expireQrOrders(opts: { now?: Date; limit?: number } = {}): Promise<{ due: number; expired: number; asked: number; changed: number }> {
  const now = opts.now ?? new Date();
  const due = await db().$queryRaw<Due[]>`
    UPDATE qr_orders SET next_check_at = ${now}::timestamptz + LEAST(interval '1 hour', GREATEST(interval '30 seconds', (${now}::timestamptz - expires_at) / 2))
    WHERE id IN (
      SELECT id FROM qr_orders
      WHERE status = 'pending' AND expires_at <= ${now}::timestamptz AND (next_check_at IS NULL OR next_check_at <= ${now}::timestamptz)
      ORDER BY expires_at LIMIT ${opts.limit ?? 200}
      FOR UPDATE SKIP LOCKED)
    RETURNING id, transaction_id, environment::text AS environment`;
  let expired = 0;
  let asked = 0;
  let changed = 0;
  for (const o of due) {
    try {
      if (o.environment === "sandbox") {
        if ((await failPayment(o.transaction_id, "expired")).changed) expired++;
        continue;
      }
      const t = await db().transaction.findUnique({ where: { id: o.transaction_id }, select: { status: true, provider: true, providerRef: true } });
      // A charge whose provider answer was lost is the payments' poll's (it looks it up by our reference).
      if (!t || t.status !== "pending" || !t.providerRef || !isProviderConfigured(t.provider)) continue;
      asked++;
      const status = await connectorFor(t.provider).getStatus(t.providerRef);
      if (status && status !== "pending" && (await applyProviderStatus(o.transaction_id, status))) changed++;
    } catch (err) {
      log.warn({ qrOrderId: o.id, err: (err as Error).message }, "QR order expiry could not settle an order; asked again later");
    }
  }
  return { due: due.length, expired, asked, changed };
}
