// Segments with pooling (issue 45), replayed in process (scripts/psp/market-replay.ts): the
// "segment" market has payments in three amount bands and a fall of its best provider in the
// USD 900 band alone. Evidence kept per provider × band, a sparse band borrowing the provider's
// other bands (lib/routing/window.ts pooledScore), must keep each band's share of the oracle.
import { test } from "node:test";
import assert from "node:assert/strict";
import { scenarios } from "../../scripts/psp/market.ts";
import { CHOSEN, replay, type ReplayVariant } from "../../scripts/psp/market-replay.ts";
import { pooledScore } from "./window.ts";

const SEEDS = Number(process.env.SEG_SEEDS ?? 8);
const N = Number(process.env.SEG_N ?? 2000);

function measure(v: ReplayVariant) {
  const base = scenarios(N, 22).find((s) => s.name === "segment")!;
  const bands = new Map<string, { approved: number; oracle: number }>();
  let approved = 0;
  let oracle = 0;
  for (let k = 0; k < SEEDS; k++) {
    const r = replay({ ...base, seed: 22 + k }, v, 1000 + k);
    approved += r.approved;
    oracle += r.oracle;
    for (const [b, x] of Object.entries(r.bands ?? {})) {
      const t = bands.get(b) ?? { approved: 0, oracle: 0 };
      bands.set(b, { approved: t.approved + x.approved, oracle: t.oracle + x.oracle });
    }
  }
  return { share: approved / oracle, bands: Object.fromEntries([...bands].map(([b, x]) => [b, x.approved / x.oracle])) };
}

test("pooledScore: a sparse segment starts from its parent's rate, at most `pseudo` answers of it; a full one is hardly moved", () => {
  assert.deepEqual(pooledScore({ approved: 0, failed: 0 }, { approved: 0, failed: 0 }), { approved: 0, failed: 0 });
  const sparse = pooledScore({ approved: 1, failed: 0 }, { approved: 898, failed: 100 }, 10);
  assert.ok(Math.abs(sparse.approved - 10) < 0.01 && Math.abs(sparse.failed - 1) < 0.01, JSON.stringify(sparse));
  const few = pooledScore({ approved: 0, failed: 0 }, { approved: 3, failed: 1 }, 10);
  assert.ok(Math.abs(few.approved + few.failed - 4) < 1e-9, "no more weight than the parent has");
});

test(`segment market: every band keeps ≥ 90 % of its oracle with pooling (${SEEDS} seeds of ${N})`, () => {
  const pooled = measure(CHOSEN);
  const alone = measure({ ...CHOSEN, pool: 0 });
  const fmt = (m: ReturnType<typeof measure>) => `${(m.share * 100).toFixed(1)} % (${Object.entries(m.bands).map(([b, x]) => `${b} ${(x * 100).toFixed(1)} %`).join(", ")})`;
  console.log(`pooled (pseudo 10): ${fmt(pooled)}; bands alone: ${fmt(alone)}`);
  for (const [b, x] of Object.entries(pooled.bands)) assert.ok(x >= 0.9, `${b}: ${(x * 100).toFixed(1)} %`);
});
