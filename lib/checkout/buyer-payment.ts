// A payment as the buyer pages may show it, read by its (unguessable) transaction id: what to
// pay and its status; never the merchant's fees, tags or the buyer's data.
import { db } from "@/lib/platform/db";
import { TX_ID } from "@/lib/payments/ids";

export async function buyerPayment(txId: string) {
  if (!TX_ID.test(txId)) return null;
  const tx = await db().transaction.findUnique({
    where: { id: txId },
    select: { id: true, status: true, environment: true, merchantId: true, method: true, railName: true, paymentMethodId: true, amountLocal: true, currencyLocal: true, amountUsd: true, returnUrl: true, provider: true, instructions: true, merchantOrderId: true, expiresAt: true, country: true, installments: true },
  });
  if (!tx) return null;
  const merchant = await db().merchant.findUnique({ where: { id: tx.merchantId }, select: { name: true } });
  return { ...tx, merchantName: merchant?.name ?? "" };
}

export type BuyerPayment = NonNullable<Awaited<ReturnType<typeof buyerPayment>>>;

/** Public status only: what a polling result page needs. */
export async function buyerPaymentStatus(txId: string): Promise<string | null> {
  if (!TX_ID.test(txId)) return null;
  return (await db().transaction.findUnique({ where: { id: txId }, select: { status: true } }))?.status ?? null;
}

/**
 * Whether the store has received the notice that this payment completed: a `payment.completed`
 * event of it delivered to one of the merchant's webhooks. The buyer is told "the store was
 * notified" only then (issue 24).
 */
export async function storeNotified(tx: Pick<BuyerPayment, "id" | "merchantId" | "environment">): Promise<boolean> {
  const events = await db().event.findMany({ where: { merchantId: tx.merchantId, environment: tx.environment, objectId: tx.id, type: "payment.completed" }, select: { id: true } });
  if (events.length === 0) return false;
  return (await db().webhookDelivery.count({ where: { eventId: { in: events.map((e) => e.id) }, status: "succeeded" } })) > 0;
}
