// The signal that wakes jobs after a commit created due work (a scheduled action, events to
// deliver). Domain code only raises it; the job driver decides what it means: the local driver
// runs the matching jobs at once, the Inngest driver sends an Inngest event. So no domain file
// knows which driver runs (or imports the Inngest client). Fire-and-forget: never awaited by a
// request, and a lost signal only delays the work until the job's next sweep.
import { singleton } from "@/lib/platform/singleton";
import { log } from "@/lib/platform/log";

export const JOB_SIGNALS = {
  scheduledActionCreated: "app/scheduled-action.created",
  webhooksDue: "app/webhooks.due",
} as const;
export type JobSignal = (typeof JOB_SIGNALS)[keyof typeof JOB_SIGNALS];
export type WakeListener = (signal: JobSignal, data: Record<string, unknown>) => void;

const listeners = () => singleton("job-wake-listeners", () => new Set<WakeListener>());

/** A job driver listens for signals; the returned function stops listening. */
export function onWake(listener: WakeListener): () => void {
  listeners().add(listener);
  return () => listeners().delete(listener);
}

export function wakeJobs(signal: JobSignal, data: Record<string, unknown> = {}): void {
  for (const l of listeners()) {
    try {
      l(signal, data);
    } catch (err) {
      log.warn({ signal, err: err instanceof Error ? err.message : String(err) }, "a job wake listener failed; the sweep will catch the work");
    }
  }
}
