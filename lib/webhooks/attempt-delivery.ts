// One attempt of a claimed webhook delivery: sign it, POST it with the section 6 headers over the
// destination's keep-alive pool (lib/webhooks/agents.ts) under the URL policy, and turn the answer
// into the delivery's next state (lib/webhooks/delivery-schedule.ts). Nothing is written here but
// the stop of a delivery whose subscription is gone: outcomes are written in batches
// (lib/webhooks/record-outcomes.ts).
import { sql } from "@/lib/platform/db";
import { deliveryHeaders } from "@/lib/webhooks/sign";
import { signingSecrets } from "@/lib/webhooks/subscriptions";
import { policyFor, type OutboundPolicy } from "@/lib/webhooks/url-policy";
import { OutboundRefused, postChecked } from "@/lib/webhooks/outbound";
import { agentFor } from "@/lib/webhooks/agents";
import { afterAttempt, timeoutMs, type DeliveryStatus } from "@/lib/webhooks/delivery-schedule";
import type { Claimed } from "@/lib/webhooks/claim-deliveries";

const STOP = `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, locked_until = NULL, updated_at = now() WHERE id = $1`;

/** What an attempt leaves to record. */
export type Outcome = {
  id: string; subscriptionId: string; ok: boolean; status: DeliveryStatus; attempts: number; responseStatus: number | null; responseBody: string;
  durationMs: number; nextAttemptAt: Date | null; failingSince: Date | null;
};

type Attempt = { status: number | null; body: string; durationMs: number };

async function post(url: string, body: string, headers: Record<string, string>, policy: OutboundPolicy, maxSockets: number): Promise<Attempt> {
  const started = performance.now();
  try {
    const res = await postChecked(url, body, { "content-type": "application/json", "user-agent": "LatamPayments-Webhooks/1", ...headers }, policy, timeoutMs(), {
      agent: (u) => agentFor(u, policy, maxSockets),
    });
    return { status: res.status, body: res.body, durationMs: Math.round(performance.now() - started) };
  } catch (err) {
    if (err instanceof OutboundRefused) return { status: null, body: `refused: ${err.message}`, durationMs: Math.round(performance.now() - started) };
    return { status: null, body: `request failed: ${err instanceof Error ? err.name : "error"}`, durationMs: Math.round(performance.now() - started) };
  }
}

/** One attempt of a claimed delivery; null when it is not attempted (its subscription is gone). */
export async function attemptDelivery(d: Claimed, perSubscription: number, now: Date | undefined): Promise<Outcome | null> {
  if (d.deleted_at || d.subscription_status !== "enabled" || d.body === null) {
    // Not attempted: the log keeps the last real answer.
    await sql(STOP, [d.id]);
    return null;
  }
  const { current, previous } = signingSecrets({ secretEncrypted: d.secret_encrypted, previousSecretEncrypted: d.previous_secret_encrypted, previousSecretExpiresAt: d.previous_secret_expires_at });
  // The URL policy is applied on the address connected to (lib/webhooks/outbound.ts). A managed
  // subscription's URL is our own inbox (APP_URL), never merchant-given.
  const policy = { ...policyFor(d.environment), ownInbox: d.managed };
  const a = await post(d.url, d.body, { ...deliveryHeaders(d.event_id, d.body, current, previous), "X-Service-Event": d.event, "X-Service-Delivery": d.id }, policy, perSubscription);
  const ok = a.status !== null && a.status >= 200 && a.status < 300;
  const attempts = d.attempts + 1;
  const { status, nextAttemptAt } = afterAttempt(ok, attempts, now);
  return { id: d.id, subscriptionId: d.subscription_id, ok, status, attempts, responseStatus: a.status, responseBody: a.body, durationMs: a.durationMs, nextAttemptAt, failingSince: d.failing_since };
}
