import { inngest } from "@/inngest/client";
import { settleDueBalances } from "@/lib/jobs/settle-balances";
import { releaseDueReserves } from "@/lib/jobs/release-reserves";
import { dispatchStalePayouts } from "@/lib/payouts/dispatch-payout";

// Settlement and reserve release, every 10 minutes (both idempotent; due dates are days apart).
export const settleBalancesFn = inngest.createFunction({ id: "settle-balances", retries: 3, triggers: [{ cron: "*/10 * * * *" }] }, async ({ step }) => {
  const settled = await step.run("settle-due", () => settleDueBalances());
  const released = await step.run("release-due-reserves", () => releaseDueReserves());
  // Payouts committed but never handed to their provider (a crash between commit and call).
  const dispatched = await step.run("dispatch-stale-payouts", () => dispatchStalePayouts());
  return { settled, released, dispatched };
});
