// Off-policy evaluation of routing rules (issue 45, "policies tried on history"): from the logged
// decisions (routing_decisions: each attempt with the probability the policy in force gave it,
// lib/routing/propensity.ts), what a candidate rule set would have had — approval rate and net
// revenue per payment — had it routed the same payments. A pure module: the CLI
// (scripts/routing-evaluate.ts), the dashboard's route handler and the market-model tests
// (lib/routing/evaluate.test.ts) all call `evaluateRules`.
//
// A payment is a short sequence of decisions (the cascade moves on after a soft failure), so each
// estimator weighs a payment's logged attempts by ρ = Π π_candidate(aₖ | attempts before) /
// π_logged(aₖ | attempts before):
// - IPS, self-normalised: Σ ρᵢ Rᵢ / Σ ρᵢ (Rᵢ: the payment's approval, or its net revenue: the
//   amount if approved less every attempt's provider cost). Interval: normal approximation of its
//   influence function (delta method), SE² = Σ ρᵢ² (Rᵢ − V)² / (Σ ρᵢ)².
// - DR, doubly robust for sequences (Jiang & Li 2016, "Doubly robust off-policy value evaluation
//   for reinforcement learning"): Vₖ = V̂(hₖ) + wₖ (rₖ + Vₖ₊₁ − Q̂(hₖ, aₖ)), from the last attempt
//   back, with an outcome model fitted on the same logs: per provider × segment (rail, amount
//   band, card brand) the chances of approved / failed-and-moved-on / failed-and-stopped, a sparse
//   segment shrunk towards its provider × rail (pseudo-count POOL_PSEUDO, as routing's own
//   pooling). Interval: mean ± 1.96 × sd / √n of the per-payment terms (its influence function).
// Both intervals are 95 %. A success-rate candidate is a learning policy whose choices depend on
// what it would itself have seen; it is evaluated as its steady state: the provider the outcome
// model rates best for the segment first (by the rule's objective), with its exploration share
// (at least EXPLORATION_FLOOR) spread over the others at every position.
import { DEFAULT_EXPLORATION, ruleMatches, type CompiledRule, type PaymentFacts } from "@/lib/routing/select";
import { EXPLORATION_FLOOR, type LoggedOutcome } from "@/lib/routing/propensity";
import type { ProviderCost } from "@/lib/providers/costs";

/** Too little traffic: below this effective sample size ((Σρ)² / Σρ²) the candidate is not estimated. */
export const MIN_EFFECTIVE_SAMPLE = 100;
/** …nor with fewer logged payments than this. */
export const MIN_DECISIONS = 200;
/** The segment's pseudo-count towards its provider × rail (lib/routing/window.ts POOL_PSEUDO's value). */
export const POOL_PSEUDO = 10;
const Z95 = 1.96;

export type LoggedStep = { provider: string; propensity: number; outcome: LoggedOutcome; decision: string | null; costUsdMinor: number };
/** One logged payment: its facts and segment, the rail's routable providers, its attempts in order. */
export type LoggedDecision = { facts: PaymentFacts; band: string; brand: string | null; routable: string[]; steps: LoggedStep[] };
export type CostOf = (provider: string, rail: string) => ProviderCost;
export type Interval = { value: number; low: number; high: number };
export type Figures = { approvalRate: Interval; netRevenuePerPaymentUsdMinor: Interval };
export type Evaluation =
  | { enough: true; decisions: number; matched: number; effectiveSampleSize: number; inForce: Figures; ips: Figures; dr: Figures }
  | { enough: false; decisions: number; matched: number; effectiveSampleSize: number; inForce: Figures | null; reason: string };

/** What one attempt can come to, as the cascade goes on: approved, failed and moved on (retry_next), failed and stopped. */
type Odds = { approve: number; next: number; stop: number };
const moved = (s: LoggedStep) => s.outcome !== "approved" && s.decision === "retry_next";

