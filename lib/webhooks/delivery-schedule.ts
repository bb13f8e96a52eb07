// When a webhook delivery is tried again, when it gives up, and how long its claim holds: the
// numbers the delivery job (lib/webhooks/deliver-webhooks.ts) and its tests share. 2xx succeeds;
// anything else is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (× WEBHOOK_RETRY_SCALE),
// then fails; a subscription whose deliveries have only failed for 5 days is disabled.
import { config } from "@/lib/platform/config";

export const RETRY_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 36000];
export const MAX_ATTEMPTS = RETRY_SCHEDULE_SECONDS.length + 1;
export const DISABLE_AFTER_MS = 5 * 86_400_000;

/** How long one attempt may take before it counts as failed. */
export const timeoutMs = () => config().WEBHOOK_TIMEOUT_MS;
// A claimed delivery is leased for longer than an attempt can take; if its runner dies (crash,
// kill -9), the lease expires and another runner retries it.
export const leaseMs = () => Math.round(timeoutMs() * 1.5) + 1_000;

export type DeliveryStatus = "succeeded" | "pending" | "failed";

/** A delivery's state after its `attempts`-th attempt (`now`: tests' clock, else the process's). */
export function afterAttempt(ok: boolean, attempts: number, now: Date | undefined): { status: DeliveryStatus; nextAttemptAt: Date | null } {
  const wait = RETRY_SCHEDULE_SECONDS[attempts - 1];
  const status = ok ? "succeeded" : attempts >= MAX_ATTEMPTS || wait === undefined ? "failed" : "pending";
  const nextAttemptAt = status === "pending" ? new Date((now?.getTime() ?? Date.now()) + Math.round(wait! * 1000 * config().WEBHOOK_RETRY_SCALE)) : null;
  return { status, nextAttemptAt };
}
