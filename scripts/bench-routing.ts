// Routing benchmark (issue 22): a seeded market (scripts/psp/market.ts) played by the simulated
// PSPs, and N production SPEI payments sent through the real API under each policy:
//   fixed         the platform order (pagosur, andespay, rapidpay), as before routing rules
//   rules         a merchant's static split (rapidpay 50, pagosur 30, andespay 20: cheapest first)
//   success_rate  a success-rate rule over all three (discounted Thompson sampling, 5 % exploration, circuit)
// and the oracle: each payment sent only to the provider with the highest true approval at its
// moment. Prints approval rate, attempts per payment, provider cost, each policy's share of the
// oracle's approvals, and what choosing the route cost (lp_routing_decision_seconds p99) beside
// the provider calls' own latency.
//   npm run bench:routing [-- --n 600 --concurrency 6 --seed 22]
//   npm run bench:routing -- --offline [--n 600 --seeds 20]   (the selector alone, in process:
//        compares Thompson sampling with a sliding-window rate, for choosing the algorithm)
import { parseArgs } from "node:util";
import { withBenchServer, sql } from "./lib/bench-server.ts";
import { SIMULATED_PROVIDERS, providerEnv, startSimulatedProvider } from "./psp/simulator.ts";
import { freePort } from "./lib/embedded-db.ts";
import { benchEmail, decide, oracle, scenarios, type Scenario } from "./psp/market.ts";

const { values } = parseArgs({ options: { n: { type: "string", default: "600" }, concurrency: { type: "string", default: "6" }, seed: { type: "string", default: "22" }, offline: { type: "boolean", default: false }, seeds: { type: "string", default: "20" } } });
const N = Number(values.n);
const SEED = Number(values.seed);
const PROVIDERS = ["pagosur", "andespay", "rapidpay"];
const AMOUNT_USD = 25;

type Policy = { name: string; rules: unknown[] };
const POLICIES: Policy[] = [
  { name: "fixed", rules: [] },
  { name: "rules", rules: [{ paymentMethodId: "1003", strategy: "split", providers: [{ provider: "rapidpay", weight: 50 }, { provider: "pagosur", weight: 30 }, { provider: "andespay", weight: 20 }] }] },
  { name: "success_rate", rules: [{ paymentMethodId: "1003", strategy: "success_rate", exploration: 0.05, providers: PROVIDERS.map((provider) => ({ provider })) }] },
];

type Result = { scenario: string; policy: string; approved: number; attempts: number; costCents: number; oracle: number; routingP99Ms: number | null; providerP50Ms: number | null };

function costOf(s: Scenario, attempts: Array<{ provider: string; outcome: string }>): number {
  let cents = 0;
  for (const a of attempts) {
    const m = s.providers[a.provider];
    if (!m) continue;
    cents += m.fixedCents;
    if (a.outcome === "accepted") cents += (AMOUNT_USD * 100 * m.costBp) / 10_000;
  }
  return cents;
}

function table(rows: Result[]) {
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  console.log("\n| scenario | policy | approval | attempts / payment | provider cost (USD) | share of oracle | routing p99 | provider call p50 |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const r of rows) {
    console.log(`| ${r.scenario} | ${r.policy} | ${pct(r.approved / N)} | ${(r.attempts / N).toFixed(2)} | ${(r.costCents / 100).toFixed(2)} | ${pct(r.approved / r.oracle)} | ${r.routingP99Ms === null ? "—" : `${r.routingP99Ms.toFixed(3)} ms`} | ${r.providerP50Ms === null ? "—" : `${r.providerP50Ms} ms`} |`);
  }
  const oracles = [...new Set(rows.map((r) => `${r.scenario}: ${r.oracle} of ${N} (${pct(r.oracle / N)})`))];
  console.log(`\noracle approvals: ${oracles.join("; ")}`);
}

