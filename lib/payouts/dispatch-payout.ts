// Hands a committed payout to its provider (after commit, never inside a database transaction),
// with our payout id as the provider's idempotency reference: the request path, the sweep and
// the status job may all call it and the beneficiary is still paid at most once.
//
// Only an explicit refusal fails the payout (and reverses the debit). A timeout, a 5xx, a reset
// or an unreadable answer is unknown: the provider may well have paid. The payout stays
// processing with its money held, marked as handed over, and lib/payouts/check-payout-status.ts
// asks the provider by reference until it knows.
import { config } from "@/lib/platform/config";
import { db } from "@/lib/platform/db";
import { log } from "@/lib/platform/log";
import { connectorFor } from "@/lib/providers/connectors";
import { isProviderConfigured, providerConfigs } from "@/lib/providers/registry";
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

/** How long the sweep holds a payout it is handing over (longer than any provider call). */
const SWEEP_LEASE_MS = 60_000;

/**
 * Sweep: payouts committed but never handed over (the process died between commit and
 * dispatch). Older than `graceMs`, so the request that created one has had its chance. Rows are
 * claimed with FOR UPDATE SKIP LOCKED and a lease (check_after), oldest first, and only those of
 * providers configured on this instance: a payout another instance must send never holds a slot
 * here, and two instances never hand the same payout over at once.
 */
export async function dispatchStalePayouts(opts: { graceMs?: number; limit?: number; now?: Date } = {}): Promise<number> {
  const now = opts.now ?? new Date();
  const configured = [...providerConfigs().keys()].filter((c) => !LOCAL_DRIVERS.has(c));
  if (!configured.length) return 0;
  const claimed = await db().$queryRaw<{ id: string }[]>`
    UPDATE payouts SET check_after = ${new Date(now.getTime() + SWEEP_LEASE_MS)}
    WHERE id IN (
      SELECT id FROM payouts
      WHERE status = 'processing' AND dispatched_at IS NULL AND provider = ANY(${configured}::text[])
        AND created_at < ${new Date(now.getTime() - (opts.graceMs ?? 30_000))} AND (check_after IS NULL OR check_after <= ${now})
      ORDER BY created_at LIMIT ${opts.limit ?? 50}
      FOR UPDATE SKIP LOCKED)
    RETURNING id`;
  for (const { id } of claimed) {
    const p = await db().payout.findUnique({ where: { id } });
    if (!p) continue;
    try {
      await dispatchPayout(p);
    } catch (err) {
      log.warn({ payout: id, err: err instanceof Error ? err.message : String(err) }, "stale payout dispatch failed; the lease lets it be retried");
    }
  }
  return claimed.length;
}
