// The Inngest functions, one per job of the registry (lib/jobs/registry.ts): cron sweep plus the
// job's wake signals, each step an Inngest step, a full batch asking to run again in a second.
import { RetryAfterError } from "inngest";
import { inngest } from "@/inngest/client";
import { JOBS, type JobDef } from "@/lib/jobs/registry";

function toFunction(job: JobDef) {
  return inngest.createFunction(
    {
      id: job.name,
      retries: job.retries as 0 | 1 | 2 | 3 | 4 | 5,
      ...(job.concurrency ? { concurrency: job.concurrency } : {}),
      triggers: [...(job.wakeOn ?? []).map((event) => ({ event })), { cron: job.cron }],
    },
    async ({ event, step }) => {
      const dueAt = (event?.data as { dueAt?: string } | undefined)?.dueAt;
      if (job.sleepUntilDue && dueAt) await step.sleepUntil("wait-until-due", new Date(dueAt));
      const results: Record<string, unknown> = {};
      for (const s of job.steps) results[s.name] = await step.run(s.name, s.run);
      if (job.moreWork?.(results)) throw new RetryAfterError("more work is due", "1s");
      return job.steps.length === 1 ? results[job.steps[0]!.name] : results;
    },
  );
}

export const functions = JOBS.map(toFunction);
/** The function of a job, by name (tests). */
export const functionOf = (name: string) => functions[JOBS.findIndex((j) => j.name === name)]!;
