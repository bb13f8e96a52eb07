// The market model (scripts/psp/market.ts) logged as routing_decisions would log it, and a
// candidate's true replay on the same payments: what lib/routing/evaluate.test.ts measures the
// estimators against, where the truth is known. Not used by the service.
import { SPEI_PROVIDERS, amountOf, attemptCost, bandOf, decide, type Scenario } from "../../scripts/psp/market.ts";
import { compileRoutingRules, selectRoute, seededRng, type CompiledRule, type PaymentFacts } from "@/lib/routing/select";
import { candidatePolicy, fitOutcomeModel, type CostOf, type LoggedDecision, type LoggedStep } from "@/lib/routing/evaluate";
import type { RoutingRule } from "@/lib/routing/schema";

const factsOf = (s: Scenario, i: number): PaymentFacts => ({ paymentMethodId: "1003", amountUsdMinor: BigInt(amountOf(s, i)), country: "MEX", currency: "USD", documentType: "rfc" });
export const marketCost = (s: Scenario): CostOf => (p) => ({ bp: s.providers[p]!.costBp, fixedUsdMinor: s.providers[p]!.fixedCents, failedUsdMinor: s.providers[p]!.fixedCents });

/** What provider p answers payment i, as a logged step (an outage's 503 moves on; a decline stops, as on SPEI). */
function answer(s: Scenario, p: string, i: number, propensity: number): LoggedStep {
  const d = decide(s, p, i);
  const approved = d.mode === "accept";
  return { provider: p, propensity, outcome: approved ? "approved" : d.mode === "error" ? "unknown" : "declined", decision: approved ? null : d.mode === "error" ? "retry_next" : "stop", costUsdMinor: attemptCost(s.providers[p]!, approved, amountOf(s, i)) };
}

/**
 * Payments 0..n−1 of `s` routed by `rules` through selectRoute, as the cascade logs them. With
 * `learn`, success-rate scores are the running tally of answers per provider and band (an
 * adaptive logging policy; its propensities still come from selectRoute).
 */
export function logMarket(s: Scenario, rules: RoutingRule[], rngSeed: number, learn = false): LoggedDecision[] {
  const compiled = compileRoutingRules(rules);
  const rng = seededRng(rngSeed);
  const tally = new Map<string, { approved: number; failed: number }>();
  const out: LoggedDecision[] = [];
  for (let i = 0; i < s.n; i++) {
    const facts = factsOf(s, i);
    const band = bandOf(s, i).band;
    const plan = selectRoute(compiled, 1, facts, SPEI_PROVIDERS, { rng, score: (p) => (learn ? (tally.get(`${p}|${band}`) ?? { approved: 0, failed: 0 }) : { approved: 0, failed: 0 }), cost: (p) => marketCost(s)(p, "1003") });
    const steps: LoggedStep[] = [];
    for (const [k, step] of plan.steps.entries()) {
      const a = answer(s, step.provider, i, plan.choices[k]!.propensity);
      steps.push(a);
      const t = tally.get(`${step.provider}|${band}`) ?? { approved: 0, failed: 0 };
      if (a.outcome === "approved") t.approved++;
      else t.failed++;
      tally.set(`${step.provider}|${band}`, t);
      if (a.decision !== "retry_next") break;
    }
    out.push({ facts, band, brand: null, routable: SPEI_PROVIDERS, steps });
  }
  return out;
}

/**
 * The candidate's true replay on the same payments: each payment's expected approval and net
 * revenue over the candidate's own draws (exact: every order it could try, weighed by its
 * probability), averaged. For priority and split candidates (a success-rate candidate's
 * choices would depend on what it learnt).
 */
export function trueReplay(s: Scenario, rules: CompiledRule[], logs: LoggedDecision[]): { approvalRate: number; netRevenuePerPaymentUsdMinor: number } {
  const policy = candidatePolicy(rules, fitOutcomeModel([]), marketCost(s));
  let approval = 0;
  let net = 0;
  const walk = (i: number, d: LoggedDecision, tried: string[]): [number, number] => {
    let a = 0;
    let v = 0;
    for (const [p, w] of Object.entries(policy(d, tried))) {
      const st = answer(s, p, i, 1);
      const win = st.outcome === "approved";
      const [ra, rv] = st.decision === "retry_next" ? walk(i, d, [...tried, p]) : [0, 0];
      a += w * ((win ? 1 : 0) + ra);
      v += w * ((win ? Number(d.facts.amountUsdMinor) : 0) - st.costUsdMinor + rv);
    }
    return [a, v];
  };
  logs.forEach((d, i) => {
    const [a, v] = walk(i, d, []);
    approval += a;
    net += v;
  });
  return { approvalRate: approval / logs.length, netRevenuePerPaymentUsdMinor: net / logs.length };
}
