// The webhook delivery pipeline (docs/integrators/webhooks.md): a run is a pipeline, not a batch. One
// statement claims due rows (lib/webhooks/claim-deliveries.ts); they wait in their
// subscription's lane (lib/webhooks/delivery-lanes.ts) and go out as slots free; as each answer
// arrives its slot is refilled, and outcomes are written a batch per statement while the next
// attempts are in flight (lib/webhooks/record-outcomes.ts). At most WEBHOOK_CONCURRENCY attempts
// are in flight per process and WEBHOOK_SUBSCRIPTION_CONCURRENCY per subscription. The process
// has one pipeline (lib/webhooks/deliver-webhooks.ts); tests make more.
import { config } from "@/lib/platform/config";
import { fanOutEvents } from "@/lib/webhooks/fan-out-events";
import { claimDeliveries } from "@/lib/webhooks/claim-deliveries";
import { outcomeWriter } from "@/lib/webhooks/record-outcomes";
import { deliveryLanes, type LaneJob } from "@/lib/webhooks/delivery-lanes";

// Answers to wait for between two claims when the last one came back short.
const REFILL_BATCH = 32;
// How often a claim also looks for due rows of subscriptions this process does not know (rows
// fanned out or retried by another instance); its own fan-out and a wake look at once.
const DISCOVER_MS = 250;

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
  let stopped = false;
  let waiters: (() => void)[] = [];
  let poked = false;
  // Answers of subscriptions with no rows left waiting here, at the last claim.
  let drainedAtClaim = 0;
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
  const lanes = deliveryLanes({ concurrency, perSubscription, write: writer.write, changed: poke });

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
    let lastDiscovery = 0;
    let fannedOut = false;
    // When the last claim went out (a discovering claim leaves lastDiscovery equal to it).
    let claimStarted = -1;
    while (!stopped) {
      // Room for a process's worth in flight and as much again waiting.
      const wanted = Math.min(concurrency() * 2 - lanes.inFlight - lanes.queued, limit);
      let claimed = 0;
      if (wanted > 0) {
        const discover = lastDiscovery === 0 || woken || fannedOut || Date.now() - lastDiscovery >= DISCOVER_MS;
        claimStarted = Date.now();
        if (discover) {
          lastDiscovery = claimStarted;
          fannedOut = false;
        }
        poked = false;
        woken = false;
        drainedAtClaim = lanes.drained;
        const claimedAt = Date.now();
        const rows = await claimDeliveries(wanted, lanes.holdings(), lanes.capFor(undefined), discover, opts);
        claimed = rows.length;
        attempted += claimed;
        for (const d of rows) {
          let finish!: (ok: boolean) => void;
          const done = new Promise<boolean>((r) => (finish = r));
          const job: LaneJob = { d, claimedAt, now: opts.now, done, finish };
          mine.add(done);
          void done.then((ok) => {
            if (ok) succeeded++;
            mine.delete(done);
            poke();
          });
          lanes.add(job);
        }
        lanes.pump();
        // Claims ran dry: turn new events into deliveries, when there may be any (a wake, the last
        // fan-out found some, or 250 ms or a ticker period since the last look, whichever is
        // shorter: never less often than the ticker looks when no run is under way, so events
        // written without a wake wait no longer while a slow receiver keeps this run going).
        if (claimed < wanted && opts.fanOut !== false && (woken || fanOutFound || Date.now() - lastFanOut >= Math.min(250, config().JOBS_TICK_MS))) {
          lastFanOut = Date.now();
          fanOutFound = (await fanOutEvents({ limit: 1_000 })) > 0;
          if (fanOutFound) {
            fannedOut = true;
            continue;
          }
        }
      }
      if (Date.now() - started > budgetMs) {
        more = true;
        break;
      }
      if (claimed === 0 && mine.size === 0) {
        // Nothing of the known subscriptions is due: look at every other's before the run ends.
        if (lastDiscovery !== claimStarted) {
          lastDiscovery = 0;
          continue;
        }
        break;
      }
      if (claimed === wanted && lanes.inFlight + lanes.queued < concurrency() * 2) continue;
      // Nothing more can be taken now. The next claim waits for a batch's worth of answers (rows
      // already claimed keep the slots busy meanwhile: a claim per answer would mostly re-read the
      // rows of subscriptions at their cap), for a wake, for the last of this run's deliveries, or
      // at most a ticker period: events written without a wake (or on another instance) are found
      // by looking, as often as the ticker would look.
      // The answers counted, since the claim (those that came during the fan-out too), are those
      // of subscriptions running low, with fewer claimed rows waiting here than their slots
      // (lib/webhooks/delivery-lanes.ts): only they make room a claim must fill soon (another's
      // slot is refilled from its waiting rows). Once none of those is in flight, there is nothing
      // left to wait for. Counting every answer from the wait's start (a slow
      // receiver's 64 held for 2 s among them) had the run sit out the ticker period with the
      // others' slots empty: beside a 2 s receiver, a fast one got one claim's worth per tick.
      const deadline = Date.now() + (limits.tickMs ?? config().JOBS_TICK_MS);
      while (!stopped && !woken && mine.size > 0 && Date.now() < deadline) {
        const answered = lanes.drained - drainedAtClaim;
        if (answered >= REFILL_BATCH || (answered > 0 && !lanes.drainingInFlight())) break;
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
    lanes.stop();
    poke();
    await lanes.settled();
    await writer.idle();
  };

  return { run, drain, poke: wake };
}
