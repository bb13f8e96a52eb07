// Success-rate routing on the shipped market scenarios (scripts/psp/market.ts), replayed in
// process with the shipped settings (scripts/psp/market-replay.ts: the same selectRoute and
// window as the servers, time in payments). Pins what the offline measurement found, over 8
// seeds of 600 payments (96.3 / 97.4 / 97.9 % with IDS and the fallen provider's probes at
// 30/120; deterministic: seeded market, seeded draws), so a change to the algorithm that loses
// approvals fails here first. Eight short runs are noisy (the 60-seed means are 97.6 / 97.1 /
// 97.7 %; one steady seed sits at 89.7 %), so the floors sit under these eight, not the means.
import { test } from "node:test";
import assert from "node:assert/strict";
import { scenarios } from "../../scripts/psp/market.ts";
import { CHOSEN, replay, replayFixed } from "../../scripts/psp/market-replay.ts";

const SEEDS = 8;
function measure(name: string) {
  const base = scenarios(600, 22).find((s) => s.name === name)!;
  let approved = 0;
  let oracle = 0;
  let fixed = 0;
  for (let k = 0; k < SEEDS; k++) {
    const s = { ...base, seed: 22 + k };
    const r = replay(s, CHOSEN, 1000 + k);
    approved += r.approved;
    oracle += r.oracle;
    fixed += replayFixed(s);
  }
  return { share: approved / oracle, approved, oracle, fixed };
}

for (const [name, floor] of [["steady", 0.96], ["degrading", 0.965], ["outage", 0.965]] as const) {
  test(`${name}: success-rate routing keeps ≥ ${floor * 100} % of the oracle's approvals (degrading: and wins back most of what fixed priority loses)`, () => {
    const m = measure(name);
    assert.ok(m.share >= floor, `${(m.share * 100).toFixed(1)} % of the oracle`);
    // Fixed priority's loss against the oracle is the degradation there is to see; routing must win most of it back.
    if (name === "degrading") assert.ok(m.approved - m.fixed >= 0.5 * (m.oracle - m.fixed), `routing ${m.approved}, fixed ${m.fixed}, oracle ${m.oracle}`);
  });
}
