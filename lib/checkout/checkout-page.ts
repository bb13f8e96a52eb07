// What the hosted selector page (/checkout/<token>) needs, read for the token alone: the token
// is the buyer's only credential, so nothing here reaches beyond its own session (and, once
// used, the one transaction it created, and the session that succeeded it).
import { db } from "@/lib/platform/db";
import { singleton } from "@/lib/platform/singleton";
import { findSession, isExpired } from "@/lib/checkout/get-session";
import { offeredMethods, type OfferedMethod } from "@/lib/checkout/offered-methods";
import { retryOffer } from "@/lib/checkout/create-successor";
import type { CheckoutSession } from "@/lib/generated/prisma/client";
import { rememberBounded } from "@/lib/platform/bounded";
import { defaultPlan } from "@/lib/installments/defaults";
import { shopPlan } from "@/lib/installments/shop-plan";
import { countsFor, quoteInstallments, type InstallmentQuote } from "@/lib/installments/price";

export type CheckoutPage =
  | { kind: "unknown" }
  | { kind: "expired"; merchantName: string; sandbox: boolean }
  | { kind: "moved"; nextSessionId: string }
  | { kind: "used"; merchantName: string; sandbox: boolean; txId: string | null; txStatus: string | null; returnUrl: string | null; canRetry: boolean }
  | { kind: "open"; merchantName: string; sandbox: boolean; session: CheckoutSession; methods: OfferedMethod[]; installments: Record<string, InstallmentQuote[]> };

// The merchant's name, shown on every view of the page: read once per 10 s per merchant, so a
// page view costs one query (its session) — a rename shows within seconds.
const NAME_TTL_MS = 10_000;
const names = singleton("checkout-merchant-names", () => new Map<string, { at: number; name: string }>());

async function merchantNameOf(merchantId: string): Promise<string> {
  const hit = names.get(merchantId);
  if (hit && Date.now() - hit.at < NAME_TTL_MS) return hit.name;
  const name = (await db().merchant.findUnique({ where: { id: merchantId }, select: { name: true } }))?.name ?? "";
  rememberBounded(names, merchantId, { at: Date.now(), name }, 50_000);
  return name;
}

export async function loadCheckoutPage(token: string): Promise<CheckoutPage> {
  const s = await findSession(token);
  if (!s) return { kind: "unknown" };
  // The buyer paid another way: an old link leads to where they went.
  if (s.nextSessionId) return { kind: "moved", nextSessionId: s.nextSessionId };
  const merchantName = await merchantNameOf(s.merchantId);
  const sandbox = s.environment === "sandbox";
  if (isExpired(s)) return { kind: "expired", merchantName, sandbox };
  if (s.status === "completed") {
    const tx = s.completedTxId ? await db().transaction.findUnique({ where: { id: s.completedTxId }, select: { status: true } }) : null;
    const canRetry = Boolean(s.completedTxId && tx && (await retryOffer(s.completedTxId, tx.status)));
    return { kind: "used", merchantName, sandbox, txId: s.completedTxId, txStatus: tx?.status ?? null, returnUrl: s.returnUrl, canRetry };
  }
  const methods = (await offeredMethods(s.shopId, s.environment, s.country, { usd: s.amountUsd, currency: s.inputCurrency ?? "USD", inputMinor: s.inputAmount ?? s.amountUsd })).filter((m) => m.fits);
  return { kind: "open", merchantName, sandbox, session: s, methods, installments: await installmentOptions(s.shopId, methods) };
}

/** Per card rail with a plan, the counts its shop opens to the buyer's price, priced (issue 42). */
async function installmentOptions(shopId: string, methods: OfferedMethod[]): Promise<Record<string, InstallmentQuote[]>> {
  const out: Record<string, InstallmentQuote[]> = {};
  for (const m of methods) {
    if (m.localMinor === null || !defaultPlan(m.rail)) continue;
    const plan = await shopPlan(shopId, m.rail);
    const counts = plan ? countsFor(m.localMinor, plan) : [];
    if (plan && counts.length) out[m.rail.paymentMethodId] = counts.map((n) => quoteInstallments(m.localMinor!, n, plan));
  }
  return out;
}
