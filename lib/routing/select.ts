// The routing decision, a pure function: which providers a payment tries, in which order, and
// why (decisions.md: routingReason rule | split | success_rate | exploration | fallback). The
// rules come from the shop's current version (lib/routing/rules.ts), the scores and circuit
// states from the shared outcome window (lib/routing/stats.ts); randomness is injected so a
// seeded generator makes every draw reproducible in tests and the benchmark.
import { toMinorUp } from "@/lib/money/amount";
import type { DocumentType, Objective, RoutingReason, RoutingRule } from "@/lib/routing/schema";
import type { ProviderCost } from "@/lib/providers/costs";
import { EXPLORATION_FLOOR, certain, exploreOrder, splitChoices, type StepChoice } from "@/lib/routing/propensity";
export type { ProviderCost } from "@/lib/providers/costs";

export type PaymentFacts = { paymentMethodId: string; amountUsdMinor: bigint; country: string; currency: string; documentType: DocumentType | null };
export type CircuitState = "closed" | "open" | "half_open";
/** What the window knows of a provider on this rail and amount band (counts may be discounted). */
export type Score = { approved: number; failed: number };
export type Step = { provider: string; reason: RoutingReason };
/** `choices[k]`: the probability the selector put `steps[k]` where it is, given the steps before (lib/routing/propensity.ts). */
export type Plan = { version: number | null; rule: number | null; steps: Step[]; skipped: string[]; choices: StepChoice[] };
export type Rng = () => number;

export type CompiledRule = RoutingRule & { minUsd: bigint | null; maxUsd: bigint | null };
export type SelectContext = {
  rng: Rng;
  score?: (provider: string) => Score;
  circuit?: (provider: string) => CircuitState;
  /** Success-rate's watch on a provider that fell (lib/routing/window.ts): `due` a probe now (asked once per plan), `fallen` between probes. */
  fallen?: (provider: string) => Fallen;
  algorithm?: Algorithm;
  /** The provider cost table (lib/providers/costs.ts), read by rules whose objective is net_revenue. */
  cost?: (provider: string) => ProviderCost;
};

/**
 * A provider's expected value as an affine function of its approval p: value = gain × p − loss.
 * Approval: gain 1, loss 0 (p itself). Net revenue: P × (amount − cost if approved) − (1 − P) ×
 * cost of a failure, i.e. gain = amount − approved cost + failed cost, loss = failed cost. Scores
 * and values are floats (a ranking, never an amount that moves); the costs are integer cents.
 */
export type Value = { gain: number; loss: number };
const APPROVAL: Value = { gain: 1, loss: 0 };

/** The cost of an approval of `amountUsdMinor` at this provider (minor units, a float: ranking only). */
export const approvedCost = (c: ProviderCost, amountUsdMinor: number) => (amountUsdMinor * c.bp) / 10_000 + c.fixedUsdMinor;

/** A provider's value under net_revenue for a payment of `amountUsdMinor`. */
export function netRevenueValue(c: ProviderCost, amountUsdMinor: number): Value {
  return { gain: amountUsdMinor - approvedCost(c, amountUsdMinor) + c.failedUsdMinor, loss: c.failedUsdMinor };
}
export type Fallen = "due" | "fallen" | null;
/** How success-rate routing turns scores into an order (measured in scripts/bench-routing.ts). */
export type Algorithm = "ids" | "thompson" | "sliding_window";

/** The default exploration share (the contract's; the market simulation measured 3 % a little better, within its noise). */
export const DEFAULT_EXPLORATION = 0.05;

export function compileRoutingRules(rules: RoutingRule[]): CompiledRule[] {
  return rules.map((r) => ({
    ...r,
    // PUT refuses a threshold with more than USD's decimals; one stored before that compiles to
    // the cents it means (toMinorUp), never to 0 (a minimum that took every payment, a maximum
    // that matched none). The schema keeps them finite and non-negative.
    minUsd: r.when?.minAmountUsd !== undefined ? toMinorUp(r.when.minAmountUsd, "USD") : null,
    maxUsd: r.when?.maxAmountUsd !== undefined ? toMinorUp(r.when.maxAmountUsd, "USD") : null,
  }));
}

