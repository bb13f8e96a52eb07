// Delivery: due deliveries are claimed with a lease (SKIP LOCKED, so many instances can run this)
// and POSTed with the section 6 headers. 2xx succeeds; anything else is retried after 5 s,
// 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (× WEBHOOK_RETRY_SCALE), then fails; a subscription whose
// deliveries have only failed for 5 days is disabled. A delivery is marked succeeded only after
// a 2xx was received; a crash mid-attempt leaves it pending and the lease expiry retries it.
//
// Throughput (docs/integrators/webhooks.md, "Webhooks"): a run is a pipeline, not a batch. One statement claims due rows
// and returns everything their attempts need (delivery, subscription, event body); attempts go
// out over keep-alive pools per destination (lib/webhooks/agents.ts); as each answer arrives its
// slot is refilled by the next claim, and outcomes are written a batch per statement while the
// next attempts are in flight. At most WEBHOOK_CONCURRENCY attempts are in flight per process
// and WEBHOOK_SUBSCRIPTION_CONCURRENCY per subscription, so a slow receiver holds its own slots
// and never the others'.
//
// Durability: the claim (the lease) commits before any request is sent, on the ordinary durable
// pool; an outcome is written after its answer. Losing an outcome (a crash before its batch
// commits) leaves the row pending and leased: the lease expires and it is sent again, a duplicate
// the receiver drops by event id (at least once, never lost).
import { db, sql } from "@/lib/platform/db";
import { config } from "@/lib/platform/config";
import { log } from "@/lib/platform/log";
import { singleton } from "@/lib/platform/singleton";
import { metrics } from "@/lib/platform/metrics/registry";
import { JOB_SIGNALS, onWake } from "@/lib/platform/outbox/wake";
import { CLOSE_ORDER, onShutdown } from "@/lib/platform/lifecycle";
import { deliveryHeaders } from "@/lib/webhooks/sign";
import { signingSecrets } from "@/lib/webhooks/subscriptions";
import { policyFor, type OutboundPolicy } from "@/lib/webhooks/url-policy";
import { OutboundRefused, postChecked } from "@/lib/webhooks/outbound";
import { agentFor } from "@/lib/webhooks/agents";
import { fanOutEvents } from "@/lib/webhooks/fan-out-events";
import type { Environment } from "@/lib/generated/prisma/enums";

export const RETRY_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 36000];
export const MAX_ATTEMPTS = RETRY_SCHEDULE_SECONDS.length + 1;
export const DISABLE_AFTER_MS = 5 * 86_400_000;
// A claimed delivery is leased for longer than an attempt can take; if its runner dies (crash,
// kill -9), the lease expires and another runner retries it.
const timeoutMs = () => config().WEBHOOK_TIMEOUT_MS;
export const leaseMs = () => Math.round(timeoutMs() * 1.5) + 1_000;
// How much further than the rows it may take a claim looks, so that rows of subscriptions
// already at their cap do not crowd out the others' in one statement.
const SCAN_FACTOR = 4;
// Answers to wait for between two claims when the last one came back short.
const REFILL_BATCH = 32;

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

// Outcomes of many attempts in one statement.
const RECORD = `
  UPDATE webhook_deliveries d SET status = r.status, attempts = r.attempts, response_status = r.response_status, response_body = r.response_body,
    duration_ms = r.duration_ms, next_attempt_at = r.next_attempt_at, locked_until = NULL, updated_at = now()
  FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::text[], $6::int[], $7::timestamptz[])
    AS r(id, status, attempts, response_status, response_body, duration_ms, next_attempt_at)
  WHERE d.id = r.id`;

const STOP = `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, locked_until = NULL, updated_at = now() WHERE id = $1`;

type Claimed = {
  id: string; event_id: string; event: string; attempts: number; subscription_id: string; url: string; environment: Environment; subscription_status: string; managed: boolean;
  deleted_at: Date | null; secret_encrypted: string; previous_secret_encrypted: string | null; previous_secret_expires_at: Date | null; failing_since: Date | null; body: string | null;
};

