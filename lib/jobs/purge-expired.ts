// Retention: what no one needs any more is deleted, in small batches (each a short statement on
// rows nobody else holds: SKIP LOCKED), so a hot table is never locked for long and a large
// backlog drains over a few runs instead of one long one.
//   idempotency records  past their 24 h (never one still processing)
//   inbox messages       past 30 days
//   scheduled actions    done or failed, 7 days after
//   webhook deliveries   finished (succeeded or failed), past 30 days
//   events               past 30 days, fanned out, with no delivery still pending
//   request logs         past 7 days (the dashboard's recent requests)
import { sql } from "@/lib/platform/db";

const DAY = 86_400_000;
export const RETENTION = { inboxDays: 30, scheduledActionDays: 7, deliveryDays: 30, eventDays: 30, requestLogDays: 7 } as const;

type Rule = { name: string; statement: string; cutoff: (now: Date) => Date };

const batch = (table: string, where: string) => `DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE ${where} LIMIT $2 FOR UPDATE SKIP LOCKED)`;

const RULES: Rule[] = [
  { name: "idempotency_records", statement: batch("idempotency_records", "expires_at < $1 AND state <> 'processing'"), cutoff: (now) => now },
  { name: "inbox_messages", statement: batch("inbox_messages", "received_at < $1"), cutoff: (now) => new Date(now.getTime() - RETENTION.inboxDays * DAY) },
  { name: "scheduled_actions", statement: batch("scheduled_actions", "state IN ('done', 'failed') AND coalesce(done_at, due_at) < $1"), cutoff: (now) => new Date(now.getTime() - RETENTION.scheduledActionDays * DAY) },
  { name: "webhook_deliveries", statement: batch("webhook_deliveries", "status IN ('succeeded', 'failed') AND created_at < $1"), cutoff: (now) => new Date(now.getTime() - RETENTION.deliveryDays * DAY) },
  {
    name: "events",
    statement: `DELETE FROM events WHERE id IN (SELECT e.id FROM events e WHERE e.created_at < $1 AND e.fanned_out_at IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending') LIMIT $2 FOR UPDATE SKIP LOCKED)`,
    cutoff: (now) => new Date(now.getTime() - RETENTION.eventDays * DAY),
  },
  { name: "api_request_logs", statement: batch("api_request_logs", "created_at < $1"), cutoff: (now) => new Date(now.getTime() - RETENTION.requestLogDays * DAY) },
];

/** One run: up to `maxBatches` batches of `batchSize` rows per table; answers how many rows each lost. */
export async function purgeExpired(opts: { now?: Date; batchSize?: number; maxBatches?: number } = {}): Promise<Record<string, number>> {
  const now = opts.now ?? new Date();
  const size = opts.batchSize ?? 500;
  const out: Record<string, number> = {};
  for (const rule of RULES) {
    let total = 0;
    for (let i = 0; i < (opts.maxBatches ?? 20); i++) {
      const deleted = (await sql<{ id: string }>(`${rule.statement} RETURNING id`, [rule.cutoff(now), size])).length;
      total += deleted;
      if (deleted < size) break;
    }
    out[rule.name] = total;
  }
  return out;
}