/** The outcome model: per provider × segment, shrunk towards provider × rail, then towards the rail. */
export function fitOutcomeModel(logs: LoggedDecision[]) {
  const counts = new Map<string, { a: number; n: number; s: number }>();
  const add = (key: string, st: LoggedStep) => {
    const c = counts.get(key) ?? { a: 0, n: 0, s: 0 };
    if (st.outcome === "approved") c.a++;
    else if (moved(st)) c.n++;
    else c.s++;
    counts.set(key, c);
  };
  for (const d of logs)
    for (const st of d.steps) {
      add(`${st.provider}|${d.facts.paymentMethodId}|${d.band}|${d.brand ?? ""}`, st);
      add(`${st.provider}|${d.facts.paymentMethodId}`, st);
      add(`|${d.facts.paymentMethodId}`, st);
    }
  const shrink = (own: { a: number; n: number; s: number } | undefined, prior: Odds, m: number): Odds => {
    const o = own ?? { a: 0, n: 0, s: 0 };
    const t = o.a + o.n + o.s + m;
    return { approve: (o.a + m * prior.approve) / t, next: (o.n + m * prior.next) / t, stop: (o.s + m * prior.stop) / t };
  };
  const memo = new Map<string, Odds>();
  return (provider: string, d: LoggedDecision): Odds => {
    const key = `${provider}|${d.facts.paymentMethodId}|${d.band}|${d.brand ?? ""}`;
    const hit = memo.get(key);
    if (hit) return hit;
    const rail = shrink(counts.get(`|${d.facts.paymentMethodId}`), { approve: 1 / 3, next: 1 / 3, stop: 1 / 3 }, 3);
    const parent = shrink(counts.get(`${provider}|${d.facts.paymentMethodId}`), rail, POOL_PSEUDO);
    const odds = shrink(counts.get(key), parent, POOL_PSEUDO);
    memo.set(key, odds);
    return odds;
  };
}
export type OutcomeModel = ReturnType<typeof fitOutcomeModel>;

type Objective = "approval" | "net";
/** What an attempt at `provider` is worth to the payment, under an objective, given it ends the payment or not. */
function rewardOf(objective: Objective, d: LoggedDecision, provider: string, approved: boolean, cost: CostOf): number {
  if (objective === "approval") return approved ? 1 : 0;
  const c = cost(provider, d.facts.paymentMethodId);
  const amount = Number(d.facts.amountUsdMinor);
  return approved ? amount - ((amount * c.bp) / 10_000 + c.fixedUsdMinor) : -c.failedUsdMinor;
}

/**
 * The candidate's distribution over the next provider of a payment, given those already tried
 * (an empty object: the candidate would stop). Mirrors lib/routing/select.ts selectRoute: the
 * first matching rule, its listed providers that are routable, then the rail's others unless
 * `fallback: false`; no rule, the rail's platform order.
 */
export function candidatePolicy(rules: CompiledRule[], model: OutcomeModel, cost: CostOf) {
  const matched = new WeakMap<LoggedDecision, CompiledRule | undefined>();
  return (d: LoggedDecision, tried: readonly string[]): Record<string, number> => {
    const free = (p: string) => !tried.includes(p);
    if (!matched.has(d)) matched.set(d, rules.find((r) => ruleMatches(r, d.facts)));
    const rule = matched.get(d);
    const fallbackNext = () => {
      const p = d.routable.find((q) => free(q) && (!rule || !rule.providers.some((x) => x.provider === q)));
      return p ? { [p]: 1 } : {};
    };
    if (!rule) return fallbackNext();
    const listed = rule.providers.filter((p) => d.routable.includes(p.provider) && free(p.provider));
    const after = () => (rule.fallback === false ? {} : fallbackNext());
    if (!listed.length) return after();
    if (rule.strategy === "split") {
      const weighted = listed.filter((p) => (p.weight ?? 0) > 0);
      if (!weighted.length) return { [listed[0]!.provider]: 1 };
      const total = weighted.reduce((s, p) => s + p.weight!, 0);
      return Object.fromEntries(weighted.map((p) => [p.provider, p.weight! / total]));
    }
    if (rule.strategy !== "success_rate") return { [listed[0]!.provider]: 1 };
    // Steady state: the model's best for this segment first (its expected value under the rule's
    // objective), the exploration share spread over the others (select.ts exploreOrder).
    const objective: Objective = rule.objective === "net_revenue" ? "net" : "approval";
    const value = (p: string) => {
      const o = model(p, d);
      return o.approve * rewardOf(objective, d, p, true, cost) + (1 - o.approve) * rewardOf(objective, d, p, false, cost);
    };
    const names = listed.map((p) => p.provider);
    const best = names.reduce((b, p) => (value(p) > value(b) ? p : b), names[0]!);
    if (names.length === 1) return { [best]: 1 };
    const e = Math.max(rule.exploration ?? DEFAULT_EXPLORATION, EXPLORATION_FLOOR);
    return Object.fromEntries(names.map((p) => [p, p === best ? 1 - e : e / (names.length - 1)]));
  };
}
export type Policy = ReturnType<typeof candidatePolicy>;

