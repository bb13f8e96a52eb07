// The payout status job: processing payouts already handed to a provider whose outcome we do not
// know (an unknown answer, or an accepted payout whose notice has not come) are asked about by
// our reference until the provider knows. PAID completes, REJECTED fails (debit reversed),
// REFUNDED before completion fails, not found re-sends the payout under the same reference (the
// provider never got it; it de-duplicates, so this cannot pay twice). Every ending goes through
// the payout transitions, which are idempotent.
//
// Rows are claimed with FOR UPDATE SKIP LOCKED and a lease (check_after pushed forward before the
// provider is called), so any number of instances can run this at once, and a runner that dies
// leaves the row to the next one when the lease runs out.
import { db } from "@/lib/platform/db";
import { log } from "@/lib/platform/log";
import { connectorFor } from "@/lib/providers/connectors";
import { isProviderConfigured, providerConfigs } from "@/lib/providers/registry";
import { completePayout, failPayout } from "@/lib/payouts/transitions";
import { LOCAL_DRIVERS, nextCheck, recordPayoutOutcome, requestPayout } from "@/lib/payouts/dispatch-payout";

const LEASE_MS = 30_000;

export async function checkPayoutStatuses(opts: { now?: Date; limit?: number } = {}): Promise<{ checked: number; settled: number }> {
  const now = opts.now ?? new Date();
  // Only rows this instance can ask about: an instance without a payout's provider configured
  // would hold the row under its lease and delay the one that can.
  const configured = [...providerConfigs().keys()];
  if (configured.length === 0) return { checked: 0, settled: 0 };
  const claimed = await db().$queryRaw<{ id: string }[]>`
    UPDATE payouts SET check_after = ${new Date(now.getTime() + LEASE_MS)}
    WHERE id IN (
      SELECT id FROM payouts
      WHERE status = 'processing' AND dispatched_at IS NOT NULL AND (check_after IS NULL OR check_after <= ${now})
        AND provider NOT IN (${[...LOCAL_DRIVERS][0]}, ${[...LOCAL_DRIVERS][1]}) AND provider = ANY(${configured}::text[])
      ORDER BY check_after NULLS FIRST LIMIT ${opts.limit ?? 50} FOR UPDATE SKIP LOCKED)
    RETURNING id`;
  let settled = 0;
  for (const { id } of claimed) {
    const p = await db().payout.findUnique({ where: { id } });
    if (!p || p.status !== "processing") continue;
    // Another instance with this provider's configuration takes it when the lease runs out.
    if (!isProviderConfigured(p.provider)) continue;
    try {
      const s = await connectorFor(p.provider).payoutStatus(p.id);
      if ((s.kind === "paid" || s.kind === "processing" || s.kind === "rejected" || s.kind === "returned") && s.providerRef && !p.providerRef) {
        await db().payout.updateMany({ where: { id, providerRef: null }, data: { providerRef: s.providerRef } });
      }
      let changed = false;
      if (s.kind === "paid") changed = (await completePayout(id)).changed;
      else if (s.kind === "rejected") changed = (await failPayout(id, `rejected: ${s.reason ?? "rejected"}`)).changed;
      else if (s.kind === "returned") changed = (await failPayout(id, "refunded")).changed;
      else if (s.kind === "not_found") {
        // The provider never received it: hand it over again, under the same reference.
        const after = await recordPayoutOutcome(p, await requestPayout(p));
        changed = after.status !== "processing";
        if (after.status === "processing") await db().payout.updateMany({ where: { id, status: "processing" }, data: { checkAfter: nextCheck(p, new Date()) } });
      } else {
        await db().payout.updateMany({ where: { id, status: "processing" }, data: { checkAfter: nextCheck(p, new Date(), s.kind === "processing" ? 5_000 : 1_000) } });
        if (s.kind === "unknown") log.warn({ payout: id, provider: p.provider, reason: s.reason }, "payout status still unknown; asking again later");
      }
      if (changed) settled++;
    } catch (err) {
      log.warn({ payout: id, err: err instanceof Error ? err.message : String(err) }, "payout status check failed; the lease lets it be retried");
    }
  }
  return { checked: claimed.length, settled };
}