export function ruleMatches(r: CompiledRule, f: PaymentFacts): boolean {
  if (r.paymentMethodId !== f.paymentMethodId) return false;
  if (r.minUsd !== null && f.amountUsdMinor < r.minUsd) return false;
  if (r.maxUsd !== null && f.amountUsdMinor >= r.maxUsd) return false;
  const w = r.when;
  if (w?.countries && !w.countries.some((c) => c.toUpperCase() === f.country)) return false;
  if (w?.currencies && !w.currencies.some((c) => c.toUpperCase() === f.currency)) return false;
  if (w?.documentTypes && (!f.documentType || !w.documentTypes.includes(f.documentType))) return false;
  return true;
}

/** A draw by weight without replacement: the whole order, heaviest first on average. */
export function weightedOrder(items: Array<{ provider: string; weight: number }>, rng: Rng): string[] {
  const left = items.filter((i) => i.weight > 0);
  const out: string[] = [];
  while (left.length) {
    const total = left.reduce((s, i) => s + i.weight, 0);
    let x = rng() * total;
    let k = 0;
    while (k < left.length - 1 && x >= left[k]!.weight) x -= left[k++]!.weight;
    out.push(left.splice(k, 1)[0]!.provider);
  }
  return [...out, ...items.filter((i) => i.weight <= 0).map((i) => i.provider)];
}

