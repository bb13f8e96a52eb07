// The claim of the delivery job (lib/webhooks/deliver-webhooks.ts): one statement leases due
// deliveries (SKIP LOCKED, so many instances can run it) and returns everything their attempts
// need (delivery, subscription, event body). The lease commits before any request is sent, on
// the ordinary durable pool.
//
// A claim takes rows two ways:
// - for each subscription this process already knows (it holds rows of it, or it answered
//   lately), that subscription's own due rows, as many as it has room for, from its own range of
//   the index on (subscription_id, next_attempt_at): it locks only what it takes, and one
//   subscription's backlog never stands in front of another's;
// - when asked to discover (a run's first claim, after its own fan-out wrote rows, on a wake, and
//   every DISCOVER_MS otherwise: the caller decides), the oldest due rows of every other
//   subscription, in next-attempt order.
// The one scan of every due row in next-attempt order it replaces read, on every claim, each row
// of a slow subscription's backlog before the others' (excluded only once read), and when that
// subscription had a slot free its rows filled the claim and the others got none that round trip.
// bench:webhooks on a 2-core machine emulated 4x slower: a fast receiver beside a 2 s one lost
// 11.6 % (median of three rounds) before, 1.0 % after; PostgreSQL's CPU a delivery 126 -> 93 µs
// with the partial indexes (docs/contributors/benchmarks.md).
import { sql } from "@/lib/platform/db";
import type { Environment } from "@/lib/generated/prisma/enums";
import { leaseMs } from "@/lib/webhooks/delivery-schedule";

// How much further than the rows it may take discovery looks, so that the rows of one
// subscription do not crowd out the others' in one statement.
const SCAN_FACTOR = 4;

// The clock is written out, not read from a CTE: a bound taken from a CTE is a join filter, not an
// index condition, and the generic plan a named statement settles on after five runs
// (lib/platform/db.ts) then read the index from its start with no upper bound, every pending row
// due later (a backlog parked for a day, retries in backoff) on every claim short of its limit.
const NOW = `coalesce($1::timestamptz, now())`;
const DUE = `d.status = 'pending' AND d.next_attempt_at <= ${NOW} AND (d.locked_until IS NULL OR d.locked_until < ${NOW})`;

// $1 now (null: the database's clock), $2 lease ms, $3/$4/$5 the subscriptions known here, the rows
// held of each and its cap, $6 rows wanted, $7 discover, $8 the cap of a subscription not known,
// [$9 only these subscriptions].
const claimSql = (scoped: boolean) => {
  const scope = scoped ? " AND d.subscription_id = ANY($9::text[])" : "";
  return `
  WITH known AS (SELECT k.subscription_id, greatest(k.cap - k.n, 0) AS room FROM unnest($3::text[], $4::int[], $5::int[]) AS k(subscription_id, n, cap)),
  mine AS (
    SELECT x.id, x.subscription_id, x.event_id, x.next_attempt_at FROM known k CROSS JOIN LATERAL (
      SELECT d.id, d.subscription_id, d.event_id, d.next_attempt_at FROM webhook_deliveries d
      WHERE d.subscription_id = k.subscription_id AND ${DUE}${scope}
      ORDER BY d.next_attempt_at LIMIT k.room FOR UPDATE SKIP LOCKED) x),
  found AS (
    SELECT d.id, d.subscription_id, d.event_id, d.next_attempt_at FROM webhook_deliveries d
    WHERE $7::boolean AND ${DUE} AND d.subscription_id <> ALL($3::text[])${scope}
    ORDER BY d.next_attempt_at LIMIT $6::int * ${SCAN_FACTOR} FOR UPDATE SKIP LOCKED),
  others AS (
    SELECT f.id, f.subscription_id, f.event_id, f.next_attempt_at FROM (
      SELECT f.*, row_number() OVER (PARTITION BY f.subscription_id ORDER BY f.next_attempt_at, f.id) AS rn FROM found f) f
    WHERE f.rn <= $8::int),
  pick AS (
    SELECT a.id, a.subscription_id, a.event_id FROM (SELECT * FROM mine UNION ALL SELECT * FROM others) a
    ORDER BY a.next_attempt_at LIMIT $6::int)
  UPDATE webhook_deliveries d SET locked_until = ${NOW} + make_interval(secs => $2::int / 1000.0), updated_at = now()
  FROM pick p JOIN webhook_subscriptions s ON s.id = p.subscription_id LEFT JOIN events e ON e.id = p.event_id
  WHERE d.id = p.id
  RETURNING d.id, d.event_id, d.event, d.attempts, s.id AS subscription_id, s.url, s.environment, s.status AS subscription_status, s.managed,
            s.deleted_at, s.secret_encrypted, s.previous_secret_encrypted, s.previous_secret_expires_at, s.failing_since, e.payload::text AS body`;
};
const CLAIM = claimSql(false);
const CLAIM_SCOPED = claimSql(true);

/** A leased delivery with its subscription and its event's body (null: the event is gone). */
export type Claimed = {
  id: string; event_id: string; event: string; attempts: number; subscription_id: string; url: string; environment: Environment; subscription_status: string; managed: boolean;
  deleted_at: Date | null; secret_encrypted: string; previous_secret_encrypted: string | null; previous_secret_expires_at: Date | null; failing_since: Date | null; body: string | null;
};

/** What this process holds of a subscription it knows (in flight or waiting) and the most it may hold. */
export type Holding = { held: number; cap: number };

/**
 * Leases up to `wanted` due deliveries: the known subscriptions' (`known`: rows held and cap of
 * each) up to their room, and with `discover` those of any other subscription, up to `cap` each.
 * `now` and `subscriptionIds` are tests'.
 */
export function claimDeliveries(wanted: number, known: Map<string, Holding>, cap: number, discover: boolean, opts: { now?: Date; subscriptionIds?: string[] }): Promise<Claimed[]> {
  const subs = [...known.entries()];
  const values: unknown[] = [opts.now ?? null, leaseMs(), subs.map(([id]) => id), subs.map(([, h]) => h.held), subs.map(([, h]) => h.cap), wanted, discover, cap];
  return opts.subscriptionIds ? sql<Claimed>(CLAIM_SCOPED, [...values, opts.subscriptionIds]) : sql<Claimed>(CLAIM, values);
}
