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
// ROUTING_CHANGE_THRESHOLD (≈ −log of the false-alarm probability per test; 5 measured best of
// 3, 5 and 7: 3 forgets on noise, 7 notices a fall late), the history before the change is
// forgotten (a reset time per provider, rail and band) and only the outcomes after it count.
// Every instance runs the same detector on the same shared window, so they forget together.
import type { Score } from "@/lib/routing/select";
import type { OutcomeKind } from "@/lib/routing/outcome";

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
export type WindowConfig = { halfLifeMs: number; changeThreshold: number };

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

/** Each side of a change must hold this many outcomes before the detector may fire: fewer is noise. */
const MIN_SIDE = 3;
/** The detector looks for a change among the provider's last MAX_RECENT outcomes (its own, however far apart in time). */
export const MAX_RECENT = 30;

/**
 * What the detector remembers of one provider, rail and band between calls (every instance
 * derives the same from the same shared window). `resetAt`: outcomes at or before it are
 * forgotten. `excluded`: periods (from, to] forgotten after the provider came back (its fall).
 * `fallen`: the detector saw it fall (`at`: its newest bucket then; `reset`: the reset the fall
 * made; `before`: the reset before it, to restore if it comes back).
 */
export type Memory = { resetAt: number | null; excluded: Array<[number, number]>; fallen: { at: number; reset: number; before: number | null } | null };
export const FRESH: Memory = { resetAt: null, excluded: [], fallen: null };
/** Approvals in a row, after a fall, that bring a provider's history from before the fall back. */
export const RESTORE_RUN = 2;

/**
 * The score of one provider, rail and band at `now`, and its reset time (outcomes at or before
 * it are forgotten). `resetAt` is the one the caller kept from earlier calls.
 */
export function scoreBuckets(buckets: Bucket[], now: number, cfg: WindowConfig, resetAt: number | null): { score: Score; resetAt: number | null } {
  const r = watchBuckets(buckets, now, cfg, { ...FRESH, resetAt });
  return { score: r.score, resetAt: r.memory.resetAt };
}

/**
 * The score of one provider, rail and band at `now`, and what to remember for the next call.
 *
 * The detector counts the provider's own outcomes, not time: a provider that loses its traffic
 * after a few refusals (success-rate stops sending it any) must still be judged on those few, and
 * a recovering one on the handful its probes send it. Every split point among its last
 * MAX_RECENT outcomes (bucket boundaries, newest first) is tested — the generalised likelihood
 * ratio takes the best split — and the first crossing forgets everything before the split.
 *
 * A fall (the newer side worse) marks the provider `fallen`: it is probed on a schedule
 * (probeDue) and, when RESTORE_RUN answers in a row after the fall are approvals, the history
 * from before the fall comes back with the fallen period left out — a provider that recovers
 * usually returns to what it was, and its long history is what tells it from a rival a few
 * points away. A change up while fallen ends the fall the detector's way (history after it only).
 */
