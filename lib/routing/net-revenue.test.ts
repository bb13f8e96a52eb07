// Net-revenue routing (issue 45) on the shipped market scenarios, replayed in process as
// lib/routing/market.test.ts does (scripts/psp/market-replay.ts, 8 seeds of 600 payments of USD 25,
// deterministic): the net_revenue objective against the net-revenue oracle (the provider with the
// highest true P × (amount − fee) − failed fee, alone), and against the approval objective where
// two providers approve alike at different costs (the "tied" scenario).
import { test } from "node:test";
import assert from "node:assert/strict";
import { scenarios } from "../../scripts/psp/market.ts";
import { CHOSEN, replay } from "../../scripts/psp/market-replay.ts";

const SEEDS = Number(process.env.NET_SEEDS ?? 8);
const N = Number(process.env.NET_N ?? 600);
const NET = { ...CHOSEN, name: "net revenue", objective: "net_revenue" as const };

function measure(name: string, v: typeof CHOSEN) {
  const base = scenarios(N, 22).find((s) => s.name === name)!;
  const sum = { approved: 0, oracle: 0, costCents: 0, netCents: 0, netOracleCents: 0 };
  let worstNet = Infinity;
  for (let k = 0; k < SEEDS; k++) {
    const r = replay({ ...base, seed: 22 + k }, v, 1000 + k);
    for (const key of Object.keys(sum) as Array<keyof typeof sum>) sum[key] += r[key];
    worstNet = Math.min(worstNet, r.netCents / r.netOracleCents);
  }
  return { ...sum, approvalShare: sum.approved / sum.oracle, netShare: sum.netCents / sum.netOracleCents, worstNet };
}

for (const name of ["steady", "degrading", "outage", "tied"]) {
  test(`${name}: net_revenue keeps ≥ 95 % of the net-revenue oracle over ${SEEDS} short runs`, () => {
    const net = measure(name, NET);
    const approval = measure(name, CHOSEN);
    console.log(`${name}: net_revenue ${(net.netShare * 100).toFixed(1)} % of the net oracle (worst ${(net.worstNet * 100).toFixed(1)} %), cost ${(net.costCents / 100).toFixed(2)} USD, approvals ${(net.approvalShare * 100).toFixed(1)} %; approval ${(approval.netShare * 100).toFixed(1)} % of the net oracle, cost ${(approval.costCents / 100).toFixed(2)} USD, approvals ${(approval.approvalShare * 100).toFixed(1)} %`);
    assert.ok(net.netShare >= 0.95, `${(net.netShare * 100).toFixed(1)} % of the net-revenue oracle`);
  });
}

test("tied: where two providers approve alike, net_revenue pays less for its approvals than approval does", () => {
  const net = measure("tied", NET);
  const approval = measure("tied", CHOSEN);
  assert.ok(net.costCents / net.approved < approval.costCents / approval.approved, `net ${net.costCents / net.approved} against approval ${approval.costCents / approval.approved} cents per approval`);
  // Short runs: the approvals of two alike providers differ by their own draws (±0.5 points), more than the fee saved.
  assert.ok(net.netCents >= 0.99 * approval.netCents, `net ${net.netCents} against approval ${approval.netCents}`);
});