async function online() {
  const ports: [number, number, number] = [await freePort(), await freePort(), await freePort()];
  const sims = SIMULATED_PROVIDERS(ports, ["bench-pagosur-secret", "bench-andespay-secret", "bench-rapidpay-secret"]);
  const stops = [] as Array<() => Promise<void>>;
  for (const p of sims) stops.push((await startSimulatedProvider(p)).stop);
  const results: Result[] = [];
  try {
    // The learning windows scaled to a run of a few minutes (production: minutes to hours).
    const env = { ...providerEnv(sims), PROVIDER_PAGOSUR_TIMEOUT_MS: "2000", PROVIDER_ANDESPAY_TIMEOUT_MS: "2000", PROVIDER_RAPIDPAY_TIMEOUT_MS: "2000", ROUTING_REFRESH_MS: "100", ROUTING_HALF_LIFE_MS: "4000", ROUTING_WINDOW_MS: "30000", ROUTING_CIRCUIT_WINDOW_MS: "5000", ROUTING_CIRCUIT_COOLDOWN_MS: "1500", ROUTING_CIRCUIT_MIN_VOLUME: "4", DATABASE_POOL_SIZE: "10", LOG_LEVEL: "error" };
    await withBenchServer(env, async (server) => {
      const { createMerchant } = await import("../lib/merchants/create-merchant.ts");
      const { setRate } = await import("../lib/money/rates.ts");
      await setRate("MXN", "18.20", "bench");
      const call = async (path: string, key: string, method: string, body?: unknown) => {
        const r = await fetch(`${server.url}/api/v1${path}`, { method, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
        return { status: r.status, body: (await r.json()) as any };
      };
      const metric = async (name: string, quantile: string) => {
        const text = await (await fetch(`${server.url}/metrics`)).text();
        const line = text.split("\n").find((l) => l.startsWith(`${name}{quantile="${quantile}"}`));
        return line ? Number(line.split(" ").pop()) : null;
      };
      for (const s of scenarios(N, SEED)) {
        for (const sim of sims) await fetch(`http://127.0.0.1:${sim.port}/_control/market`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario: s }) });
        let oracleApprovals = 0;
        for (let i = 0; i < N; i++) if (oracle(s, i, PROVIDERS).approved) oracleApprovals++;
        for (const policy of POLICIES) {
          // Every policy starts from nothing learned.
          await sql(server.databaseUrl, "TRUNCATE routing_outcomes");
          await new Promise((r) => setTimeout(r, 400));
          const m = await createMerchant({ name: `Bench ${s.name} ${policy.name}`, tier: "premium" });
          const key = m.production.secretKey;
          const put = await call("/me/routing", key, "PUT", { rules: policy.rules });
          if (put.status !== 200) throw new Error(`PUT /me/routing: ${put.status} ${JSON.stringify(put.body)}`);
          let approved = 0;
          let attempts = 0;
          let cost = 0;
          const durations: number[] = [];
          let next = 0;
          const worker = async () => {
            for (let i = next++; i < N; i = next++) {
              const r = await call("/payments", key, "POST", { amount: AMOUNT_USD, paymentMethodId: "1003", userName: "Juan Perez", userEmail: benchEmail(i), documentId: "GODE561231GR8" });
              let tried: Array<{ provider: string; outcome: string; durationMs: number }>;
              if (r.status === 200) {
                approved++;
                tried = (await call(`/payments/${r.body.transactionId}`, key, "GET")).body.attempts;
              } else {
                tried = r.body?.error?.details?.attempts ?? [];
              }
              attempts += tried.length;
              cost += costOf(s, tried);
              for (const a of tried) durations.push(a.durationMs);
            }
          };
          await Promise.all(Array.from({ length: Number(values.concurrency) }, worker));
          durations.sort((a, b) => a - b);
          results.push({ scenario: s.name, policy: policy.name, approved, attempts, costCents: cost, oracle: oracleApprovals, routingP99Ms: ((await metric("lp_routing_decision_seconds", "0.99")) ?? NaN) * 1000, providerP50Ms: durations.length ? durations[Math.floor(durations.length / 2)]! : null });
          console.log(`${s.name} / ${policy.name}: ${approved} of ${N} approved, ${(attempts / N).toFixed(2)} attempts per payment`);
        }
      }
    });
  } finally {
    for (const stop of stops) await stop();
  }
  table(results);
}

/**
 * The selector alone against the market model: the same selectRoute and the same window
 * (lib/routing/window.ts: evidence, discount, change detector), with time counted in payments (one
 * bucket per payment, half-lives in payments), no HTTP. Many seeds in seconds: this is how the
 * algorithm and its settings were chosen.
 */
export type OfflineVariant = { name: string; halfLife: number; recentHalfLife: number; threshold: number; exploration: number; legacy?: boolean };
export const CHOSEN: OfflineVariant = { name: "thompson + change detector (shipped)", halfLife: 300, recentHalfLife: 5, threshold: 3, exploration: 0.03 };

