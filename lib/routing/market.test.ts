// Success-rate routing on the shipped market scenarios (scripts/psp/market.ts), replayed in
// process with the shipped settings (scripts/psp/market-replay.ts: the same selectRoute and
// window as the servers, time in payments), over 8 seeds of 600 payments (deterministic: seeded
// market, seeded draws), so a change to the algorithm that loses approvals fails here first.
// Two markets: SPEI's five providers (the real connectors' mercadopago and ebanx first in the
// platform order: 97.0 / 96.3 / 96.9 % of the oracle when measured) and the three common
// providers alone, whose models are unchanged, so they replay the published three-provider
// figures exactly (96.3 / 97.4 / 97.9 % with IDS and the fallen provider's probes at 30/120).
// Eight short runs are noisy (the three-provider 60-seed means are 97.6 / 97.1 / 97.7 %; one
// steady seed sits at 89.7 %), so the floors sit under these eight, not the means.
import { test } from "node:test";
import assert from "node:assert/strict";
import { COMMON_PROVIDERS, SPEI_PROVIDERS, oracle, scenarios } from "../../scripts/psp/market.ts";
import { CHOSEN, replay, replayFixed } from "../../scripts/psp/market-replay.ts";

const SEEDS = 8;
function measure(name: string, providers: string[]) {
  const base = scenarios(600, 22).find((s) => s.name === name)!;
  let approved = 0;
  let oracleApprovals = 0;
  let fixed = 0;
  for (let k = 0; k < SEEDS; k++) {
    const s = { ...base, seed: 22 + k };
    const r = replay(s, CHOSEN, 1000 + k, 0, providers);
    approved += r.approved;
    oracleApprovals += r.oracle;
    fixed += replayFixed(s, providers);
  }
  return { share: approved / oracleApprovals, approved, oracle: oracleApprovals, fixed };
}

const markets = [
  { label: "five providers", providers: SPEI_PROVIDERS, floors: { steady: 0.96, degrading: 0.955, outage: 0.96 } },
  // (Degrading, three providers: 96.5 % until the exploration floor of issue 45's propensities
  // changed the draws; 96.0 % since, within these eight runs' noise: 20 seeds of 2,000 moved by
  // −0.13 points on average, docs/integrators/routing.md "Evaluation".)
  { label: "the three common providers", providers: COMMON_PROVIDERS, floors: { steady: 0.96, degrading: 0.955, outage: 0.965 } },
];
for (const { label, providers, floors } of markets) {
  for (const [name, floor] of Object.entries(floors)) {
    test(`${name}, ${label}: success-rate routing keeps ≥ ${floor * 100} % of the oracle's approvals (degrading: and wins back most of what fixed priority loses)`, () => {
      const m = measure(name, providers);
      assert.ok(m.share >= floor, `${(m.share * 100).toFixed(1)} % of the oracle`);
      // Fixed priority's loss against the oracle is the degradation there is to see; routing must win most of it back.
      if (name === "degrading") assert.ok(m.approved - m.fixed >= 0.5 * (m.oracle - m.fixed), `routing ${m.approved}, fixed ${m.fixed}, oracle ${m.oracle}`);
    });
  }
}

test("the three-provider replay is the published one: same approvals and oracle as before the real providers joined", () => {
  // Measured on the three-provider market before mercadopago and ebanx were added (8 seeds of 600),
  // re-measured when the exploration floor (lib/routing/propensity.ts) changed the selector's draws
  // (before: 3817, 3799, 3856 approvals; the oracle's are the market's and unchanged).
  const before = { steady: { approved: 3818, oracle: 3963 }, degrading: { approved: 3747, oracle: 3902 }, outage: { approved: 3862, oracle: 3938 } };
  for (const [name, want] of Object.entries(before)) {
    const m = measure(name, COMMON_PROVIDERS);
    assert.deepEqual({ approved: m.approved, oracle: m.oracle }, want, name);
  }
});

test("SPEI's providers are the catalog's, the real ones first; neither newcomer is ever the oracle's pick, so the oracle is the three providers'", () => {
  assert.deepEqual(SPEI_PROVIDERS, ["mercadopago", "ebanx", ...COMMON_PROVIDERS]);
  for (const s of scenarios(600, 22)) {
    assert.deepEqual(Object.keys(s.providers).sort(), [...SPEI_PROVIDERS].sort(), s.name);
    for (let i = 0; i < s.n; i++) assert.deepEqual(oracle(s, i, SPEI_PROVIDERS), oracle(s, i, COMMON_PROVIDERS), `${s.name} payment ${i}`);
  }
});
