// Delivery: due deliveries are claimed with a lease (SKIP LOCKED, so many instances can run this)
// and POSTed with the section 6 headers. 2xx succeeds; anything else is retried after 5 s,
// 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (× WEBHOOK_RETRY_SCALE), then fails; a subscription whose
// deliveries have only failed for 5 days is disabled. A delivery is marked succeeded only after
// a 2xx was received; a crash mid-attempt leaves it pending and the lease expiry retries it.
import { db, sql } from "@/lib/db";
import { config } from "@/lib/config";
import { log } from "@/lib/log";
import { metrics } from "@/lib/metrics/registry";
import { deliveryHeaders } from "@/lib/webhooks/sign";
import { signingSecrets } from "@/lib/webhooks/subscriptions";
import { policyFor, type OutboundPolicy } from "@/lib/webhooks/url-policy";
import { OutboundRefused, postChecked } from "@/lib/webhooks/outbound";
import type { Environment } from "@/lib/generated/prisma/enums";

export const RETRY_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 36000];
export const MAX_ATTEMPTS = RETRY_SCHEDULE_SECONDS.length + 1;
export const DISABLE_AFTER_MS = 5 * 86_400_000;
// A claimed delivery is leased for longer than an attempt can take; if its runner dies (crash,
// kill -9), the lease expires and another runner retries it.
const timeoutMs = () => config().WEBHOOK_TIMEOUT_MS;
const leaseMs = () => Math.round(timeoutMs() * 1.5) + 1_000;
const CONCURRENCY = 16;

const CLAIM = `
  UPDATE webhook_deliveries SET locked_until = $1, updated_at = now()
  WHERE id IN (SELECT id FROM webhook_deliveries
    WHERE status = 'pending' AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until < now())
    ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED)
  RETURNING id`;

type Attempt = { status: number | null; body: string; durationMs: number };

async function post(url: string, body: string, headers: Record<string, string>, policy: OutboundPolicy): Promise<Attempt> {
  const started = performance.now();
  try {
    const res = await postChecked(url, body, { "content-type": "application/json", "user-agent": "LatamPayments-Webhooks/1", ...headers }, policy, timeoutMs());
    return { status: res.status, body: res.body, durationMs: Math.round(performance.now() - started) };
  } catch (err) {
    if (err instanceof OutboundRefused) return { status: null, body: `refused: ${err.message}`, durationMs: Math.round(performance.now() - started) };
    return { status: null, body: `request failed: ${err instanceof Error ? err.name : "error"}`, durationMs: Math.round(performance.now() - started) };
  }
}

// Everything an attempt needs in one read (delivery, subscription, event body as sent), and
// its outcome in one write: the lean `sql` path, as delivery runs thousands of times a minute.
const LOAD = `
  SELECT d.id, d.event_id, d.event, d.attempts, d.status, s.id AS subscription_id, s.url, s.environment, s.status AS subscription_status, s.managed,
         s.deleted_at, s.secret_encrypted, s.previous_secret_encrypted, s.previous_secret_expires_at, s.failing_since,
         e.payload::text AS body
  FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id JOIN events e ON e.id = d.event_id
  WHERE d.id = $1`;
const RECORD = `
  UPDATE webhook_deliveries SET status = $2, attempts = $3, response_status = $4, response_body = $5, duration_ms = $6,
    next_attempt_at = $7, locked_until = NULL, updated_at = now()
  WHERE id = $1`;

const STOP = `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, locked_until = NULL, updated_at = now() WHERE id = $1`;

type Loaded = {
  id: string; event_id: string; event: string; attempts: number; status: string; subscription_id: string; url: string; environment: Environment; subscription_status: string; managed: boolean;
  deleted_at: Date | null; secret_encrypted: string; previous_secret_encrypted: string | null; previous_secret_expires_at: Date | null; failing_since: Date | null; body: string;
};

async function deliverOne(id: string): Promise<boolean> {
  const [d] = await sql<Loaded>(LOAD, [id]);
  if (!d || d.status !== "pending") return false;
  if (d.deleted_at || d.subscription_status !== "enabled") {
    // Not attempted: the log keeps the last real answer.
    await sql(STOP, [id]);
    return false;
  }
  const { current, previous } = signingSecrets({ secretEncrypted: d.secret_encrypted, previousSecretEncrypted: d.previous_secret_encrypted, previousSecretExpiresAt: d.previous_secret_expires_at });
  // The URL policy is applied on the address connected to (lib/webhooks/outbound.ts). A managed
  // subscription's URL is our own inbox (APP_URL), never merchant-given.
  const policy = { ...policyFor(d.environment), ownInbox: d.managed };
  const attempt = await post(d.url, d.body, { ...deliveryHeaders(d.event_id, d.body, current, previous), "X-Service-Event": d.event, "X-Service-Delivery": d.id }, policy);
  const ok = attempt.status !== null && attempt.status >= 200 && attempt.status < 300;
  const attempts = d.attempts + 1;
  const wait = RETRY_SCHEDULE_SECONDS[attempts - 1];
  const status = ok ? "succeeded" : attempts >= MAX_ATTEMPTS || wait === undefined ? "failed" : "pending";
  const nextAttemptAt = status === "pending" ? new Date(Date.now() + Math.round(wait! * 1000 * config().WEBHOOK_RETRY_SCALE)) : null;
  await sql(RECORD, [id, status, attempts, attempt.status, attempt.body, attempt.durationMs, nextAttemptAt]);
  metrics().webhookDeliveries.inc({ outcome: status === "pending" ? "retrying" : status });
  if (ok && d.failing_since) await db().webhookSubscription.update({ where: { id: d.subscription_id }, data: { failingSince: null } });
  if (!ok) {
    if (!d.failing_since) await db().webhookSubscription.updateMany({ where: { id: d.subscription_id, failingSince: null }, data: { failingSince: new Date() } });
    else if (Date.now() - d.failing_since.getTime() > DISABLE_AFTER_MS) {
      await db().webhookSubscription.update({ where: { id: d.subscription_id }, data: { status: "disabled" } });
      log.warn({ subscription: d.subscription_id }, "webhook subscription disabled after 5 days of failed deliveries");
    }
  }
  return ok;
}

export async function deliverDueWebhooks(opts: { limit?: number } = {}): Promise<{ attempted: number; succeeded: number }> {
  const ids = (await sql<{ id: string }>(CLAIM, [new Date(Date.now() + leaseMs()), opts.limit ?? 200])).map((r) => r.id);
  let succeeded = 0;
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++]!;
      try {
        if (await deliverOne(id)) succeeded++;
      } catch (err) {
        log.error({ delivery: id, err: err instanceof Error ? err.message : String(err) }, "webhook delivery crashed; its lease will expire and it will be retried");
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, ids.length) }, worker));
  return { attempted: ids.length, succeeded };
}
