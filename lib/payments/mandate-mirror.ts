// A recurring PIX mandate's charge follows the payment of its latest send, as a QR order follows
// its transaction (qr-mirror.ts): completePayment and failPayment call this in their own database
// transaction, so whichever path ends the payment (provider notice, status check, sandbox
// simulate, expiry job) the charge agrees. Only payments that carry a mandateId reach the UPDATE.
// This records the fact only; whether a failed send is tried again is the mandate job's rule
// (lib/mandates/send-due-charges.ts), which reads `retrying` and `last_failed_at`.
import type { Tx } from "@/lib/platform/db";

export async function mirrorToMandateCharge(tx: Tx, t: { id: string; mandateId: string | null }, outcome: "paid" | "failed", at: Date): Promise<void> {
  if (!t.mandateId) return;
  if (outcome === "paid") {
    // Any send of the charge that brings money pays it (a late PAID of an earlier send too): the
    // money is the truth. The first to complete is noted; another completing later has been paid
    // twice for one due date, and the mandate job refunds it (lib/mandates/refund-duplicates.ts).
    await tx.mandateCharge.updateMany({ where: { mandateId: t.mandateId, paymentIds: { has: t.id }, status: { not: "paid" } }, data: { status: "paid", paidPaymentId: t.id, leaseUntil: null } });
    return;
  }
  // Only the latest send's failure moves the charge; an earlier send ending late changes nothing.
  await tx.mandateCharge.updateMany({ where: { paymentId: t.id, status: { in: ["sending", "sent"] } }, data: { status: "retrying", lastFailedAt: at, leaseUntil: null } });
}
