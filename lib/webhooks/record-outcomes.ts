// Outcomes of webhook attempts, written as they arrive while the next attempts are in flight: a
// batch per statement (group commit), with the subscriptions' failure runs (recovered, newly
// failing, disabled after 5 days). A delivery is marked succeeded only after a 2xx was received;
// losing an outcome (a crash before its batch commits) leaves the row pending and leased: the
// lease expires and it is sent again, a duplicate the receiver drops by event id.
import { db, sql } from "@/lib/platform/db";
import { log } from "@/lib/platform/log";
import { metrics } from "@/lib/platform/metrics/registry";
import { DISABLE_AFTER_MS } from "@/lib/webhooks/delivery-schedule";
import type { Outcome } from "@/lib/webhooks/attempt-delivery";

// Outcomes of many attempts in one statement.
const RECORD = `
  UPDATE webhook_deliveries d SET status = r.status, attempts = r.attempts, response_status = r.response_status, response_body = r.response_body,
    duration_ms = r.duration_ms, next_attempt_at = r.next_attempt_at, locked_until = NULL, updated_at = now()
  FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::text[], $6::int[], $7::timestamptz[])
    AS r(id, status, attempts, response_status, response_body, duration_ms, next_attempt_at)
  WHERE d.id = r.id`;

/** Writes outcomes and their subscriptions' failure runs, one statement per kind per batch. */
async function record(batch: Outcome[]): Promise<void> {
  await sql(RECORD, [
    batch.map((o) => o.id), batch.map((o) => o.status), batch.map((o) => o.attempts), batch.map((o) => o.responseStatus), batch.map((o) => o.responseBody),
    batch.map((o) => o.durationMs), batch.map((o) => o.nextAttemptAt?.toISOString() ?? null),
  ]);
  for (const o of batch) metrics().webhookDeliveries.inc({ outcome: o.status === "pending" ? "retrying" : o.status });
  const recovered = [...new Set(batch.filter((o) => o.ok && o.failingSince).map((o) => o.subscriptionId))];
  const newlyFailing = [...new Set(batch.filter((o) => !o.ok && !o.failingSince).map((o) => o.subscriptionId))];
  const expired = [...new Set(batch.filter((o) => !o.ok && o.failingSince && Date.now() - o.failingSince.getTime() > DISABLE_AFTER_MS).map((o) => o.subscriptionId))];
  if (recovered.length) await db().webhookSubscription.updateMany({ where: { id: { in: recovered } }, data: { failingSince: null } });
  if (newlyFailing.length) await db().webhookSubscription.updateMany({ where: { id: { in: newlyFailing }, failingSince: null }, data: { failingSince: new Date() } });
  if (expired.length) {
    await db().webhookSubscription.updateMany({ where: { id: { in: expired } }, data: { status: "disabled" } });
    for (const id of expired) log.warn({ subscription: id }, "webhook subscription disabled after 5 days of failed deliveries");
  }
}

export type OutcomeWriter = {
  /** Queues an outcome; resolves once its batch was written (or failed to be). */
  write: (o: Outcome) => Promise<void>;
  /** Resolves once nothing is being written. */
  idle: () => Promise<void>;
};

/** Outcomes queue while a batch is being written; each batch is one write (group commit). */
export function outcomeWriter(): OutcomeWriter {
  let queue: { o: Outcome; done: () => void }[] = [];
  let flushing: Promise<void> | null = null;
  const kick = () => {
    if (flushing) return;
    flushing = (async () => {
      while (queue.length) {
        const batch = queue;
        queue = [];
        try {
          await record(batch.map((b) => b.o));
        } catch (err) {
          log.error({ deliveries: batch.length, err: err instanceof Error ? err.message : String(err) }, "webhook outcomes not recorded; their leases will expire and they will be sent again");
        }
        for (const b of batch) b.done();
      }
    })().finally(() => {
      flushing = null;
      if (queue.length) kick();
    });
  };
  return {
    write: (o: Outcome) => new Promise<void>((done) => {
      queue.push({ o, done });
      kick();
    }),
    idle: async () => {
      while (flushing) await flushing;
    },
  };
}
