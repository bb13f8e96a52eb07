// The in-process trigger of the jobs (JOBS_DRIVER=local, the default): started once per server
// process. Each job is idempotent and safe on many instances at once, so several servers each
// running a ticker is fine.
import { config } from "@/lib/config";
import { log } from "@/lib/log";
import { singleton } from "@/lib/singleton";
import { runScheduledActions } from "@/lib/jobs/run-scheduled-actions";
import { settleDueBalances } from "@/lib/jobs/settle-balances";
import { releaseDueReserves } from "@/lib/jobs/release-reserves";
import { reconcilePending } from "@/lib/jobs/reconcile-pending";
import { fanOutEvents } from "@/lib/jobs/fan-out-events";
import { deliverDueWebhooks } from "@/lib/jobs/deliver-webhooks";
import { expireCheckoutSessions } from "@/lib/jobs/expire-checkout-sessions";
import { dispatchStalePayouts } from "@/lib/payouts/dispatch-payout";
import { verifyLedgers } from "@/lib/jobs/verify-ledgers";
import { checkPayoutStatuses } from "@/lib/jobs/check-payout-status";

type Job = { name: string; everyMs: number; run: () => Promise<unknown> };

export function startTicker() {
  singleton("job-ticker", () => {
    const fast = config().JOBS_TICK_MS;
    const jobs: Job[] = [
      { name: "scheduled-actions", everyMs: fast, run: () => runScheduledActions() },
      { name: "webhooks", everyMs: fast, run: async () => (await fanOutEvents(), await deliverDueWebhooks()) },
      // Payouts committed but never handed to their provider (a crash between commit and call).
      { name: "dispatch-payouts", everyMs: 10_000, run: () => dispatchStalePayouts() },
      // Payouts whose provider answer was lost (or whose notice has not come): ask by reference.
      { name: "payout-status", everyMs: fast, run: () => checkPayoutStatuses() },
      { name: "settle-balances", everyMs: 60_000, run: () => settleDueBalances() },
      { name: "release-reserves", everyMs: 60_000, run: () => releaseDueReserves() },
      { name: "expire-checkout-sessions", everyMs: 60_000, run: () => expireCheckoutSessions() },
      { name: "verify-ledgers", everyMs: 60_000, run: () => verifyLedgers() },
      { name: "reconcile-pending", everyMs: config().RECONCILE_INTERVAL_MS, run: () => reconcilePending({ olderThanMs: Math.min(60_000, config().RECONCILE_INTERVAL_MS) }) },
    ];
    for (const job of jobs) {
      let running = false;
      const tick = async () => {
        if (running) return;
        running = true;
        try {
          await job.run();
        } catch (err) {
          log.error({ job: job.name, err: err instanceof Error ? err.message : String(err) }, "job failed");
        } finally {
          running = false;
        }
      };
      setInterval(tick, job.everyMs).unref();
    }
    log.info({ jobs: jobs.map((j) => j.name) }, "job ticker started");
    return true;
  });
}
