// A database outage, as the request path and the job ticker meet it: one warning when it begins
// and one line when the database answers again, not a stack trace per request or per job. It
// begins with the first failure after OUTAGE_GAP_MS without one; its end is seen by a query that
// succeeds where only the database can answer (the job ticker's tick, /readyz's check), never by
// a request that a cache could have served.
import { log } from "@/lib/platform/log";
import { singleton } from "@/lib/platform/singleton";

const OUTAGE_GAP_MS = 30_000;
const state = singleton("database-outage", () => ({ since: null as number | null, last: 0, failed: 0 }));

/** Notes a request the outage stopped (logs a warning only for the first of an outage). */
export function noteDatabaseOutage(err: unknown, context: Record<string, unknown> = {}): void {
  const now = Date.now();
  if (state.since === null || now - state.last > OUTAGE_GAP_MS) {
    state.since = now;
    state.failed = 0;
    log.warn({ ...context, err: err instanceof Error ? err.message : String(err) }, "database unavailable: requests answer 503 service_unavailable and jobs wait until it is back");
  }
  state.last = now;
  state.failed++;
}

/** A query the database answered: ends an outage in progress (one line). */
export function noteDatabaseAnswered(): void {
  if (state.since === null) return;
  log.info({ downMs: Date.now() - state.since, failedRequests: state.failed }, "database reachable again");
  state.since = null;
}

/** Whether an outage is in progress (for /readyz and the job ticker's log). */
export function databaseOutageSince(): number | null {
  return state.since;
}
