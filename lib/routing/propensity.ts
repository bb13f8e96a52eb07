// Propensities of the routing decision (issue 45, "policies tried on history"): for each position
// of a plan, the probability with which the selector put that provider there, given the providers
// already placed and its own draws (the posterior samples, the information-directed coin). Those
// draws never depend on how the payment will answer, so the probability conditional on them is a
// valid propensity for inverse-propensity estimators (lib/routing/evaluate.ts), and it is known
// exactly, where the probability marginal over the draws (how often Thompson sampling ranks a
// provider first) has no closed form.
//
// Success-rate routing would be greedy once its draws are made; an estimator needs every provider
// a candidate rule might choose to have a probability above zero. So at every position the
// selector takes its ranked next with probability 1 − e, otherwise one of the other remaining
// providers it may explore, uniformly: e = max(the rule's exploration, EXPLORATION_FLOOR).
// Measured against the greedy order (npm run bench:routing -- --offline, docs/integrators/routing.md
// "Evaluation"): within the seeds' noise.

/** The least exploration success-rate routing keeps at every position of its order, so that every eligible provider has a propensity above zero. */
export const EXPLORATION_FLOOR = 0.01;

/** One position of a plan: the chosen provider's probability and the distribution it was drawn from (providers with probability 0 left out; the values sum to 1). */
export type StepChoice = { propensity: number; candidates: Record<string, number> };

/** A position taken with certainty (a fixed order, a probe, the platform default). */
export const certain = (provider: string): StepChoice => ({ propensity: 1, candidates: { [provider]: 1 } });

/**
 * `ranked` (the ranker's order, best first) walked position by position: the next ranked
 * provider with probability 1 − share, else one of the other remaining `explorable` ones
 * uniformly. Returns the order and each position's choice.
 */
export function exploreOrder(ranked: string[], explorable: (provider: string) => boolean, share: number, rng: () => number): { order: string[]; choices: StepChoice[] } {
  const left = [...ranked];
  const order: string[] = [];
  const choices: StepChoice[] = [];
  while (left.length) {
    const leader = left[0]!;
    const alts = left.slice(1).filter(explorable);
    const e = alts.length ? share : 0;
    const pick = e > 0 && rng() < e ? alts[Math.floor(rng() * alts.length)]! : leader;
    const candidates: Record<string, number> = { [leader]: 1 - e };
    for (const a of alts) candidates[a] = e / alts.length;
    order.push(pick);
    choices.push({ propensity: candidates[pick]!, candidates });
    left.splice(left.indexOf(pick), 1);
  }
  return { order, choices };
}

/** A split's order (weightedOrder: drawn by weight without replacement, the weightless after in their order) with each position's probability. */
export function splitChoices(order: string[], weightOf: (provider: string) => number): StepChoice[] {
  const left = new Set(order.filter((p) => weightOf(p) > 0));
  return order.map((p) => {
    if (!left.size) return certain(p);
    const total = [...left].reduce((s, q) => s + weightOf(q), 0);
    const candidates = Object.fromEntries([...left].map((q) => [q, weightOf(q) / total]));
    left.delete(p);
    return { propensity: candidates[p]!, candidates };
  });
}

/** What came back from one attempt, as the evaluation counts it: approved (the provider took the charge), declined, or unknown (timeout, 5xx, unreadable). */
export type LoggedOutcome = "approved" | "declined" | "unknown";
export type LoggedAttempt = { step: number; provider: string; reason: string; choice: StepChoice; outcome: LoggedOutcome; decision: string | null; costUsdMinor: bigint };
/** One payment's routing decision as the cascade saw it (filled in as it runs; written by the payment's own transaction). */
export type DecisionLog = {
  context: { rail: string; country: string; band: string; brand: string | null; currency: string; documentType: string | null; amountUsdMinor: bigint; routable: string[]; routingVersion: number | null; rule: number | null } | null;
  attempts: LoggedAttempt[];
};
export const newDecisionLog = (): DecisionLog => ({ context: null, attempts: [] });

/** What an attempt costs at a provider (lib/providers/costs.ts), in USD minor units: basis points (rounded half up) and the fixed fee when approved, the failed fee otherwise. */
export function attemptCostUsd(c: { bp: number; fixedUsdMinor: number; failedUsdMinor: number }, amountUsdMinor: bigint, approved: boolean): bigint {
  return approved ? (amountUsdMinor * BigInt(c.bp) + 5_000n) / 10_000n + BigInt(c.fixedUsdMinor) : BigInt(c.failedUsdMinor);
}

/** The rows of routing_decisions for one payment's log (none when the cascade never planned). */
export function decisionRows(owner: { merchantId: string; shopId: string; environment: "sandbox" | "production" }, transactionId: string, log: DecisionLog | undefined) {
  const c = log?.context;
  if (!c) return [];
  return log.attempts.map((a) => ({
    merchantId: owner.merchantId,
    shopId: owner.shopId,
    environment: owner.environment,
    transactionId,
    step: a.step,
    provider: a.provider,
    propensity: a.choice.propensity,
    candidates: a.choice.candidates,
    routable: c.routable,
    routingVersion: c.routingVersion,
    rule: c.rule,
    reason: a.reason,
    rail: c.rail,
    country: c.country,
    band: c.band,
    brand: c.brand,
    currency: c.currency,
    documentType: c.documentType,
    amountUsd: c.amountUsdMinor,
    outcome: a.outcome,
    decision: a.decision,
    costUsd: a.costUsdMinor,
  }));
}
