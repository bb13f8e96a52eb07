// Runs due scheduled actions (sandbox outcomes, sandbox refund confirmations, provider refunds
// and their status checks). Rows are claimed
// with FOR UPDATE SKIP LOCKED and a lease, so any number of instances can run this at once and
// an action whose runner died is picked up again when its lease expires. The actions themselves
// are idempotent transitions.
//
// A provider refund is never given up (the claim's money is frozen and the provider may hold the
// refund), but one whose step keeps failing (the payment's provider no longer configured here,
// say) or whose outcome stays unknown is raised to an operator after REFUND_ALERT_MS, as a stuck
// withdrawal is: an error log once, `attention_at` on the claim, lp_claims_need_attention, the
// CLI's claims:attention. From then on it is tried once an hour (REFUND_RAISED_RETRY_MS) instead of
// every few minutes: what it waits for is a person (a configuration, a word with the provider),
// and `claims:retry` runs it at once when they have acted.
import { db } from "@/lib/platform/db";
import { log } from "@/lib/platform/log";
import { applySimulation, type SimulateAction } from "@/lib/outcomes/simulate-payment";
import { resolveRefund } from "@/lib/claims/resolve-refund";
import { connectorFor } from "@/lib/providers/connectors";
import { PROVIDER_CODES, isProviderConfigured } from "@/lib/providers/registry";

/**
 * The refund's provider is one this service knows but this instance has no configuration of
 * (instances configured differently, as the real providers' test servers are): another instance
 * takes it. Not an error, within the hour after which a refund no instance could take is raised.
 */
class ConfiguredElsewhere extends Error {}

const LEASE_SECONDS = 30;

/**
 * Asks the payment's provider to refund, with the claim id as the provider's idempotency
 * reference (a repeated call never refunds twice). Only an explicit refusal rejects the claim
 * (releasing the freeze); a timeout, 5xx or unreadable answer is unknown: the claim stays pending
 * with its money frozen and the action comes back as `provider_refund_status`, which asks the
 * provider by reference until it knows (re-sending only when the provider never got it).
 */
async function refundThroughProvider(claimId: string, action: string): Promise<"done" | "processing" | "ask_again"> {
  const claim = await db().claim.findUnique({ where: { id: claimId }, include: { transaction: { select: { provider: true, providerRef: true } } } });
  if (!claim || claim.status !== "pending") return "done";
  const { provider, providerRef } = claim.transaction;
  if (provider !== "sandbox" && !isProviderConfigured(provider) && (PROVIDER_CODES as readonly string[]).includes(provider) && Date.now() - claim.createdAt.getTime() < REFUND_ALERT_MS) throw new ConfiguredElsewhere();
  const connector = connectorFor(provider);
  if (action === REFUND_STATUS) {
    const s = await connector.refundStatus(claimId, providerRef);
    if (s.kind === "refunded") return (await resolveRefund(claimId, "resolved"), "done");
    if (s.kind === "rejected") return (await resolveRefund(claimId, "rejected"), "done");
    // The provider has it and is working on it: an answer, not a silence (never raised).
    if (s.kind === "processing") return "processing";
    if (s.kind !== "not_found") return "ask_again";
  }
  const r = await connector.refund({ reference: claimId, providerRef: providerRef!, amountLocalMinor: claim.amountLocal });
  if (r.kind === "refunded") await resolveRefund(claimId, "resolved");
  else if (r.kind === "refused") await resolveRefund(claimId, "rejected");
  else {
    log.warn({ claim: claimId, provider, reason: r.reason }, "refund outcome unknown; the claim stays pending until the provider says");
    return "ask_again";
  }
  return "done";
}
const REFUND_STATUS = "provider_refund_status";
const MAX_ATTEMPTS = 10;
/** How long a refund step may fail, or its outcome stay unknown, before an operator is told. */
export const REFUND_ALERT_MS = 60 * 60_000;
/** A raised refund's wait between tries. */
export const REFUND_RAISED_RETRY_MS = 60 * 60_000;