/** The model's value of the rest of a payment once `tried` have failed and the cascade moved on: V̂(h) = Σ π(a|h) Q̂(h, a). */
function modelValue(objective: Objective, d: LoggedDecision, tried: string[], policy: Policy, model: OutcomeModel, cost: CostOf, memo: Map<string, number>): number {
  const key = tried.join(",");
  const hit = memo.get(key);
  if (hit !== undefined) return hit;
  let v = 0;
  for (const [a, p] of Object.entries(policy(d, tried))) if (p > 0) v += p * modelQ(objective, d, tried, a, policy, model, cost, memo);
  memo.set(key, v);
  return v;
}
function modelQ(objective: Objective, d: LoggedDecision, tried: string[], a: string, policy: Policy, model: OutcomeModel, cost: CostOf, memo: Map<string, number>): number {
  const key = `${tried.join(",")}>${a}`;
  const hit = memo.get(key);
  if (hit !== undefined) return hit;
  const q = modelQOnce(objective, d, tried, a, policy, model, cost, memo);
  memo.set(key, q);
  return q;
}
function modelQOnce(objective: Objective, d: LoggedDecision, tried: string[], a: string, policy: Policy, model: OutcomeModel, cost: CostOf, memo: Map<string, number>): number {
  const o = model(a, d);
  const win = rewardOf(objective, d, a, true, cost);
  const lose = rewardOf(objective, d, a, false, cost);
  return o.approve * win + (o.stop + o.next) * lose + o.next * modelValue(objective, d, [...tried, a], policy, model, cost, memo);
}

/** Everything the candidate's choice and the model's odds depend on: payments alike in it share their model values. */
const contextKey = (d: LoggedDecision) => `${d.facts.paymentMethodId}|${d.facts.amountUsdMinor}|${d.facts.country}|${d.facts.currency}|${d.facts.documentType}|${d.band}|${d.brand}|${d.routable.join(",")}`;

/** One payment's terms: its trajectory weight ρ, its logged value R, its DR term, per objective. `memos`: the model values of payments alike, per objective and context. */
function terms(d: LoggedDecision, policy: Policy, model: OutcomeModel, cost: CostOf, memos: Map<string, Map<string, number>>) {
  let rho = 1;
  const weights: number[] = [];
  for (let k = 0; k < d.steps.length; k++) {
    const st = d.steps[k]!;
    const tried = d.steps.slice(0, k).map((s) => s.provider);
    const pc = policy(d, tried)[st.provider] ?? 0;
    const w = st.propensity > 0 ? pc / st.propensity : 0;
    weights.push(w);
    rho *= w;
  }
  const out = {} as Record<Objective, { R: number; dr: number }>;
  const ctx = contextKey(d);
  for (const objective of ["approval", "net"] as const) {
    const memoKey = `${objective}|${ctx}`;
    const memo = memos.get(memoKey) ?? new Map<string, number>();
    memos.set(memoKey, memo);
    // The logged reward of each attempt: the cost paid (net), the approval at the end.
    const r = d.steps.map((st) => (objective === "approval" ? (st.outcome === "approved" ? 1 : 0) : st.outcome === "approved" ? Number(d.facts.amountUsdMinor) - st.costUsdMinor : -st.costUsdMinor));
    const R = r.reduce((s, x) => s + x, 0);
    // The cascade moved on after the last attempt but the logged plan had nobody left: what a
    // candidate would have got from there is the model's alone.
    const last = d.steps.at(-1);
    let v = last && moved(last) ? modelValue(objective, d, d.steps.map((s) => s.provider), policy, model, cost, memo) : 0;
    for (let k = d.steps.length - 1; k >= 0; k--) {
      const tried = d.steps.slice(0, k).map((s) => s.provider);
      const q = modelQ(objective, d, tried, d.steps[k]!.provider, policy, model, cost, memo);
      v = modelValue(objective, d, tried, policy, model, cost, memo) + weights[k]! * (r[k]! + v - q);
    }
    out[objective] = { R, dr: v };
  }
  return { rho, out };
}

