// "Pay another way" (decisions.md, Hosted checkout: after a failure): when the one transaction of
// a selector session failed or expired while the session is still within its 24 h, the buyer
// may move to a successor session with the same merchant, shop, order, amount (so the same
// price) and customer, unless the merchant created the session with `allowRetry: false`. The
// sessions link both ways (previousSessionId / nextSessionId); a session has at most one
// successor, so two clicks (or two tabs) reach the same one. The successor keeps the first
// session's expiry: a retry never extends the checkout the merchant created.
import { db } from "@/lib/platform/db";
import { newId } from "@/lib/platform/ids";
import { isUniqueViolation } from "@/lib/accounts/unique-violation";
import type { CheckoutSession } from "@/lib/generated/prisma/client";

const RETRYABLE = new Set(["failed", "expired"]);

export type RetryOffer = { sessionId: string; nextSessionId: string | null };

/** Whether the transaction `txId` of a hosted session may be retried, and where the buyer went if already. */
export async function retryOffer(txId: string, txStatus: string, now = new Date()): Promise<RetryOffer | null> {
  if (!RETRYABLE.has(txStatus)) return null;
  const s = await db().checkoutSession.findUnique({ where: { completedTxId: txId } });
  if (!s || !retryAllowed(s, now)) return null;
  return { sessionId: s.id, nextSessionId: s.nextSessionId };
}

function retryAllowed(s: CheckoutSession, now: Date): boolean {
  return s.allowRetry && s.expiresAt.getTime() > now.getTime();
}

/**
 * The successor of the session whose transaction is `txId` (created once, then the same one);
 * null when the transaction is not of a session, not failed or expired, or the session may not
 * be retried.
 */
export async function createSuccessorSession(txId: string): Promise<{ sessionId: string } | null> {
  const tx = await db().transaction.findUnique({ where: { id: txId }, select: { status: true } });
  if (!tx) return null;
  const offer = await retryOffer(txId, tx.status);
  if (!offer) return null;
  if (offer.nextSessionId) return { sessionId: offer.nextSessionId };
  const nextId = newId("checkoutSession");
  try {
    await db().$transaction(async (t) => {
      const prev = await t.checkoutSession.findUniqueOrThrow({ where: { id: offer.sessionId } });
      await t.checkoutSession.create({
        data: {
          id: nextId,
          merchantId: prev.merchantId,
          shopId: prev.shopId,
          environment: prev.environment,
          amountUsd: prev.amountUsd,
          inputCurrency: prev.inputCurrency,
          inputAmount: prev.inputAmount,
          country: prev.country,
          firstName: prev.firstName,
          lastName: prev.lastName,
          email: prev.email,
          phone: prev.phone,
          customerIp: prev.customerIp,
          merchantOrderId: prev.merchantOrderId,
          returnUrl: prev.returnUrl,
          expiresInMinutes: prev.expiresInMinutes,
          allowRetry: prev.allowRetry,
          previousSessionId: prev.id,
          expiresAt: prev.expiresAt,
        },
      });
      const { count } = await t.checkoutSession.updateMany({ where: { id: prev.id, nextSessionId: null }, data: { nextSessionId: nextId } });
      if (count !== 1) throw Object.assign(new Error("successor already made"), { code: "P2002" });
    });
  } catch (err) {
    // Another request made the successor first (the unique previousSessionId or the guard above).
    if (!isUniqueViolation(err)) throw err;
    const won = await db().checkoutSession.findUnique({ where: { id: offer.sessionId }, select: { nextSessionId: true } });
    return won?.nextSessionId ? { sessionId: won.nextSessionId } : null;
  }
  return { sessionId: nextId };
}