export function watchBuckets(buckets: Bucket[], now: number, cfg: WindowConfig, memory: Memory): { score: Score; memory: Memory } {
  let m = memory;
  const oldest = buckets[0]?.start ?? now;
  const excluded = m.excluded.filter(([, to]) => to >= oldest);
  if (excluded.length !== m.excluded.length) m = { ...m, excluded };
  const forgotten = (t: number) => (m.resetAt !== null && t <= m.resetAt) || m.excluded.some(([from, to]) => t > from && t <= to);
  let live = m.resetAt === null && !m.excluded.length ? buckets : buckets.filter((b) => !forgotten(b.start));
  // Back from a fall: RESTORE_RUN approvals in a row since it, the newest last.
  if (m.fallen) {
    let run = 0;
    let runStart = now;
    for (let k = live.length - 1; k >= 0 && live[k]!.start > m.fallen.at && !live[k]!.declined; k--) (run += live[k]!.approved), live[k]!.approved && (runStart = live[k]!.start);
    if (run >= RESTORE_RUN) {
      m = { resetAt: m.fallen.before, excluded: [...m.excluded, [m.fallen.reset, runStart - 1]], fallen: null };
      live = buckets.filter((b) => !forgotten(b.start));
    }
  }
  let totalA = 0;
  let totalN = 0;
  for (const b of live) (totalA += b.approved), (totalN += b.approved + b.declined);
  let a1 = 0;
  let n1 = 0;
  let cut = -1;
  for (let k = live.length - 1; k > 0 && n1 < MAX_RECENT; k--) {
    const b = live[k]!;
    a1 += b.approved;
    n1 += b.approved + b.declined;
    const n2 = totalN - n1;
    if (n1 >= MIN_SIDE && n2 >= MIN_SIDE && changeStatistic(a1, n1, totalA - a1, n2) > cfg.changeThreshold) {
      cut = k;
      break;
    }
  }
  const kept = cut < 0 ? live : live.slice(cut);
  if (cut >= 0) {
    const reset = live[cut - 1]!.start;
    const fell = a1 / n1 < (totalA - a1) / (totalN - n1);
    m = { ...m, resetAt: reset, fallen: fell ? (m.fallen ?? { at: live.at(-1)!.start, reset, before: m.resetAt }) : null };
  }
  let approved = 0;
  let declined = 0;
  for (const b of kept) {
    const w = Math.pow(0.5, Math.max(0, now - b.start) / cfg.halfLifeMs);
    approved += w * b.approved;
    declined += w * b.declined;
  }
  return { score: { approved, failed: declined }, memory: m };
}

export type ProbeConfig = { intervalMs: number; maxIntervalMs: number };

/**
 * Whether a fallen provider is due a probe at `now` (the payment then tries it first): the first
 * `intervalMs` after the fall, then `intervalMs` doubled for each refusal since the fall (up to
 * `maxIntervalMs`) after its newest answer; right away after an approval, so a
 * recovery is confirmed (RESTORE_RUN) within a few payments. Probes cost little while it is down
 * (a handful over its fall) and see its return within `maxIntervalMs`; random exploration skips
 * a fallen provider (select.ts), the probes are its way back.
 */
export function probeDue(buckets: Bucket[], memory: Memory, now: number, cfg: ProbeConfig): boolean {
  const f = memory.fallen;
  if (!f) return false;
  let refusals = 0;
  let last: Bucket | null = null;
  for (let k = buckets.length - 1; k >= 0 && buckets[k]!.start > f.at; k--) {
    const b = buckets[k]!;
    if (!b.approved && !b.declined) continue;
    last ??= b;
    refusals += b.declined;
  }
  if (last && last.approved && !last.declined) return true;
  const interval = Math.min(cfg.maxIntervalMs, cfg.intervalMs * Math.pow(2, refusals));
  return now >= (last ? last.start : f.at) + interval;
}

/**
 * Segments with pooling (issue 45): a provider's evidence is kept per rail (its country) and
 * amount band, and a sparse segment borrows its parent's — the same provider on the same rail in
 * the other bands — by hierarchical shrinkage: a Beta prior with the parent's rate as its mean and
 * at most `pseudo` answers of weight (fewer when the parent itself has fewer). A segment with
 * hundreds of its own answers is hardly moved; one with a handful starts from what the provider
 * does elsewhere instead of from nothing; a fall in one band is that band's (the change detector
 * runs per segment, on its own outcomes, before the prior is added).
 */
export const POOL_PSEUDO = 10;
export function pooledScore(segment: Score, parent: Score, pseudo = POOL_PSEUDO): Score {
  const n = parent.approved + parent.failed;
  if (n <= 0 || pseudo <= 0) return segment;
  const m = Math.min(pseudo, n);
  const rate = (parent.approved + 1) / (n + 2);
  return { approved: segment.approved + m * rate, failed: segment.failed + m * (1 - rate) };
}