type Outcome = {
  id: string; subscriptionId: string; ok: boolean; status: "succeeded" | "pending" | "failed"; attempts: number; responseStatus: number | null; responseBody: string;
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
async function attempt(d: Claimed, perSubscription: number, now: Date | undefined): Promise<Outcome | null> {
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
  const wait = RETRY_SCHEDULE_SECONDS[attempts - 1];
  const status = ok ? "succeeded" : attempts >= MAX_ATTEMPTS || wait === undefined ? "failed" : "pending";
  const nextAttemptAt = status === "pending" ? new Date((now?.getTime() ?? Date.now()) + Math.round(wait! * 1000 * config().WEBHOOK_RETRY_SCALE)) : null;
  return { id: d.id, subscriptionId: d.subscription_id, ok, status, attempts, responseStatus: a.status, responseBody: a.body, durationMs: a.durationMs, nextAttemptAt, failingSince: d.failing_since };
}

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

/** Outcomes queue while a batch is being written; each batch is one write (group commit). */
function outcomeWriter() {
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

export type DeliveryRun = {
  /** Rows per claim statement. */
  limit?: number;
  /** Stop claiming after this long and report `more` (the driver runs the job again at once). */
  budgetMs?: number;
  /** Fan new events out when the claims run dry (the job does; tests that write deliveries need not). */
  fanOut?: boolean;
  /** Tests: the clock the claim and the retry schedule use. */
  now?: Date;
  /** Tests: only these subscriptions' deliveries. */
  subscriptionIds?: string[];
};

export type DeliveryResult = { attempted: number; succeeded: number; more: boolean };

export type Deliverer = {
  run: (opts?: DeliveryRun) => Promise<DeliveryResult>;
  /** Stops claiming and waits for what is in flight and its outcomes (a clean stop). */
  drain: () => Promise<void>;
  /** Wakes a run waiting for a free slot (new work may be due). */
  poke: () => void;
};

/** A delivery pipeline with its own slots; the process has one (`deliverDueWebhooks`), tests make more. */
/** `tickMs`: the longest a run waits between claims (the ticker period; tests set it apart). */
export function createDeliverer(limits: { concurrency?: number; perSubscription?: number; tickMs?: number } = {}): Deliverer {
  const concurrency = () => limits.concurrency ?? config().WEBHOOK_CONCURRENCY;
  const perSubscription = () => limits.perSubscription ?? config().WEBHOOK_SUBSCRIPTION_CONCURRENCY;
  // A subscription holds at most its cap in flight and as many again claimed and waiting here, so
  // a freed slot is refilled without waiting for the next claim statement.
  const heldCap = () => perSubscription() * 2;
  type Job = { d: Claimed; claimedAt: number; now: Date | undefined; done: Promise<boolean>; finish: (ok: boolean) => void };
  const flying = new Map<string, number>();
  const waiting = new Map<string, Job[]>();
  let inFlight = 0;
  let queued = 0;
  const running = new Set<Promise<unknown>>();
  let stopped = false;
  let waiters: (() => void)[] = [];
  let poked = false;
  // Answers of subscriptions with no rows left waiting here (so far, and at the last claim).
  let drained = 0;
  let drainedAtClaim = 0;
  /** Whether a subscription with no rows waiting here still has requests in flight. */
  const drainingInFlight = () => {
    for (const sub of flying.keys()) if (!waiting.get(sub)?.length) return true;
    return false;
  };
  // Whether a wake came (new work may be due) since the last claim.
  let woken = false;
  const poke = () => {
    poked = true;
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  };
  const wake = () => {
    woken = true;
    poke();
  };
  const changed = () => new Promise<void>((r) => waiters.push(r));
  const writer = outcomeWriter();

  const launch = (job: Job): void => {
    const sub = job.d.subscription_id;
    inFlight++;
    flying.set(sub, (flying.get(sub) ?? 0) + 1);
    const p = (async () => {
      let outcome: Outcome | null = null;
      try {
        outcome = await attempt(job.d, perSubscription(), job.now);
      } catch (err) {
        log.error({ delivery: job.d.id, err: err instanceof Error ? err.message : String(err) }, "webhook delivery crashed; its lease will expire and it will be retried");
      } finally {
        // The slot frees on the answer; the row stays leased until its outcome is written.
        inFlight--;
        if (!waiting.get(sub)?.length) drained++;
        const n = (flying.get(sub) ?? 1) - 1;
        if (n > 0) flying.set(sub, n);
        else flying.delete(sub);
        pump();
        poke();
      }
      if (outcome) await writer.write(outcome);
      job.finish(outcome?.ok ?? false);
    })();
    running.add(p);
    void p.finally(() => {
      running.delete(p);
      poke();
    });
  };

  // Starts waiting rows while their subscription and the process have free slots. A row whose
  // lease could no longer cover a whole attempt is not sent: it expires and is claimed again.
  const pump = (): void => {
    if (stopped) return;
    for (const [sub, jobs] of waiting) {
      while (jobs.length && inFlight < concurrency() && (flying.get(sub) ?? 0) < perSubscription()) {
        const job = jobs.shift()!;
        queued--;
        if (Date.now() - job.claimedAt > leaseMs() - timeoutMs() - 1_000) job.finish(false);
        else launch(job);
      }
      if (!jobs.length) waiting.delete(sub);
      if (inFlight >= concurrency()) return;
    }
  };

  const claim = async (wanted: number, opts: DeliveryRun): Promise<Claimed[]> => {
    const cap = heldCap();
    const held = new Map(flying);
    for (const [sub, jobs] of waiting) held.set(sub, (held.get(sub) ?? 0) + jobs.length);
    const busy = [...held.entries()];
    const full = busy.filter(([, n]) => n >= cap).map(([id]) => id);
    const values = [opts.now ?? null, leaseMs(), wanted, busy.map(([id]) => id), busy.map(([, n]) => n), full, cap];
    return opts.subscriptionIds ? sql<Claimed>(CLAIM_SCOPED, [...values, opts.subscriptionIds]) : sql<Claimed>(CLAIM, values);
  };

  const run = async (opts: DeliveryRun = {}): Promise<DeliveryResult> => {
    const limit = opts.limit ?? 200;
    const budgetMs = opts.budgetMs ?? 10_000;
    const started = Date.now();
    const mine = new Set<Promise<boolean>>();
    let attempted = 0;
    let succeeded = 0;
    let more = false;
    let lastFanOut = 0;
    let fanOutFound = true;
    while (!stopped) {
      // Room for a process's worth in flight and as much again waiting.
      const wanted = Math.min(concurrency() * 2 - inFlight - queued, limit);
      let claimed = 0;
      if (wanted > 0) {
        poked = false;
        woken = false;
        drainedAtClaim = drained;
        const claimedAt = Date.now();
        const rows = await claim(wanted, opts);
        claimed = rows.length;
        attempted += claimed;
        for (const d of rows) {
          let finish!: (ok: boolean) => void;
          const done = new Promise<boolean>((r) => (finish = r));
          const job: Job = { d, claimedAt, now: opts.now, done, finish };
          mine.add(done);
          void done.then((ok) => {
            if (ok) succeeded++;
            mine.delete(done);
            poke();
          });
          const list = waiting.get(d.subscription_id);
          if (list) list.push(job);
          else waiting.set(d.subscription_id, [job]);
          queued++;
        }
        pump();
        // Claims ran dry: turn new events into deliveries, when there may be any (a wake, the last
        // fan-out found some, or 250 ms or a ticker period since the last look, whichever is
        // shorter: never less often than the ticker looks when no run is under way, so events
        // written without a wake wait no longer while a slow receiver keeps this run going).
        if (claimed < wanted && opts.fanOut !== false && (woken || fanOutFound || Date.now() - lastFanOut >= Math.min(250, config().JOBS_TICK_MS))) {
          lastFanOut = Date.now();
          fanOutFound = (await fanOutEvents({ limit: 1_000 })) > 0;
          if (fanOutFound) continue;
        }
      }
      if (Date.now() - started > budgetMs) {
        more = true;
        break;
      }
      if (claimed === 0 && mine.size === 0) break;
      if (claimed === wanted && inFlight + queued < concurrency() * 2) continue;
      // Nothing more can be taken now. The next claim waits for a batch's worth of answers (rows
      // already claimed keep the slots busy meanwhile: a claim per answer would mostly re-read the
      // rows of subscriptions at their cap), for a wake, for the last of this run's deliveries, or
      // at most a ticker period: events written without a wake (or on another instance) are found
      // by looking, as often as the ticker would look.
      // The answers counted, since the claim (those that came during the fan-out too), are those
      // of subscriptions with no claimed rows left waiting here: only they make room a claim must
      // fill (another's slot is refilled from its waiting rows). Once none of those is in flight,
      // there is nothing left to wait for. Counting every answer from the wait's start (a slow
      // receiver's 64 held for 2 s among them) had the run sit out the ticker period with the
      // others' slots empty: beside a 2 s receiver, a fast one got one claim's worth per tick.
      const deadline = Date.now() + (limits.tickMs ?? config().JOBS_TICK_MS);
      while (!stopped && !woken && mine.size > 0 && Date.now() < deadline) {
        const answered = drained - drainedAtClaim;
        if (answered >= REFILL_BATCH || (answered > 0 && !drainingInFlight())) break;
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([changed(), new Promise<void>((r) => (timer = setTimeout(r, Math.max(1, deadline - Date.now()))))]);
        clearTimeout(timer);
      }
    }
    if (!more) await Promise.all(mine);
    await writer.idle();
    return { attempted, succeeded, more: more || stopped };
  };

  const drain = async () => {
    stopped = true;
    // Rows claimed but not started are left to their leases.
    for (const jobs of waiting.values()) for (const job of jobs) job.finish(false);
    waiting.clear();
    queued = 0;
    poke();
    await Promise.allSettled([...running]);
    await writer.idle();
  };

  return { run, drain, poke: wake };
}

const shared = () =>
  singleton("webhook-deliverer", () => {
    const d = createDeliverer();
    onWake((signal) => signal === JOB_SIGNALS.webhooksDue && d.poke());
    onShutdown("webhook-deliveries", CLOSE_ORDER.jobs, () => d.drain());
    return d;
  });

/** The job step: delivers what is due (and what becomes due while it runs) with this process's slots. */
export function deliverDueWebhooks(opts: DeliveryRun = {}): Promise<DeliveryResult> {
  return shared().run(opts);
}
