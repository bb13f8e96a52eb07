// Every background job, declared once: name, schedule, what wakes it, its steps. Both drivers are
// generated from this list: the in-process ticker (lib/jobs/ticker.ts, JOBS_DRIVER=local) and the
// Inngest functions (inngest/functions, JOBS_DRIVER=inngest). Every step is idempotent and safe on
// several instances at once (rows claimed with leases or SKIP LOCKED), so the drivers may run a
// job as often as they like: the schedule is about latency, never about correctness.
import { config } from "@/lib/platform/config";
import { JOB_SIGNALS, type JobSignal } from "@/lib/platform/outbox/wake";
import { runScheduledActions } from "@/lib/jobs/run-scheduled-actions";
import { closeUnansweredMeds } from "@/lib/claims/pix-med";
import { settleDueBalances } from "@/lib/settlements/settle-balances";
import { releaseDueReserves } from "@/lib/ledger/release-reserves";
import { reconcilePending } from "@/lib/outcomes/reconcile-pending";
import { checkFloorMs } from "@/lib/payments/check-schedule";
import { sweepProvisioningAccounts } from "@/lib/deposits/sweep-provisioning";
import { fanOutEvents } from "@/lib/webhooks/fan-out-events";
import { deliverDueWebhooks } from "@/lib/webhooks/deliver-webhooks";
import { expireCheckoutSessions } from "@/lib/checkout/expire-sessions";
import { dispatchStalePayouts } from "@/lib/payouts/dispatch-payout";
import { verifyLedgers } from "@/lib/ledger/verify-ledgers";
import { checkPayoutStatuses } from "@/lib/payouts/check-payout-status";
import { checkWithdrawalStatuses } from "@/lib/withdrawals/check-withdrawal-status";
import { expirePayments } from "@/lib/payments/expire-payments";
import { purgeExpired } from "@/lib/jobs/purge-expired";
import { closeDueSettlements } from "@/lib/settlements/close-due-settlements";
import { renderDueReceipts } from "@/lib/settlements/render-receipt";
import { expireQrOrders } from "@/lib/qr/expire-orders";
import { runMandates } from "@/lib/mandates/send-due-charges";
import { foldPaymentRollups } from "@/lib/payments/rollups";

export type JobStep = { name: string; run: () => Promise<unknown> };

export type JobDef = {
  /** Also the Inngest function id: never renamed once deployed. */
  name: string;
  /** Why it exists, for the docs and the logs. */
  description: string;
  /** The local ticker's period (read when the ticker starts, so configuration may tune it). */
  everyMs: () => number;
  /** The Inngest sweep (cron has minute granularity; signals give the low latency). */
  cron: string;
  /** Signals that run it at once (lib/platform/outbox/wake.ts). */
  wakeOn?: JobSignal[];
  /** Inngest retries of a failed run (the local ticker simply runs it again next tick). */
  retries: number;
  /** Inngest: at most this many runs at once. */
  concurrency?: number;
  /** Inngest: a wake that carries `dueAt` sleeps until then before running (scheduled actions). */
  sleepUntilDue?: boolean;
  /** Run in order, each an Inngest step. */
  steps: JobStep[];
  /** A full batch means more is due: run again soon instead of at the next sweep. */
  moreWork?: (results: Record<string, unknown>) => boolean;
};

const tick = () => config().JOBS_TICK_MS;
const WEBHOOK_BATCH = 200;

