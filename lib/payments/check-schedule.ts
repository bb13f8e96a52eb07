// When reconciliation (lib/outcomes/reconcile-pending.ts) next asks a provider about a pending
// production payment. Every pending row carries its own `next_check_at`:
//   - the first check a minute after creation (or one period, if shorter): a notice normally
//     arrives well before;
//   - then back-off with age (a quarter of the row's age), from a floor of a tenth of the period
//     (1 to 30 s) up to the period itself: a fresh PIX or card charge is asked every few seconds
//     while its buyer is paying, an old voucher once per period;
//   - the deadline (expiresAt) is asked right after it passes, so a voucher paid at the last
//     minute or expired by its provider is known within the floor;
//   - never more than one period apart: a lost notice is found within two periods whatever the
//     backlog, as long as the job keeps up (its lag is in /metrics).
// A row leaves the schedule (null) when it leaves pending.
import { config } from "@/lib/platform/config";

export function reconcilePeriodMs(): number {
  return config().RECONCILE_INTERVAL_MS;
}

/** The shortest wait between two checks of one row. */
export function checkFloorMs(periodMs: number): number {
  return Math.min(periodMs, Math.max(1_000, Math.min(Math.floor(periodMs / 10), 30_000)));
}

export function firstCheckAt(createdAt: Date, periodMs = reconcilePeriodMs()): Date {
  return new Date(createdAt.getTime() + Math.min(60_000, periodMs));
}

export function nextCheckAt(row: { createdAt: Date; expiresAt: Date }, now: Date, periodMs = reconcilePeriodMs()): Date {
  const floor = checkFloorMs(periodMs);
  const age = now.getTime() - row.createdAt.getTime();
  let wait = Math.min(periodMs, Math.max(floor, Math.floor(age / 4)));
  const untilDeadline = row.expiresAt.getTime() - now.getTime();
  if (untilDeadline >= 0) wait = Math.min(wait, untilDeadline + floor);
  return new Date(now.getTime() + wait);
}
