import { inngest } from "@/inngest/client";
import { checkPayoutStatuses } from "@/lib/jobs/check-payout-status";

// Payouts whose provider outcome is unknown (or whose notice is late): asked by reference every minute.
export const checkPayoutStatusFn = inngest.createFunction({ id: "check-payout-status", retries: 3, triggers: [{ cron: "* * * * *" }] }, async ({ step }) =>
  step.run("ask-providers", () => checkPayoutStatuses()),
);