export const JOBS: JobDef[] = [
  {
    name: "run-scheduled-actions",
    description: "Sandbox outcomes, refund confirmations and other actions due at a time",
    everyMs: tick,
    cron: "* * * * *",
    wakeOn: [JOB_SIGNALS.scheduledActionCreated],
    retries: 5,
    sleepUntilDue: true,
    steps: [{ name: "run-due-actions", run: () => runScheduledActions() }],
  },
  {
    name: "deliver-webhooks",
    description: "Fan new events out to subscriptions and deliver what is due, with retries",
    everyMs: tick,
    cron: "* * * * *",
    wakeOn: [JOB_SIGNALS.webhooksDue],
    retries: 3,
    concurrency: 4,
    steps: [
      { name: "fan-out-events", run: () => fanOutEvents() },
      { name: "deliver-due", run: () => deliverDueWebhooks({ limit: WEBHOOK_BATCH }) },
    ],
    // A run stops claiming after its time budget with work left: run again at once.
    moreWork: (r) => !!(r["deliver-due"] as { more?: boolean } | undefined)?.more,
  },
  {
    name: "dispatch-payouts",
    description: "Payouts committed but never handed to their provider (a crash between commit and call)",
    everyMs: () => 10_000,
    cron: "* * * * *",
    retries: 3,
    steps: [{ name: "dispatch-stale-payouts", run: () => dispatchStalePayouts() }],
  },
  {
    name: "check-payout-status",
    description: "Payouts whose provider answer was lost or whose notice is late: asked by reference",
    everyMs: tick,
    cron: "* * * * *",
    retries: 3,
    steps: [{ name: "ask-providers", run: () => checkPayoutStatuses() }],
  },
  {
    name: "check-withdrawal-status",
    description: "Production withdrawals whose custody answer was unknown or pending: asked by reference",
    everyMs: tick,
    cron: "* * * * *",
    retries: 3,
    steps: [{ name: "ask-custody", run: () => checkWithdrawalStatuses() }],
  },
  {
    name: "settle-balances",
    description: "Completed payments past their settlement delay: pending to available",
    everyMs: () => 60_000,
    cron: "* * * * *",
    retries: 3,
    steps: [{ name: "settle-due", run: () => settleDueBalances() }],
  },
  {
    name: "release-reserves",
    description: "Rolling reserves past their 90 days: reserve to available",
    everyMs: () => 60_000,
    cron: "* * * * *",
    retries: 3,
    steps: [{ name: "release-due-reserves", run: () => releaseDueReserves() }],
  },
  {
    name: "expire-checkout-sessions",
    description: "Checkout sessions past their 24 hours: expired, and old ones purged",
    everyMs: () => 60_000,
    cron: "* * * * *",
    retries: 3,
    steps: [{ name: "expire-and-purge", run: () => expireCheckoutSessions() }],
  },
  {
    name: "expire-payments",
    description: "Sandbox payments past their rail's deadline (or expiresInMinutes): expired",
    everyMs: () => Math.max(tick(), 5_000),
    cron: "* * * * *",
    retries: 3,
    steps: [{ name: "expire-due", run: () => expirePayments() }],
  },
  {
    name: "close-unanswered-meds",
    description: "PIX MED claims whose answer window closed without a defence: decided for the payer (the blocked amount returned)",
    everyMs: () => Math.max(tick(), 60_000),
    cron: "* * * * *",
    retries: 3,
    steps: [{ name: "decide-due", run: () => closeUnansweredMeds() }],
  },
  {
    name: "expire-qr-orders",
    description: "QR orders past their deadline: sandbox ones expired; production ones asked of their provider (paid, expired or still unknown), backing off",
    everyMs: () => Math.max(tick(), 5_000),
    cron: "* * * * *",
    retries: 3,
    steps: [{ name: "expire-due", run: () => expireQrOrders() }],
  },
  {
    name: "run-mandates",
    description: "Recurring PIX mandates: pending recurrences read back from their PSP, pending ones past their start date expired, due charges sent once as PIX payments (10 to 2 days before their due date; failed ones retried up to 3 times within 7 days), ended ones completed and their recurrences cancelled at the PSP, a charge paid twice refunded once",
    // Windows are days wide: a minute's latency is plenty, and a missed run is caught up by the next.
    everyMs: () => Math.max(tick(), 60_000),
    cron: "* * * * *",
    retries: 3,
    steps: [{ name: "expire-send-complete", run: () => runMandates() }],
    // A full batch of claimed charges: more are due.
    moreWork: (r) => ((r["expire-send-complete"] as { claimed?: number } | undefined)?.claimed ?? 0) >= 100,
  },
  {
    name: "verify-ledgers",
    description: "Ledgers with new entries recomputed from their entries; warnings feed GET /me/balance",
    everyMs: () => 60_000,
    cron: "* * * * *",
    retries: 3,
    steps: [{ name: "verify-ledgers", run: async () => (await verifyLedgers()).map((c) => ({ merchantId: c.merchantId, environment: c.environment, warnings: c.warnings, entries: c.entries })) }],
  },
  {
    name: "close-settlements",
    description: "The daily settlement batch (00:00 UTC) of every merchant and environment with a destination",
    everyMs: () => 60_000,
    cron: "* * * * *",
    retries: 3,
    steps: [{ name: "close-due", run: () => closeDueSettlements() }],
  },
  {
    name: "render-settlement-receipts",
    description: "PDF receipts of closed, paid or failed settlement batches",
    everyMs: () => Math.max(tick(), 2_000),
    cron: "* * * * *",
    retries: 3,
    steps: [{ name: "render-due", run: () => renderDueReceipts() }],
  },
  {
    name: "fold-payment-rollups",
    description: "The dashboard's hourly payment counts: deltas written with each payment change folded into the rollups, so the overview never scans a merchant's history",
    everyMs: () => Math.max(tick(), 10_000),
    cron: "* * * * *",
    retries: 3,
    steps: [{ name: "fold", run: () => foldPaymentRollups() }],
    // A full batch: more deltas are waiting.
    moreWork: (r) => ((r["fold"] as { folded?: number } | undefined)?.folded ?? 0) >= 50_000,
  },
  {
    name: "purge-expired",
    description: "Retention: expired idempotency records, old inbox messages, finished scheduled actions, deliveries and events, request logs",
    everyMs: () => 10 * 60_000,
    cron: "*/10 * * * *",
    retries: 3,
    steps: [{ name: "purge", run: () => purgeExpired() }],
  },
  {
    name: "sweep-provisioning-accounts",
    description: "Deposit accounts left provisioning (their CLABE answer lost): the provider asked by reference, then activated or closed; deposits held for their CLABE applied",
    everyMs: () => Math.max(tick(), 5_000),
    cron: "* * * * *",
    retries: 3,
    steps: [{ name: "sweep", run: () => sweepProvisioningAccounts() }],
  },
  {
    name: "reconcile-pending",
    description: "Pending payments asked of their providers when due (each row its own next check: fresh ones often, old vouchers once per RECONCILE_INTERVAL_MS)",
    // Runs often and claims only what is due (lib/payments/check-schedule.ts).
    everyMs: () => Math.max(tick(), Math.min(checkFloorMs(config().RECONCILE_INTERVAL_MS), 5_000)),
    cron: "* * * * *",
    retries: 3,
    steps: [{ name: "poll-providers", run: () => reconcilePending() }],
    moreWork: (r) => !!(r["poll-providers"] as { more?: boolean } | undefined)?.more,
  },
];

/** Runs a job's steps in order (the local driver; Inngest wraps each in `step.run`). */
export async function runJobSteps(job: JobDef): Promise<Record<string, unknown>> {
  const results: Record<string, unknown> = {};
  for (const s of job.steps) results[s.name] = await s.run();
  return results;
}
