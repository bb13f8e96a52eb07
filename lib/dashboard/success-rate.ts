// The overview's success rate, read the way a merchant reads it (as on Stripe's home page): of
// the payments that reached an outcome, the share that was paid. A payment still waiting for the
// buyer has no outcome yet, so it is counted apart ("2 pending") instead of as a failure.
// Pure (no imports): the daily series and its unit tests share it.

export type Outcome = "succeeded" | "failed" | "pending";

/**
 * What a payment's status says about its outcome. Refunded and charged-back payments were paid
 * first (they only exist after `completed`), so they count as succeeded; an expired payment is
 * one the buyer never paid, so it counts against the rate like a failed one.
 */
export function outcomeOf(status: string): Outcome {
  switch (status) {
    case "completed":
    case "refunded":
    case "chargeback":
      return "succeeded";
    case "failed":
    case "expired":
      return "failed";
    default:
      return "pending";
  }
}

export type OutcomeCounts = { succeeded: number; failed: number; pending: number };
export type SuccessRate = OutcomeCounts & {
  /** The basis of the rate: succeeded + failed (pending left out). */
  finished: number;
  /** Percent with one decimal, or null when nothing has finished yet. */
  rate: number | null;
};

export function successRate(c: OutcomeCounts): SuccessRate {
  const finished = c.succeeded + c.failed;
  return { ...c, finished, rate: finished ? Math.round((c.succeeded / finished) * 1000) / 10 : null };
}

/** Counts by outcome of `(status, count)` pairs. */
export function countOutcomes(rows: Iterable<{ status: string; count: number }>): OutcomeCounts {
  const out: OutcomeCounts = { succeeded: 0, failed: 0, pending: 0 };
  for (const r of rows) out[outcomeOf(r.status)] += r.count;
  return out;
}

/** The sum of several days' counts. */
export function addOutcomes(days: Iterable<OutcomeCounts>): OutcomeCounts {
  const out: OutcomeCounts = { succeeded: 0, failed: 0, pending: 0 };
  for (const d of days) {
    out.succeeded += d.succeeded;
    out.failed += d.failed;
    out.pending += d.pending;
  }
  return out;
}
