// After a commit that creates due work, tell Inngest (JOBS_DRIVER=inngest) so it runs now
// rather than at the next sweep. Fire-and-forget: never awaited by a request, bounded, and a
// lost event only delays the work until the cron sweep.
import { config } from "@/lib/config";
import { log } from "@/lib/log";

export const JOB_EVENTS = {
  scheduledActionCreated: "app/scheduled-action.created",
  webhooksDue: "app/webhooks.due",
} as const;

export function wakeJobs(name: (typeof JOB_EVENTS)[keyof typeof JOB_EVENTS], data: Record<string, unknown> = {}): void {
  if (config().JOBS_DRIVER !== "inngest") return;
  void import("@/inngest/client")
    .then(({ inngest }) => inngest.send({ name, data }))
    .catch((err) => log.warn({ event: name, err: err instanceof Error ? err.message : String(err) }, "could not wake a job; the sweep will catch it"));
}
