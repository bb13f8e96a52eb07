// What the hosted selector page (/checkout/<token>) needs, read for the token alone: the token
// is the buyer's only credential, so nothing here reaches beyond its own session (and, once
// used, the one transaction it created, and the session that succeeded it).
import { db } from "@/lib/db";
import { findSession, isExpired } from "@/lib/checkout/get-session";
import { offeredMethods, type OfferedMethod } from "@/lib/checkout/offered-methods";
import { retryOffer } from "@/lib/checkout/create-successor";
import type { CheckoutSession } from "@/lib/generated/prisma/client";

export type CheckoutPage =
  | { kind: "unknown" }
  | { kind: "expired"; merchantName: string; sandbox: boolean }
  | { kind: "moved"; nextSessionId: string }
  | { kind: "used"; merchantName: string; sandbox: boolean; txId: string | null; txStatus: string | null; returnUrl: string | null; canRetry: boolean }
  | { kind: "open"; merchantName: string; sandbox: boolean; session: CheckoutSession; methods: OfferedMethod[] };

export async function loadCheckoutPage(token: string): Promise<CheckoutPage> {
  const s = await findSession(token);
  if (!s) return { kind: "unknown" };
  // The buyer paid another way: an old link leads to where they went.
  if (s.nextSessionId) return { kind: "moved", nextSessionId: s.nextSessionId };
  const merchant = await db().merchant.findUnique({ where: { id: s.merchantId }, select: { name: true } });
  const merchantName = merchant?.name ?? "";
  const sandbox = s.environment === "sandbox";
  if (isExpired(s)) return { kind: "expired", merchantName, sandbox };
  if (s.status === "completed") {
    const tx = s.completedTxId ? await db().transaction.findUnique({ where: { id: s.completedTxId }, select: { status: true } }) : null;
    const canRetry = Boolean(s.completedTxId && tx && (await retryOffer(s.completedTxId, tx.status)));
    return { kind: "used", merchantName, sandbox, txId: s.completedTxId, txStatus: tx?.status ?? null, returnUrl: s.returnUrl, canRetry };
  }
  const methods = (await offeredMethods(s.shopId, s.environment, s.country, { usd: s.amountUsd, currency: s.inputCurrency ?? "USD", inputMinor: s.inputAmount ?? s.amountUsd })).filter((m) => m.fits);
  return { kind: "open", merchantName, sandbox, session: s, methods };
}