/** A Gamma(shape, 1) draw (Marsaglia–Tsang), for Beta samples. */
function gamma(shape: number, rng: Rng): number {
  if (shape < 1) return gamma(shape + 1, rng) * Math.pow(rng() || 1e-12, 1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      // Box–Muller normal
      x = Math.sqrt(-2 * Math.log(rng() || 1e-12)) * Math.cos(2 * Math.PI * rng());
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = rng() || 1e-12;
    if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}

export function betaSample(a: number, b: number, rng: Rng): number {
  const x = gamma(a, rng);
  const y = gamma(b, rng);
  return x / (x + y);
}

/**
 * Providers ordered by recent approval (or, given `values`, by expected value: see Value). `ids`
 * (the default): the first by information-directed sampling, the rest by a Thompson draw;
 * `thompson`: a Beta posterior draw each; `sliding_window`: the window's rate. With `values` and
 * `costOf`, among providers whose approval the data cannot tell apart from the first's
 * (cannotTellApart), the cheapest goes first.
 */
export function successRateOrder(providers: string[], score: (p: string) => Score, rng: Rng, algorithm: Algorithm = "ids", values?: Value[], costOf?: (p: string) => number): string[] {
  const scores = providers.map(score);
  const keyed = providers.map((p, i) => {
    const s = scores[i]!;
    const rate = algorithm === "sliding_window" ? (s.approved + 1) / (s.approved + s.failed + 2) : betaSample(1 + s.approved, 1 + s.failed, rng);
    const v = values?.[i] ?? APPROVAL;
    return { p, value: values ? v.gain * rate - v.loss : rate, i };
  });
  const order = keyed.sort((a, b) => b.value - a.value || a.i - b.i).map((k) => k.p);
  if (algorithm !== "ids" || providers.length < 2) return values && costOf ? cheapestAlike(order, providers, scores, values, costOf) : order;
  const first = providers[informationDirected(scores, rng, IDS_DRAWS, values)]!;
  const ranked = [first, ...order.filter((p) => p !== first)];
  return values && costOf ? cheapestAlike(ranked, providers, scores, values, costOf) : ranked;
}

/**
 * Approvals "the data cannot tell apart": both providers hold at least TIE_MIN_EVIDENCE (discounted)
 * answers and their posterior means differ by at most TIE_Z combined standard deviations (and,
 * in cheapestAlike, the cheaper one's expected value is not below the other's). Without the
 * minimum, a provider barely tried would tie with everyone. Measured offline
 * (lib/routing/net-revenue.test.ts, 8 seeds; NET_N=2000 for the long runs): with the value
 * condition, a minimum of 10 against 40 at 2,000 payments: net-revenue oracle 97.3 / 97.1 / 98.2 /
 * 98.6 % against 97.2 / 96.7 / 98.0 / 98.4 % (steady, degrading, outage, tied), the tied market's
 * provider cost −4.1 % against approval instead of −0.8 % (40 let the cheaper provider's evidence
 * decay below the minimum while the dearer one took the payments); 20 was worse at 600 payments.
 * Without the value condition (approval within one standard deviation, minimum 20) the steady
 * market's best provider lost payments to a cheaper, worse one: −0.6 points.
 */
export const TIE_Z = 2;
export const TIE_MIN_EVIDENCE = 10;
export function cannotTellApart(x: Score, y: Score): boolean {
  const nx = x.approved + x.failed;
  const ny = y.approved + y.failed;
  if (nx < TIE_MIN_EVIDENCE || ny < TIE_MIN_EVIDENCE) return false;
  const moments = (s: Score) => {
    const a = 1 + s.approved;
    const b = 1 + s.failed;
    return { mean: a / (a + b), variance: (a * b) / ((a + b) * (a + b) * (a + b + 1)) };
  };
  const mx = moments(x);
  const my = moments(y);
  return Math.abs(mx.mean - my.mean) <= TIE_Z * Math.sqrt(mx.variance + my.variance);
}

/**
 * `ranked` with its first replaced by the cheapest provider whose approval cannot be told apart
 * from the first's and whose expected value (at the posterior means) is at least the first's: the
 * data does not say the dearer one is worth its price (the value condition keeps a provider a
 * few points better and worth far more than its fee first). The rest keep their order.
 */
function cheapestAlike(ranked: string[], providers: string[], scores: Score[], values: Value[], costOf: (p: string) => number): string[] {
  const first = ranked[0]!;
  const k0 = providers.indexOf(first);
  const s0 = scores[k0]!;
  const meanValue = (k: number) => values[k]!.gain * ((1 + scores[k]!.approved) / (2 + scores[k]!.approved + scores[k]!.failed)) - values[k]!.loss;
  const v0 = meanValue(k0);
  let pick = first;
  for (let i = 0; i < providers.length; i++) {
    const p = providers[i]!;
    if (p === first || costOf(p) >= costOf(pick)) continue;
    if (cannotTellApart(s0, scores[i]!) && meanValue(i) >= v0) pick = p;
  }
  return pick === first ? ranked : [pick, ...ranked.filter((p) => p !== pick)];
}

/** Posterior draws per provider behind one information-directed choice (offline: 50, 100 and 300 within noise of each other). */
export const IDS_DRAWS = 50;

/**
 * Information-directed sampling (Russo & Van Roy, "Learning to optimize via information-directed
 * sampling", Operations Research 2018; the variance-based form), estimated from IDS_DRAWS joint
 * draws of the Beta posteriors. Each provider's expected regret Δ (how far below the best its
 * rate is expected to be) is weighed against what trying it teaches about which provider is best
 * (v: the variance of its expected rate across the hypotheses "provider b is best"); the choice
 * minimises Δ² / v over mixtures of at most two providers. Thompson sampling explores a provider
 * in proportion to its chance of being best, whatever that teaches; IDS spends its trials where
 * they separate the leaders and stops trying a provider that is both worse and already known
 * (measured offline: +0.3 to +0.5 points of the oracle on every scenario at 600 payments).
 * Given `values`, each draw is a provider's expected value rather than its rate (the regret and
 * the information are then in money, the same ratio). Returns the index of the provider to try first.
 */
export function informationDirected(scores: Score[], rng: Rng, draws = IDS_DRAWS, values?: Value[]): number {
  const K = scores.length;
  // A posterior with a few answers each way is drawn exactly; one with more by its normal
  // approximation (same mean and variance), a fifth of the work: the decision stays a few µs.
  const shape = scores.map((s) => {
    const a = 1 + s.approved;
    const b = 1 + s.failed;
    return { a, b, normal: a >= 8 && b >= 8, mean: a / (a + b), sd: Math.sqrt((a * b) / ((a + b) * (a + b) * (a + b + 1))) };
  });
  let spare: number | null = null;
  const normal = () => {
    if (spare !== null) {
      const z: number = spare;
      spare = null;
      return z;
    }
    const r = Math.sqrt(-2 * Math.log(rng() || 1e-12));
    const t = 2 * Math.PI * rng();
    spare = r * Math.sin(t);
    return r * Math.cos(t);
  };
  const mu = new Array<number>(K).fill(0);
  const pStar = new Array<number>(K).fill(0);
  // cond[a * K + b]: sum of provider a's draws where b was the best.
  const cond = new Array<number>(K * K).fill(0);
  const row = new Array<number>(K);
  let rho = 0;
  for (let m = 0; m < draws; m++) {
    let best = 0;
    for (let a = 0; a < K; a++) {
      const sh = shape[a]!;
      row[a] = sh.normal ? Math.min(1, Math.max(0, sh.mean + sh.sd * normal())) : betaSample(sh.a, sh.b, rng);
      // Net revenue: the draw of the approval turned into the draw of the provider's value, so
      // regret and information are counted in money (approval: the rate itself, unchanged).
      if (values) row[a] = values[a]!.gain * row[a]! - values[a]!.loss;
      if (row[a]! > row[best]!) best = a;
    }
    rho += row[best]!;
    pStar[best] = pStar[best]! + 1;
    for (let a = 0; a < K; a++) (mu[a] = mu[a]! + row[a]!), (cond[a * K + best] = cond[a * K + best]! + row[a]!);
  }
  const delta = new Array<number>(K);
  const v = new Array<number>(K).fill(0);
  for (let a = 0; a < K; a++) {
    delta[a] = Math.max(0, (rho - mu[a]!) / draws);
    for (let b = 0; b < K; b++) if (pStar[b]) v[a] = v[a]! + (pStar[b]! / draws) * (cond[a * K + b]! / pStar[b]! - mu[a]! / draws) ** 2;
  }
  let bestRatio = Infinity;
  let pick = [0, 0, 1];
  for (let i = 0; i < K; i++)
    for (let j = i; j < K; j++)
      for (let step = 0; step <= 20; step++) {
        const q = step / 20;
        const num = (q * delta[i]! + (1 - q) * delta[j]!) ** 2;
        const den = q * v[i]! + (1 - q) * v[j]!;
        const ratio = den > 0 ? num / den : num === 0 ? 0 : Infinity;
        if (ratio < bestRatio) (bestRatio = ratio), (pick = [i, j, q]);
      }
  return rng() < pick[2]! ? pick[0]! : pick[1]!;
}

/**
 * The plan for one payment. `routable` is the rail's platform order of configured providers;
 * a rule's providers that are not routable are left out. Under success-rate routing, providers
 * whose circuit is open are skipped (unless every one is: then the plan keeps them, trying beats
 * refusing).
 */
export function selectRoute(rules: CompiledRule[], version: number | null, facts: PaymentFacts, routable: string[], given: SelectContext): Plan {
  // A half-open circuit lets one probe through when asked: ask once per provider per plan.
  const seen = new Map<string, CircuitState>();
  const circuit = given.circuit;
  const fallenSeen = new Map<string, Fallen>();
  const fallen = given.fallen;
  const ctx: SelectContext = { ...given, circuit: circuit && ((p) => seen.get(p) ?? (seen.set(p, circuit(p)), seen.get(p)!)), fallen: fallen && ((p) => (fallenSeen.has(p) ? fallenSeen.get(p)! : (fallenSeen.set(p, fallen(p)), fallenSeen.get(p)!))) };
  const idx = rules.findIndex((r) => ruleMatches(r, facts));
  let steps: Step[];
  let stepChoices: StepChoice[];
  if (idx < 0) {
    steps = routable.map((provider) => ({ provider, reason: "fallback" as const }));
    stepChoices = routable.map(certain);
  } else {
    const rule = rules[idx]!;
    const listed = rule.providers.filter((p) => routable.includes(p.provider));
    let order: string[];
    let choices: StepChoice[] = [];
    let first: RoutingReason = "rule";
    if (rule.strategy === "split") {
      order = weightedOrder(listed.map((p) => ({ provider: p.provider, weight: p.weight ?? 0 })), ctx.rng);
      first = "split";
    } else if (rule.strategy === "success_rate") {
      const names = listed.map((p) => p.provider);
      const rank = rankerFor(rule.objective ?? "approval", facts, ctx);
      const eligible = names.filter((p) => (ctx.circuit?.(p) ?? "closed") !== "open");
      const closed = names.filter((p) => !eligible.includes(p));
      // A half-open circuit's probe goes first: only an answer can close it. So does a fallen
      // provider's scheduled probe (its way back: random exploration skips it).
      const probe = names.find((p) => ctx.circuit?.(p) === "half_open") ?? eligible.find((p) => ctx.fallen?.(p) === "due");
      // Exploration (lib/routing/propensity.ts exploreOrder): at every position, a provider other
      // than the one success-rate would place there, with the rule's share and at least
      // EXPLORATION_FLOOR, so every eligible provider has a propensity above zero (the share is
      // then all learning: picking the leader by chance was exploration paid for and not had;
      // uniform among the others: weighting towards the least-known provider was measured worse,
      // −0.5 to −0.7 points of the oracle on the steady and degrading markets). A provider whose
      // fallen state was not asked (the probe search stops at the first due one; asking schedules
      // a probe) or that fell is not explored.
      const explorable = (p: string) => eligible.includes(p) && (!fallen || (fallenSeen.has(p) && fallenSeen.get(p) === null));
      const share = Math.max(rule.exploration ?? DEFAULT_EXPLORATION, EXPLORATION_FLOOR);
      const ranked = rank(probe ? eligible.filter((p) => p !== probe) : eligible);
      const walked = exploreOrder(ranked, explorable, share, ctx.rng);
      order = [...(probe ? [probe] : []), ...walked.order, ...closed];
      choices = [...(probe ? [certain(probe)] : []), ...walked.choices, ...closed.map(certain)];
      first = probe || order[0] !== ranked[0] ? "exploration" : "success_rate";
    } else {
      order = listed.map((p) => p.provider);
      choices = order.map(certain);
    }
    if (rule.strategy === "split") choices = splitChoices(order, (p) => listed.find((l) => l.provider === p)?.weight ?? 0);
    steps = order.map((provider, i) => ({ provider, reason: i === 0 ? first : rule.strategy === "success_rate" ? "success_rate" : "rule" }));
    stepChoices = choices;
    if (rule.fallback !== false) for (const p of routable) if (!order.includes(p)) steps.push({ provider: p, reason: "fallback" }), stepChoices.push(certain(p));
  }
  // The circuit belongs to success-rate routing: fixed orders and splits try what they list.
  const watched = idx >= 0 && rules[idx]!.strategy === "success_rate";
  const skipped = watched ? steps.filter((s) => ctx.circuit?.(s.provider) === "open").map((s) => s.provider) : [];
  const open = new Set(skipped);
  const kept = steps.filter((s) => !open.has(s.provider));
  // A skipped provider leaves the plan: the positions after it keep their probabilities given
  // what came before (the open ones are only ever placed after every eligible one, with certainty).
  const keptChoices = stepChoices.filter((_, i) => !open.has(steps[i]!.provider));
  return { version: idx < 0 ? null : version, rule: idx < 0 ? null : idx, steps: kept.length ? kept : steps, skipped: kept.length ? skipped : [], choices: kept.length ? keptChoices : stepChoices };
}

/** Success-rate's order of some providers under a rule's objective (approval: exactly the order before objectives existed). */
function rankerFor(objective: Objective, facts: PaymentFacts, ctx: SelectContext): (providers: string[]) => string[] {
  const score = ctx.score ?? (() => ({ approved: 0, failed: 0 }));
  if (objective !== "net_revenue" || !ctx.cost) return (providers) => successRateOrder(providers, score, ctx.rng, ctx.algorithm);
  const amount = Number(facts.amountUsdMinor);
  const costs = new Map<string, ProviderCost>();
  const cost = ctx.cost;
  const costOf = (p: string) => approvedCost(costs.get(p) ?? (costs.set(p, cost(p)), costs.get(p)!), amount);
  return (providers) => {
    const values = providers.map((p) => (costOf(p), netRevenueValue(costs.get(p)!, amount)));
    return successRateOrder(providers, score, ctx.rng, ctx.algorithm, values, costOf);
  };
}

/** A small seeded generator (mulberry32) for reproducible draws. */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The buyer's document kind, read from its shape. */
export function documentTypeOf(documentId: string | undefined | null, country: string): DocumentType | null {
  if (!documentId) return null;
  const v = documentId.trim().toUpperCase();
  const digits = v.replace(/[.\-/\s]/g, "");
  if (country === "BRA" && /^\d{11}$/.test(digits)) return "cpf";
  if (country === "BRA" && /^\d{14}$/.test(digits)) return "cnpj";
  if (country === "MEX" && v.length === 18) return "curp";
  if (country === "MEX" && (v.length === 12 || v.length === 13)) return "rfc";
  if (country === "COL" && /^\d{6,10}(-\d)?$/.test(v)) return "co_document";
  return "other";
}
