// What success-rate routing believes of a provider, from the shared window of outcomes (pure, so
// the benchmark's offline run, the tests and the servers compute it the same way).
//
// The evidence. Only what the provider itself decided counts toward its approval rate: approved,
// or refused with the issuer's generic answer (do_not_honor, unmapped soft declines). Errors
// (timeouts, 5xx) are availability, the circuit's business (lib/routing/stats.ts): counting them
// as refusals left a provider that came back from an outage scored as bad for long after it
// answered again (measured: −2 points of the oracle on the outage scenario). Declines that are
// the buyer's (insufficient funds, fraud, invalid document…) would be the same at any provider:
// they only add noise and are left out too.
//
// The estimate. Outcomes are grouped in time buckets (ROUTING_BUCKET_MS) and discounted by age
// with a long half-life (ROUTING_HALF_LIFE_MS): a long memory is what separates providers a few
// points apart (0.86 against 0.90 needs hundreds of answers). A long memory alone reacts slowly
// to a provider that falls, so a change detector watches each provider: the last few outcomes
// (discounted with the short ROUTING_RECENT_HALF_LIFE_MS) are compared with the older ones by a
// generalised likelihood ratio for Bernoulli rates (Besson & Kaufmann, "Efficient change-point
// detection for tackling piecewise-stationary bandits", JMLR 2022). When it crosses
// ROUTING_CHANGE_THRESHOLD (≈ −log of the false-alarm probability per test), the history before
// the change is forgotten (a reset time per provider, rail and band) and only the recent outcomes
// count. Every instance runs the same detector on the same shared window, so they forget together.
import type { Score } from "@/lib/routing/select";
import type { OutcomeKind } from "@/lib/routing/stats";

/** Declines that say something about the buyer, not the provider (the same answer anywhere). */
export const BUYER_DECLINES = new Set(["insufficient_funds", "expired_card", "card_blocked", "suspected_fraud", "invalid_document", "invalid_account", "buyer_cancelled"]);

export type Evidence = "approved" | "declined" | "error" | null;

/** How an attempt's outcome counts: for the approval rate (approved/declined), the circuit (error), or not at all. */
export function evidenceOf(outcome: OutcomeKind, declineCode: string | null): Evidence {
  if (outcome === "approved") return "approved";
  if (outcome === "error") return "error";
  if (declineCode && BUYER_DECLINES.has(declineCode)) return null;
  return "declined";
}

/** One time bucket of one provider, rail and band. */
export type Bucket = { start: number; approved: number; declined: number; errors: number };
export type WindowConfig = { halfLifeMs: number; recentHalfLifeMs: number; changeThreshold: number };

/** Bernoulli Kullback–Leibler divergence, clamped away from 0 and 1. */
function kl(p: number, q: number): number {
  const e = 1e-9;
  p = Math.min(1 - e, Math.max(e, p));
  q = Math.min(1 - e, Math.max(e, q));
  return p * Math.log(p / q) + (1 - p) * Math.log((1 - p) / (1 - q));
}

/** The generalised likelihood ratio that two samples (a1 of n1, a2 of n2) come from different rates. */
export function changeStatistic(a1: number, n1: number, a2: number, n2: number): number {
  if (n1 <= 0 || n2 <= 0) return 0;
  const pooled = (a1 + a2) / (n1 + n2);
  return n1 * kl(a1 / n1, pooled) + n2 * kl(a2 / n2, pooled);
}

/** The recent sample must weigh this much (≈ outcomes) before the detector may fire: fewer is noise. */
const MIN_RECENT = 3;

/**
 * The score of one provider, rail and band at `now`, and its reset time (outcomes at or before
 * it are forgotten). `resetAt` is the one the caller kept from earlier calls.
 */
export function scoreBuckets(buckets: Bucket[], now: number, cfg: WindowConfig, resetAt: number | null): { score: Score; resetAt: number | null } {
  let approved = 0;
  let declined = 0;
  let recentApproved = 0;
  let recentDeclined = 0;
  for (const b of buckets) {
    if (resetAt !== null && b.start <= resetAt) continue;
    const age = Math.max(0, now - b.start);
    const w = Math.pow(0.5, age / cfg.halfLifeMs);
    const r = Math.pow(0.5, age / cfg.recentHalfLifeMs);
    approved += w * b.approved;
    declined += w * b.declined;
    recentApproved += r * b.approved;
    recentDeclined += r * b.declined;
  }
  const nRecent = recentApproved + recentDeclined;
  // The older part: what the long memory holds beyond the recent sample.
  const oldApproved = Math.max(0, approved - recentApproved);
  const oldDeclined = Math.max(0, declined - recentDeclined);
  const nOld = oldApproved + oldDeclined;
  if (nRecent >= MIN_RECENT && nOld >= MIN_RECENT && changeStatistic(recentApproved, nRecent, oldApproved, nOld) > cfg.changeThreshold) {
    // Forget what came before the recent sample (about two of its half-lives back).
    return { score: { approved: recentApproved, failed: recentDeclined }, resetAt: now - 2 * cfg.recentHalfLifeMs };
  }
  return { score: { approved, failed: declined }, resetAt };
}