/** One run of the success-rate policy over scenario `s`; its share of the oracle's approvals. */
export async function offlineShare(s: Scenario, v: OfflineVariant, rngSeed: number): Promise<number> {
  const { compileRoutingRules, selectRoute, seededRng } = await import("../lib/routing/select.ts");
  const { evidenceOf, scoreBuckets } = await import("../lib/routing/window.ts");
  const rules = compileRoutingRules([{ paymentMethodId: "1003", strategy: "success_rate", exploration: v.exploration, fallback: true, providers: PROVIDERS.map((provider) => ({ provider })) }]);
  const buckets = new Map(PROVIDERS.map((p) => [p, [] as Array<{ start: number; approved: number; declined: number; errors: number }>]));
  const resets = new Map<string, number | null>(PROVIDERS.map((p) => [p, null]));
  const cfg = { halfLifeMs: v.halfLife, recentHalfLifeMs: v.recentHalfLife, changeThreshold: v.threshold };
  const rng = seededRng(rngSeed);
  let got = 0;
  let best = 0;
  for (let i = 0; i < s.n; i++) {
    if (oracle(s, i, PROVIDERS).approved) best++;
    const scores = new Map(
      PROVIDERS.map((p) => {
        if (v.legacy) {
          // Before: every failure (errors and the buyer's declines included) against the provider, no detector.
          let a = 0, f = 0;
          for (const b of buckets.get(p)!) (a += b.approved * Math.pow(0.5, (i - b.start) / v.halfLife)), (f += (b.declined + b.errors) * Math.pow(0.5, (i - b.start) / v.halfLife));
          return [p, { approved: a, failed: f }];
        }
        const r = scoreBuckets(buckets.get(p)!, i, cfg, resets.get(p)!);
        resets.set(p, r.resetAt);
        return [p, r.score];
      }),
    );
    const plan = selectRoute(rules, 1, { paymentMethodId: "1003", amountUsdMinor: 2500n, country: "MEX", currency: "USD", documentType: "rfc" }, PROVIDERS, { rng, score: (p) => scores.get(p)! });
    for (const step of plan.steps) {
      const d = decide(s, step.provider, i);
      const kind = d.mode === "accept" ? "approved" : d.mode === "error" ? "error" : "hard";
      const e = v.legacy ? (d.mode === "accept" ? "approved" : d.mode === "error" ? "error" : "declined") : evidenceOf(kind, d.reason ?? null);
      if (e) {
        const list = buckets.get(step.provider)!;
        let b = list.at(-1);
        if (!b || b.start !== i) list.push((b = { start: i, approved: 0, declined: 0, errors: 0 }));
        if (e === "approved") b.approved++;
        else if (e === "declined") b.declined++;
        else b.errors++;
      }
      if (d.mode === "accept") {
        got++;
        break;
      }
      if (d.mode === "decline") break; // do_not_honor and the buyer's hard declines stop the cascade
    }
    // Old buckets past eight half-lives weigh nothing: drop them (keeps a run linear).
    for (const list of buckets.values()) while (list.length && i - list[0]!.start > 8 * v.halfLife) list.shift();
  }
  return got / best;
}

async function offline() {
  const seeds = Number(values.seeds);
  const variants: OfflineVariant[] = [
    { name: "before: discounted thompson, half-life 50", halfLife: 50, recentHalfLife: 5, threshold: 3, exploration: 0.05, legacy: true },
    { name: "thompson, half-life 300, no detector", halfLife: 300, recentHalfLife: 5, threshold: Infinity, exploration: 0.05 },
    { name: "thompson, half-life 100, no detector", halfLife: 100, recentHalfLife: 5, threshold: Infinity, exploration: 0.05 },
    { name: "thompson + detector (recent 10, threshold 6)", halfLife: 300, recentHalfLife: 10, threshold: 6, exploration: 0.05 },
    { name: "thompson + detector, 5 % explore", halfLife: 300, recentHalfLife: 5, threshold: 3, exploration: 0.05 },
    { name: "thompson + detector, 8 % explore", halfLife: 300, recentHalfLife: 5, threshold: 3, exploration: 0.08 },
    CHOSEN,
  ];
  console.log(`\n| scenario | algorithm | share of oracle (mean over ${seeds} seeds) | worst seed | 10th percentile |`);
  console.log("|---|---|---|---|---|");
  for (const base of scenarios(N, SEED)) {
    for (const v of variants) {
      const shares: number[] = [];
      for (let k = 0; k < seeds; k++) shares.push(await offlineShare({ ...base, seed: SEED + k }, v, 1000 + k));
      shares.sort((a, b) => a - b);
      const mean = shares.reduce((a, b) => a + b, 0) / shares.length;
      console.log(`| ${base.name} | ${v.name} | ${(mean * 100).toFixed(1)} % | ${(shares[0]! * 100).toFixed(1)} % | ${(shares[Math.floor(shares.length / 10)]! * 100).toFixed(1)} % |`);
    }
  }
}

(values.offline ? offline() : online()).then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
