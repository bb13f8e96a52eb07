// A QR order follows its pay-in transaction: every pending-ending transition of a payment
// (lib/payments/transitions.ts: completePayment, failPayment) calls this in its own database
// transaction, so an order is paid exactly when its transaction completes, by whichever path
// (provider notice, status check, sandbox simulate, expiry job). One indexed UPDATE; a payment
// without an order changes nothing. Money that arrives for an order cancelled in production (its
// charge still lived at the provider) makes it paid: the money is the truth. An ending without
// money leaves a cancelled order cancelled. A late payment (the provider's PAID after the payment
// expired or failed, decisions.md "Late payments") makes an expired order paid the same way.
import type { Tx } from "@/lib/platform/db";

export async function mirrorToQrOrder(tx: Tx, transactionId: string, outcome: "paid" | "expired", at: Date): Promise<void> {
  await tx.qrOrder.updateMany({
    where: { transactionId, status: outcome === "paid" ? { in: ["pending", "cancelled", "expired"] } : "pending" },
    data: outcome === "paid" ? { status: "paid", paidAt: at } : { status: "expired", endedAt: at },
  });
}
