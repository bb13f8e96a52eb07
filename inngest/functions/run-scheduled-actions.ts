import { inngest, EVENTS } from "@/inngest/client";
import { runScheduledActions } from "@/lib/jobs/run-scheduled-actions";

// Woken per scheduled action (sleeps until it is due), and swept every minute for lost events.
export const runScheduledActionsFn = inngest.createFunction(
  { id: "run-scheduled-actions", retries: 5, triggers: [{ event: EVENTS.scheduledActionCreated }, { cron: "* * * * *" }] },
  async ({ event, step }) => {
    const dueAt = (event?.data as { dueAt?: string } | undefined)?.dueAt;
    if (dueAt) await step.sleepUntil("wait-until-due", new Date(dueAt));
    return step.run("run-due-actions", () => runScheduledActions());
  },
);
