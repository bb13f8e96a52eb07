// The claim of the delivery job (lib/webhooks/deliver-webhooks.ts): one statement leases due
// deliveries (SKIP LOCKED, so many instances can run it) and returns everything their attempts
// need (delivery, subscription, event body). The lease commits before any request is sent, on
// the ordinary durable pool. Rows of subscriptions already at their cap in this process are
// passed over, so one slow receiver's backlog does not fill every claim.
import { sql } from "@/lib/platform/db";
import type { Environment } from "@/lib/generated/prisma/enums";
import { leaseMs } from "@/lib/webhooks/delivery-schedule";

// How much further than the rows it may take a claim looks, so that rows of subscriptions
// already at their cap do not crowd out the others' in one statement.
const SCAN_FACTOR = 4;

// $1 now (null: the database's clock), $2 lease ms, $3 rows wanted, $4/$5 in flight here per
// subscription, $6 subscriptions at their cap, $7 the cap, [$8 only these subscriptions].
const claimSql = (scoped: boolean) => `
  WITH t AS (SELECT coalesce($1::timestamptz, now()) AS now),
  busy AS (SELECT b.subscription_id, b.n FROM unnest($4::text[], $5::int[]) AS b(subscription_id, n)),
  cand AS (
    SELECT d.id, d.subscription_id, d.event_id, d.next_attempt_at FROM webhook_deliveries d, t
    WHERE d.status = 'pending' AND d.next_attempt_at <= t.now AND (d.locked_until IS NULL OR d.locked_until < t.now)
      AND d.subscription_id <> ALL($6::text[])${scoped ? " AND d.subscription_id = ANY($8::text[])" : ""}
    ORDER BY d.next_attempt_at LIMIT $3::int * ${SCAN_FACTOR} FOR UPDATE OF d SKIP LOCKED),
  pick AS (
    SELECT r.id, r.subscription_id, r.event_id FROM (
      SELECT c.id, c.subscription_id, c.event_id, c.next_attempt_at, coalesce(b.n, 0) AS n,
             row_number() OVER (PARTITION BY c.subscription_id ORDER BY c.next_attempt_at, c.id) AS rn
      FROM cand c LEFT JOIN busy b ON b.subscription_id = c.subscription_id) r
    WHERE r.rn + r.n <= $7::int ORDER BY r.next_attempt_at LIMIT $3::int)
  UPDATE webhook_deliveries d SET locked_until = (SELECT now FROM t) + make_interval(secs => $2::int / 1000.0), updated_at = now()
  FROM pick JOIN webhook_subscriptions s ON s.id = pick.subscription_id LEFT JOIN events e ON e.id = pick.event_id
  WHERE d.id = pick.id
  RETURNING d.id, d.event_id, d.event, d.attempts, s.id AS subscription_id, s.url, s.environment, s.status AS subscription_status, s.managed,
            s.deleted_at, s.secret_encrypted, s.previous_secret_encrypted, s.previous_secret_expires_at, s.failing_since, e.payload::text AS body`;
const CLAIM = claimSql(false);
const CLAIM_SCOPED = claimSql(true);

/** A leased delivery with its subscription and its event's body (null: the event is gone). */
export type Claimed = {
  id: string; event_id: string; event: string; attempts: number; subscription_id: string; url: string; environment: Environment; subscription_status: string; managed: boolean;
  deleted_at: Date | null; secret_encrypted: string; previous_secret_encrypted: string | null; previous_secret_expires_at: Date | null; failing_since: Date | null; body: string | null;
};

/**
 * Leases up to `wanted` due deliveries. `held`: rows this process holds per subscription (in
 * flight or waiting); a subscription holds at most `cap`. `now` and `subscriptionIds` are tests'.
 */
export function claimDeliveries(wanted: number, held: Map<string, number>, cap: number, opts: { now?: Date; subscriptionIds?: string[] }): Promise<Claimed[]> {
  const busy = [...held.entries()];
  const full = busy.filter(([, n]) => n >= cap).map(([id]) => id);
  const values = [opts.now ?? null, leaseMs(), wanted, busy.map(([id]) => id), busy.map(([, n]) => n), full, cap];
  return opts.subscriptionIds ? sql<Claimed>(CLAIM_SCOPED, [...values, opts.subscriptionIds]) : sql<Claimed>(CLAIM, values);
}
