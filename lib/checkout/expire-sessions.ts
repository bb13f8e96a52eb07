// Checkout sessions past their 24 h TTL become `expired` (lookups already treat them as gone;
// this keeps the table honest for the dashboard), and expired rows are purged after 30 days,
// long enough for a buyer's old link to still say "expired" rather than "unknown".
import { db } from "@/lib/platform/db";

export const SESSION_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export async function expireCheckoutSessions(opts: { now?: Date } = {}): Promise<{ expired: number; purged: number }> {
  const now = opts.now ?? new Date();
  const expired = await db().checkoutSession.updateMany({
    where: { status: "awaiting_method", expiresAt: { lte: now } },
    data: { status: "expired", claimTxId: null, claimedUntil: null, documentId: null },
  });
  const purged = await db().checkoutSession.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - SESSION_RETENTION_MS) } } });
  return { expired: expired.count, purged: purged.count };
}
