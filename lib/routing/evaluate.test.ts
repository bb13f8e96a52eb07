// The estimators against the market model (scripts/psp/market.ts), where the truth is known:
// traffic logged under a known policy with the propensities selectRoute gives, another policy
// estimated from those logs and compared with its true replay on the same payments
// (lib/routing/evaluate-market.ts). Seeded, so deterministic; the sizes are chosen so that one
// point is about 2.7 standard errors of the least precise estimate (60,000 payments per
// scenario; measured errors ≤ 0.3 points, docs/integrators/routing.md "Evaluation").
import { test } from "node:test";
import assert from "node:assert/strict";
import { SPEI_PROVIDERS, scenarios } from "../../scripts/psp/market.ts";
import { logMarket, marketCost, trueReplay } from "@/lib/routing/evaluate-market";
import { MIN_DECISIONS, MIN_EFFECTIVE_SAMPLE, evaluateRules } from "@/lib/routing/evaluate";
import { compileRoutingRules, selectRoute, seededRng } from "@/lib/routing/select";
import type { RoutingRule } from "@/lib/routing/schema";

const UNIFORM: RoutingRule[] = [{ paymentMethodId: "1003", strategy: "split", fallback: true, providers: SPEI_PROVIDERS.map((provider) => ({ provider, weight: 1 })) }];
const CANDIDATES: Record<string, RoutingRule[]> = {
  "priority, cheapest first": [{ paymentMethodId: "1003", strategy: "priority", fallback: true, providers: ["rapidpay", "andespay", "pagosur", "ebanx", "mercadopago"].map((provider) => ({ provider })) }],
  "split andespay 60 / rapidpay 40": [{ paymentMethodId: "1003", strategy: "split", fallback: true, providers: [{ provider: "andespay", weight: 60 }, { provider: "rapidpay", weight: 40 }] }],
  "no rules (the platform order: the provider that falls or goes down first)": [],
};
const points = (x: number) => `${(x * 100).toFixed(2)} %`;

for (const s of scenarios(60_000, 22)) {
  test(`${s.name}: logged under a uniform split, each candidate's approval rate estimated within ±1 point of its true replay (IPS and DR), net revenue within the DR interval`, () => {
    const logs = logMarket(s, UNIFORM, 7);
    for (const [name, rules] of Object.entries(CANDIDATES)) {
      const compiled = compileRoutingRules(rules);
      const truth = trueReplay(s, compiled, logs);
      const e = evaluateRules(logs, compiled, marketCost(s));
      assert.ok(e.enough, name);
      for (const [estimator, f] of Object.entries({ ips: e.ips, dr: e.dr })) {
        const a = f.approvalRate;
        assert.ok(Math.abs(a.value - truth.approvalRate) <= 0.01, `${name} ${estimator}: ${points(a.value)} against ${points(truth.approvalRate)}`);
        assert.ok(a.low <= truth.approvalRate && truth.approvalRate <= a.high, `${name} ${estimator}: the interval ${points(a.low)}–${points(a.high)} misses ${points(truth.approvalRate)}`);
      }
      const net = e.dr.netRevenuePerPaymentUsdMinor;
      assert.ok(net.low <= truth.netRevenuePerPaymentUsdMinor && truth.netRevenuePerPaymentUsdMinor <= net.high, `${name} DR net: ${net.low.toFixed(0)}–${net.high.toFixed(0)} misses ${truth.netRevenuePerPaymentUsdMinor.toFixed(0)}`);
    }
  });
}

test("logged by the shipped selector itself (success-rate, learning as it goes, exploration 0.3): a split candidate within ±1 point on the steady and degrading markets", () => {
  const learning: RoutingRule[] = [{ paymentMethodId: "1003", strategy: "success_rate", exploration: 0.3, fallback: true, providers: SPEI_PROVIDERS.map((provider) => ({ provider })) }];
  for (const s of scenarios(30_000, 22).filter((x) => x.name === "steady" || x.name === "degrading")) {
    const logs = logMarket(s, learning, 11, true);
    const compiled = compileRoutingRules(CANDIDATES["split andespay 60 / rapidpay 40"]!);
    const truth = trueReplay(s, compiled, logs);
    const e = evaluateRules(logs, compiled, marketCost(s));
    assert.ok(e.enough);
    assert.ok(Math.abs(e.dr.approvalRate.value - truth.approvalRate) <= 0.01, `${s.name}: ${points(e.dr.approvalRate.value)} against ${points(truth.approvalRate)}`);
    assert.ok(Math.abs(e.ips.approvalRate.value - truth.approvalRate) <= 0.01, `${s.name} IPS: ${points(e.ips.approvalRate.value)} against ${points(truth.approvalRate)}`);
  }
});

test("too little traffic: fewer payments than the minimum, or a candidate the logs never tried, is answered as such, not estimated", () => {
  const s = scenarios(60_000, 22)[0]!;
  const few = logMarket({ ...s, n: MIN_DECISIONS - 1 }, UNIFORM, 7);
  const e = evaluateRules(few, compileRoutingRules(CANDIDATES["priority, cheapest first"]!), marketCost(s));
  assert.equal(e.enough, false);
  assert.match(!e.enough ? e.reason : "", /at least 200/);
  assert.ok(e.inForce, "what the rules in force had is still shown");
  // Logged by a fixed order (every propensity 1): another fixed order has no support at all.
  const fixed = logMarket({ ...s, n: 5_000 }, [{ paymentMethodId: "1003", strategy: "priority", fallback: true, providers: SPEI_PROVIDERS.map((provider) => ({ provider })) }], 7);
  const other = evaluateRules(fixed, compileRoutingRules(CANDIDATES["priority, cheapest first"]!), marketCost(s));
  assert.equal(other.enough, false);
  assert.ok(other.effectiveSampleSize < MIN_EFFECTIVE_SAMPLE);
  assert.match(!other.enough ? other.reason : "", /effective sample/);
});

test("every plan position's distribution sums to 1 and names the chosen provider's propensity; success-rate keeps every eligible provider above zero at the first position", () => {
  const rng = seededRng(3);
  const rules = compileRoutingRules([{ paymentMethodId: "1003", strategy: "success_rate", exploration: 0, fallback: true, providers: SPEI_PROVIDERS.slice(0, 4).map((provider) => ({ provider })) }]);
  for (let i = 0; i < 200; i++) {
    const plan = selectRoute(rules, 1, { paymentMethodId: "1003", amountUsdMinor: 2500n, country: "MEX", currency: "USD", documentType: "rfc" }, SPEI_PROVIDERS, { rng, score: (p) => ({ approved: p.length * 10, failed: 20 }) });
    assert.equal(plan.choices.length, plan.steps.length);
    plan.steps.forEach((st, k) => {
      const c = plan.choices[k]!;
      assert.ok(Math.abs(Object.values(c.candidates).reduce((a, b) => a + b, 0) - 1) < 1e-9);
      assert.equal(c.propensity, c.candidates[st.provider]);
    });
    assert.equal(Object.keys(plan.choices[0]!.candidates).length, 4, "the four listed providers");
    assert.ok(Object.values(plan.choices[0]!.candidates).every((p) => p > 0));
  }
});
