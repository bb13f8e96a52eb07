import { inngest } from "@/inngest/client";
import { reconcilePending } from "@/lib/jobs/reconcile-pending";

// The contract's 5-minute reconciliation poll of pending transactions.
export const reconcilePendingFn = inngest.createFunction({ id: "reconcile-pending", retries: 3, triggers: [{ cron: "*/5 * * * *" }] }, async ({ step }) =>
  step.run("poll-providers", () => reconcilePending()),
);