const interval = (value: number, se: number): Interval => ({ value, low: value - Z95 * se, high: value + Z95 * se });
function meanInterval(xs: number[]): Interval {
  const n = xs.length;
  const m = xs.reduce((s, x) => s + x, 0) / n;
  const variance = n > 1 ? xs.reduce((s, x) => s + (x - m) ** 2, 0) / (n - 1) : 0;
  return interval(m, Math.sqrt(variance / n));
}
function snips(rho: number[], R: number[]): Interval {
  const total = rho.reduce((s, x) => s + x, 0);
  const v = rho.reduce((s, w, i) => s + w * R[i]!, 0) / total;
  const se = Math.sqrt(rho.reduce((s, w, i) => s + (w * (R[i]! - v)) ** 2, 0)) / total;
  return interval(v, se);
}

/**
 * The candidate `rules` (compiled) estimated on `logs`: IPS (self-normalised) and DR, each with
 * its 95 % interval, beside what the policy in force had (the logs' own mean). With fewer than
 * MIN_DECISIONS payments, or an effective sample below MIN_EFFECTIVE_SAMPLE (the candidate
 * chooses what the logs rarely tried), it says so instead of estimating.
 */
export function evaluateRules(logs: LoggedDecision[], rules: CompiledRule[], cost: CostOf): Evaluation {
  const usable = logs.filter((d) => d.steps.length > 0);
  const n = usable.length;
  const inForce = n ? { approvalRate: meanInterval(usable.map((d) => (d.steps.some((s) => s.outcome === "approved") ? 1 : 0))), netRevenuePerPaymentUsdMinor: meanInterval(usable.map((d) => d.steps.reduce((s, st) => s + (st.outcome === "approved" ? Number(d.facts.amountUsdMinor) : 0) - st.costUsdMinor, 0))) } : null;
  if (n < MIN_DECISIONS) return { enough: false, decisions: n, matched: 0, effectiveSampleSize: 0, inForce, reason: `${n} routed payments in the period; an estimate needs at least ${MIN_DECISIONS}.` };
  const model = fitOutcomeModel(usable);
  const policy = candidatePolicy(rules, model, cost);
  const memos = new Map<string, Map<string, number>>();
  const all = usable.map((d) => terms(d, policy, model, cost, memos));
  const rho = all.map((t) => t.rho);
  const sum = rho.reduce((s, x) => s + x, 0);
  const sq = rho.reduce((s, x) => s + x * x, 0);
  const ess = sum > 0 ? (sum * sum) / sq : 0;
  const matched = rho.filter((x) => x > 0).length;
  if (ess < MIN_EFFECTIVE_SAMPLE)
    return { enough: false, decisions: n, matched, effectiveSampleSize: ess, inForce, reason: `The candidate routes mostly where the policy in force rarely went: the logs weigh as ${Math.floor(ess)} payments (an estimate needs an effective sample of ${MIN_EFFECTIVE_SAMPLE}).` };
  const ips: Figures = { approvalRate: snips(rho, all.map((t) => t.out.approval.R)), netRevenuePerPaymentUsdMinor: snips(rho, all.map((t) => t.out.net.R)) };
  const dr: Figures = { approvalRate: meanInterval(all.map((t) => t.out.approval.dr)), netRevenuePerPaymentUsdMinor: meanInterval(all.map((t) => t.out.net.dr)) };
  return { enough: true, decisions: n, matched, effectiveSampleSize: ess, inForce: inForce!, ips, dr };
}
