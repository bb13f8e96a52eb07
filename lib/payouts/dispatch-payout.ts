// Hands a committed payout to its provider (after commit, never inside a database transaction),
// with our payout id as the provider's idempotency reference: the request path, the sweep and
// the status job may all call it and the beneficiary is still paid at most once.
//
// Only an explicit refusal fails the payout (and reverses the debit). A timeout, a 5xx, a reset
// or an unreadable answer is unknown: the provider may well have paid. The payout stays
// processing with its money held, marked as handed over, and lib/jobs/check-payout-status.ts
// asks the provider by reference until it knows.
import { config } from "@/lib/config";
import { db } from "@/lib/db";
import { log } from "@/lib/log";
import { connectorFor } from "@/lib/providers/connectors";
import { isProviderConfigured } from "@/lib/providers/registry";
import { failPayout } from "@/lib/payouts/transitions";
import type { Payout } from "@/lib/generated/prisma/client";
import type { PayoutOutcome } from "@/lib/providers/types";

/** Drivers that never call out: the sandbox's and the simulated one. */
export const LOCAL_DRIVERS = new Set(["sandbox", "simulated"]);

/**
 * When to ask the provider again: soon after an unknown answer, then less often as the payout
 * ages (a tenth of its age, 1 s to 5 min), so a stuck provider is not hammered.
 */
export function nextCheck(p: Pick<Payout, "createdAt">, now = new Date(), minMs = 1_000): Date {
  const age = now.getTime() - p.createdAt.getTime();
  return new Date(now.getTime() + Math.min(300_000, Math.max(minMs, Math.floor(age / 10))));
}

/** The provider call itself (also used by the status job to re-send a payout the provider never got). */
export async function requestPayout(p: Payout): Promise<PayoutOutcome> {
  return connectorFor(p.provider).payout({
    reference: p.id,
    rail: p.rail,
    country: p.country,
    currency: p.currency,
    amount: p.amount,
    recipient: p.recipient,
    notifyUrl: `${config().APP_URL}/api/v1/providers/${p.provider}/payouts`,
  });
}

/** Records what a payout call answered; returns the payout as it now is. */
export async function recordPayoutOutcome(p: Payout, r: PayoutOutcome): Promise<Payout> {
  const now = new Date();
  if (r.kind === "refused") {
    log.warn({ payout: p.id, provider: p.provider, reason: r.reason }, "provider refused the payout; reversing");
    return (await failPayout(p.id, r.reason)).payout;
  }
  if (r.kind === "accepted") {
    // The provider's notice normally ends it; the status job asks after a minute in case it is lost.
    await db().payout.updateMany({ where: { id: p.id, providerRef: null }, data: { providerRef: r.providerRef } });
    await db().payout.updateMany({ where: { id: p.id, dispatchedAt: null }, data: { dispatchedAt: now, checkAfter: nextCheck(p, now, 60_000) } });
  } else {
    log.warn({ payout: p.id, provider: p.provider, reason: r.reason }, "payout outcome unknown; held as processing until the provider says");
    await db().payout.updateMany({ where: { id: p.id, status: "processing" }, data: { dispatchedAt: p.dispatchedAt ?? now, checkAfter: nextCheck(p, now) } });
  }
  return (await db().payout.findUnique({ where: { id: p.id } }))!;
}

export async function dispatchPayout(p: Payout): Promise<Payout> {
  if (p.status !== "processing" || p.dispatchedAt || LOCAL_DRIVERS.has(p.provider)) return p;
  // An instance without this provider's configuration leaves the payout to one that has it,
  // rather than failing money another instance may be about to send.
  if (!isProviderConfigured(p.provider)) {
    log.warn({ payout: p.id, provider: p.provider }, "payout provider not configured on this instance; not dispatched");
    return p;
  }
  return recordPayoutOutcome(p, await requestPayout(p));
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
