// Sandbox payments still pending past their rail's deadline (expiresAt: 30 minutes for a card or
// PIX, 3 days for a voucher, or the merchant's expiresInMinutes) become `expired`, with
// payment.failed, through the same transition as every expiry. The sandbox is its own provider,
// so its deadline is the truth; a production payment expires only when its provider says so (its
// notice, or the reconciliation poll), since a buyer may have paid at the last minute.
import { db } from "@/lib/platform/db";
import { failPayment } from "@/lib/payments/transitions";

export async function expirePayments(opts: { now?: Date; limit?: number } = {}): Promise<{ expired: number }> {
  const now = opts.now ?? new Date();
  const due = await db().transaction.findMany({
    where: { environment: "sandbox", status: "pending", expiresAt: { lte: now } },
    select: { id: true },
    orderBy: { expiresAt: "asc" },
    take: opts.limit ?? 200,
  });
  let expired = 0;
  // Each expiry locks its row in the kernel: a payment paid meanwhile is left as it is.
  for (const t of due) if ((await failPayment(t.id, "expired")).changed) expired++;
  return { expired };
}
