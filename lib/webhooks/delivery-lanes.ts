// The slots of one delivery pipeline (lib/webhooks/delivery-pipeline.ts): a lane per
// subscription, at most `perSubscription` attempts in flight in each and `concurrency` in all, so
// a slow receiver holds its own slots and never the others'. Claimed rows wait in their lane; as
// each answer arrives its slot is refilled from the lane's waiting rows, and the outcome goes to
// the writer (the row stays leased until it is written).
//
// How many rows a subscription may hold waiting follows how fast it answers. One that answers
// slowly holds its slots' worth again (more would wait past their leases). One that answers
// within FAST_ANSWER_MS holds three times its slots: its refill claim goes out while two slots'
// worth still wait, so the claim's round trip (7-18 ms on a loaded 2-core machine, when 64 slots
// empty in 16 ms at 4,000/s) is covered, and each claim takes more rows (fewer claims a delivery).
import { log } from "@/lib/platform/log";
import { leaseMs, timeoutMs } from "@/lib/webhooks/delivery-schedule";
import { attemptDelivery, type Outcome } from "@/lib/webhooks/attempt-delivery";
import type { Claimed, Holding } from "@/lib/webhooks/claim-deliveries";

// A subscription whose answers (a moving average) come within this is fast.
const FAST_ANSWER_MS = 100;
// Paces remembered (subscriptions that answered lately), so a fast one keeps its room between claims.
const PACES_KEPT = 10_000;
// Subscriptions that answered last and hold nothing now, still claimed as known (from their own
// index range) rather than left to the next discovery (lib/webhooks/claim-deliveries.ts).
const RECENT_KNOWN = 64;

/** A claimed row in its lane; `finish` settles `done` with whether it succeeded. */
export type LaneJob = { d: Claimed; claimedAt: number; now: Date | undefined; done: Promise<boolean>; finish: (ok: boolean) => void };

export type DeliveryLanes = {
  /** Attempts in flight. */
  readonly inFlight: number;
  /** Claimed rows waiting for a slot. */
  readonly queued: number;
  /** Answers so far of subscriptions running low: fewer rows waiting here than they may have in flight. */
  readonly drained: number;
  /** Whether a subscription running low still has requests in flight. */
  drainingInFlight: () => boolean;
  /** Rows held per subscription known here (in flight, waiting, or none for one that answered lately) and the most it may hold. */
  holdings: () => Map<string, Holding>;
  /** The most a subscription may hold (in flight and waiting); undefined: one not seen yet. */
  capFor: (sub: string | undefined) => number;
  /** Puts a claimed row in its subscription's lane (`pump` starts it). */
  add: (job: LaneJob) => void;
  /** Starts waiting rows while their subscription and the process have free slots. */
  pump: () => void;
  /** Starts nothing more; rows claimed but not started are left to their leases. */
  stop: () => void;
  /** Resolves once every attempt started has ended and handed its outcome over. */
  settled: () => Promise<void>;
};

export function deliveryLanes(o: { concurrency: () => number; perSubscription: () => number; write: (outcome: Outcome) => Promise<void>; changed: () => void }): DeliveryLanes {
  const { concurrency, perSubscription } = o;
  const flying = new Map<string, number>();
  const waiting = new Map<string, LaneJob[]>();
  let inFlight = 0;
  let queued = 0;
  const running = new Set<Promise<unknown>>();
  let stopped = false;
  let drained = 0;
  // Moving average of each subscription's answer time, in ms.
  const paces = new Map<string, number>();
  const fast = (sub: string | undefined) => sub !== undefined && (paces.get(sub) ?? Infinity) < FAST_ANSWER_MS;
  const capFor = (sub: string | undefined) => perSubscription() * (fast(sub) ? 4 : 2);
  // Fewer rows waiting than a subscription's slots (two slots' worth for a fast one): room for a
  // claim's worth, and its slots would run dry within a round of answers. A claim that waited for
  // none left waiting (the rule before) came back, on a loaded machine, after the last of a fast
  // receiver's requests were answered: its slots sat empty for a claim's round trip on every refill.
  const low = (sub: string) => (waiting.get(sub)?.length ?? 0) < perSubscription() * (fast(sub) ? 2 : 1);
  // Subscriptions by their last answer, the latest last (RECENT_KNOWN of them).
  const recent = new Set<string>();
  const paced = (sub: string, ms: number) => {
    const before = paces.get(sub);
    paces.delete(sub);
    paces.set(sub, before === undefined ? ms : before * 0.8 + ms * 0.2);
    if (paces.size > PACES_KEPT) paces.delete(paces.keys().next().value!);
    recent.delete(sub);
    recent.add(sub);
    if (recent.size > RECENT_KNOWN) recent.delete(recent.values().next().value!);
  };

  const launch = (job: LaneJob): void => {
    const sub = job.d.subscription_id;
    inFlight++;
    flying.set(sub, (flying.get(sub) ?? 0) + 1);
    const started = Date.now();
    const p = (async () => {
      let outcome: Outcome | null = null;
      try {
        outcome = await attemptDelivery(job.d, perSubscription(), job.now);
      } catch (err) {
        log.error({ delivery: job.d.id, err: err instanceof Error ? err.message : String(err) }, "webhook delivery crashed; its lease will expire and it will be retried");
      } finally {
        // The slot frees on the answer; the row stays leased until its outcome is written.
        inFlight--;
        paced(sub, Date.now() - started);
        if (low(sub)) drained++;
        const n = (flying.get(sub) ?? 1) - 1;
        if (n > 0) flying.set(sub, n);
        else flying.delete(sub);
        pump();
        o.changed();
      }
      if (outcome) await o.write(outcome);
      job.finish(outcome?.ok ?? false);
    })();
    running.add(p);
    void p.finally(() => {
      running.delete(p);
      o.changed();
    });
  };

  // A row whose lease could no longer cover a whole attempt is not sent: it expires and is
  // claimed again.
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

  return {
    get inFlight() {
      return inFlight;
    },
    get queued() {
      return queued;
    },
    get drained() {
      return drained;
    },
    drainingInFlight: () => {
      for (const sub of flying.keys()) if (low(sub)) return true;
      return false;
    },
    holdings: () => {
      const held = new Map<string, Holding>();
      for (const [sub, n] of flying) held.set(sub, { held: n, cap: capFor(sub) });
      for (const [sub, jobs] of waiting) held.set(sub, { held: (held.get(sub)?.held ?? 0) + jobs.length, cap: capFor(sub) });
      for (const sub of recent) if (!held.has(sub)) held.set(sub, { held: 0, cap: capFor(sub) });
      return held;
    },
    capFor,
    add: (job) => {
      const list = waiting.get(job.d.subscription_id);
      if (list) list.push(job);
      else waiting.set(job.d.subscription_id, [job]);
      queued++;
    },
    pump,
    stop: () => {
      stopped = true;
      for (const jobs of waiting.values()) for (const job of jobs) job.finish(false);
      waiting.clear();
      queued = 0;
    },
    settled: async () => {
      await Promise.allSettled([...running]);
    },
  };
}