/**
 * A refund's wait after a thrown error (ours: the database, a network fault, a provider not
 * configured right now), by errors in a row: 1 s, 2 s, 4 s, … up to 5 minutes. A thrown error is
 * not an answer, so it gives the attempt back and never gives up: giving up would leave the
 * claim pending with its money frozen and nobody asking the provider.
 */
export const refundRetryMs = (errors: number) => Math.min(300_000, 1_000 * 2 ** Math.min(Math.max(errors - 1, 0), 9));

type Claimed = { id: string; kind: string; transaction_id: string | null; claim_id: string | null; action: string; attempts: number; errors: number; due_at: Date; created_at: Date };

/**
 * A refund step that has been failing or unknown since its action was created REFUND_ALERT_MS ago
 * is raised to an operator (once: the claim's `attention_at`). True when it is past that point,
 * so its next try waits REFUND_RAISED_RETRY_MS.
 */
async function raiseIfStuck(a: Claimed, now: Date, why: string): Promise<boolean> {
  if (!a.claim_id || now.getTime() - new Date(a.created_at).getTime() < REFUND_ALERT_MS) return false;
  const raised = await db().claim.updateMany({ where: { id: a.claim_id, status: "pending", attentionAt: null }, data: { attentionAt: now } });
  if (raised.count) {
    log.error({ claim: a.claim_id, action: a.id, since: new Date(a.created_at).toISOString(), err: why }, "refund step failing or unknown for an hour: an operator must look (still tried hourly, never given up; its money stays frozen)");
  }
  return true;
}

/**
 * A scheduled sandbox outcome. Steps that need a completed payment (chargeback, refunded) wait
 * while it is still pending (its paid step may not have run yet); on a failed or expired
 * payment they have nothing to do.
 */
class NotYet extends Error {}

/**
 * Sandbox-Provider-Behaviour `duplicate_notice`: once the payment has an outcome and its webhooks
 * have gone out, each one that succeeded is sent again (same event id), as a provider's duplicate
 * notice would make a careless service do, so the merchant's receiver meets a duplicate.
 */
async function redeliverPaymentWebhooks(transactionId: string) {
  const t = await db().transaction.findUnique({ where: { id: transactionId }, select: { status: true, merchantId: true, environment: true } });
  if (!t || t.environment !== "sandbox") return;
  if (t.status === "pending") throw new NotYet(`payment ${transactionId} has no outcome yet; its duplicate webhooks wait`);
  const events = await db().$queryRaw<{ id: string; fanned: boolean }[]>`
    SELECT id, fanned_out_at IS NOT NULL AS fanned FROM events
    WHERE merchant_id = ${t.merchantId} AND environment = 'sandbox' AND type LIKE 'payment.%' AND payload->'data'->'object'->>'id' = ${transactionId}`;
  if (events.length === 0 || events.some((e) => !e.fanned)) throw new NotYet(`the webhooks of ${transactionId} are not out yet`);
  const ids = events.map((e) => e.id);
  if ((await db().webhookDelivery.count({ where: { eventId: { in: ids }, status: "pending" } })) > 0) throw new NotYet(`the webhooks of ${transactionId} are still being delivered`);
  await db().webhookDelivery.updateMany({ where: { eventId: { in: ids }, status: "succeeded" }, data: { status: "pending", nextAttemptAt: new Date(), lockedUntil: null } });
}

async function runSimulationStep(transactionId: string, action: SimulateAction | "redeliver") {
  if (action === "redeliver") return redeliverPaymentWebhooks(transactionId);
  if (action === "chargeback" || action === "refunded") {
    const t = await db().transaction.findUnique({ where: { id: transactionId }, select: { status: true } });
    if (t?.status === "pending") throw new NotYet(`payment ${transactionId} is not completed yet; ${action} waits`);
  }
  await applySimulation(transactionId, action, false);
}

