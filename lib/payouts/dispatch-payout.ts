// Hands a committed payout to its provider (after commit, never inside a database transaction).
// The provider de-duplicates on our payout id, so the request path and the sweep job may both
// call it safely. An explicit refusal, or no usable answer, fails the payout and reverses the
// debit.
import { config } from "@/lib/config";
import { db } from "@/lib/db";
import { log } from "@/lib/log";
import { requestPayout } from "@/lib/providers/http-accounts";
import { isProviderConfigured } from "@/lib/providers/registry";
import { failPayout } from "@/lib/payouts/transitions";
import type { Payout } from "@/lib/generated/prisma/client";

/** Drivers that never call out: the sandbox's and the simulated one. */
export const LOCAL_DRIVERS = new Set(["sandbox", "simulated"]);

export async function dispatchPayout(p: Payout): Promise<Payout> {
  if (p.status !== "processing" || p.dispatchedAt || LOCAL_DRIVERS.has(p.provider)) return p;
  // An instance without this provider's configuration leaves the payout to one that has it,
  // rather than failing money another instance may be about to send.
  if (!isProviderConfigured(p.provider)) {
    log.warn({ payout: p.id, provider: p.provider }, "payout provider not configured on this instance; not dispatched");
    return p;
  }
  const r = await requestPayout(p.provider, {
    reference: p.id,
    rail: p.rail,
    country: p.country,
    currency: p.currency,
    amount: p.amount.toString(),
    recipient: p.recipient,
    notifyUrl: `${config().APP_URL}/api/v1/providers/${p.provider}/payouts`,
  });
  if (r.ok) {
    // Only a payout still processing records the acceptance (a notice may have raced ahead).
    await db().payout.updateMany({ where: { id: p.id, dispatchedAt: null }, data: { providerRef: r.providerRef, dispatchedAt: new Date() } });
    return (await db().payout.findUnique({ where: { id: p.id } }))!;
  }
  log.warn({ payout: p.id, provider: p.provider, reason: r.reason }, "payout dispatch failed; reversing");
  return (await failPayout(p.id, r.reason)).payout;
}

/**
 * Sweep: payouts committed but never handed over (the process died between commit and
 * dispatch). Older than `graceMs`, so the request that created one has had its chance.
 */
export async function dispatchStalePayouts(opts: { graceMs?: number; limit?: number } = {}): Promise<number> {
  const stale = await db().payout.findMany({
    where: { status: "processing", dispatchedAt: null, provider: { notIn: [...LOCAL_DRIVERS] }, createdAt: { lt: new Date(Date.now() - (opts.graceMs ?? 30_000)) } },
    orderBy: { createdAt: "asc" },
    take: opts.limit ?? 50,
  });
  for (const p of stale) await dispatchPayout(p);
  return stale.length;
}