/** `merchantId` restricts the run to one merchant's actions (tests that drive their own merchant). */
export async function runScheduledActions(opts: { limit?: number; now?: Date; merchantId?: string } = {}): Promise<{ done: number; failed: number }> {
  const now = opts.now ?? new Date();
  const claimed = await db().$queryRaw<Claimed[]>`
    UPDATE scheduled_actions SET state = 'running', locked_until = ${new Date(now.getTime() + LEASE_SECONDS * 1000)}, attempts = attempts + 1
    WHERE id IN (
      SELECT id FROM scheduled_actions
      WHERE ((state = 'pending' AND due_at <= ${now}) OR (state = 'running' AND locked_until < ${now}))
        AND (${opts.merchantId ?? null}::text IS NULL OR transaction_id IN (SELECT id FROM transactions WHERE merchant_id = ${opts.merchantId ?? null}::text))
      ORDER BY due_at LIMIT ${opts.limit ?? 100} FOR UPDATE SKIP LOCKED)
    RETURNING id, kind, transaction_id, claim_id, action, attempts, errors, due_at, created_at`;
  let done = 0;
  let failed = 0;
  // RETURNING gives no order: run them in due order (a chargeback step after its paid step).
  claimed.sort((x, y) => x.due_at.getTime() - y.due_at.getTime());
  for (const a of claimed) {
    try {
      if (a.kind === "payment_simulation" && a.transaction_id) await runSimulationStep(a.transaction_id, a.action as SimulateAction | "redeliver");
      else if (a.kind === "claim_resolution" && a.claim_id && (a.action === "provider_refund" || a.action === REFUND_STATUS)) {
        const outcome = await refundThroughProvider(a.claim_id, a.action);
        if (outcome !== "done") {
          // Not a failure: the outcome is unknown (or still processing). Ask again by reference,
          // less often each time; an hour of silence is an operator's to look at.
          const raised = outcome === "ask_again" && (await raiseIfStuck(a, now, "refund outcome unknown"));
          const wait = raised ? REFUND_RAISED_RETRY_MS : Math.min(300_000, 500 * 2 ** Math.min(a.attempts, 10));
          await db().scheduledAction.update({ where: { id: a.id }, data: { action: REFUND_STATUS, state: "pending", lockedUntil: null, errors: 0, dueAt: new Date(now.getTime() + wait) } });
          continue;
        }
      }
      else if (a.kind === "claim_resolution" && a.claim_id) await resolveRefund(a.claim_id, a.action === "reject" ? "rejected" : "resolved");
      else throw new Error(`unknown scheduled action ${a.kind}`);
      await db().scheduledAction.update({ where: { id: a.id }, data: { state: "done", doneAt: new Date(), lockedUntil: null } });
      done++;
    } catch (err) {
      if (err instanceof ConfiguredElsewhere) {
        await db().scheduledAction.update({ where: { id: a.id }, data: { state: "pending", lockedUntil: null, attempts: { decrement: 1 }, dueAt: new Date(Date.now() + 1_000) } });
        continue;
      }
      if (err instanceof NotYet && Date.now() - a.due_at.getTime() < 10 * 60_000) {
        // Waiting on another step (possibly being run by another instance right now) is not a failure.
        await db().scheduledAction.update({ where: { id: a.id }, data: { state: "pending", lockedUntil: null, attempts: { decrement: 1 }, dueAt: new Date(Date.now() + 100) } });
        continue;
      }
      failed++;
      const message = err instanceof Error ? err.message : String(err);
      if (a.kind === "claim_resolution") {
        const errors = a.errors + 1;
        log.warn({ action: a.id, kind: a.kind, claim: a.claim_id, errors, err: message }, "refund step failed; retrying (not counted as an attempt)");
        const wait = (await raiseIfStuck(a, now, message)) ? REFUND_RAISED_RETRY_MS : refundRetryMs(errors);
        await db().scheduledAction.update({
          where: { id: a.id },
          data: { state: "pending", lastError: message.slice(0, 500), lockedUntil: null, attempts: { decrement: 1 }, errors, dueAt: new Date(now.getTime() + wait) },
        });
        continue;
      }
      log.warn({ action: a.id, kind: a.kind, err: message }, "scheduled action failed");
      const giveUp = a.attempts >= MAX_ATTEMPTS;
      await db().scheduledAction.update({
        where: { id: a.id },
        data: { state: giveUp ? "failed" : "pending", lastError: message.slice(0, 500), lockedUntil: null, dueAt: new Date(Date.now() + Math.min(60_000, 100 * 2 ** a.attempts)) },
      });
    }
  }
  return { done, failed };
}
