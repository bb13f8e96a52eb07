// Routing benchmark (issue 22): a seeded market (scripts/psp/market.ts) played by SPEI's five
// providers' simulators (the common protocol's pagosur, andespay and rapidpay; Mercado Pago's and
// EBANX's in their own wire formats, reached by the real connectors; Stripe's runs too, configured
// as in development, and serves no SPEI), and N production SPEI payments sent through the real API
// (a production server, HTTP, PostgreSQL) under each policy:
//   fixed         the platform order (mercadopago, ebanx, pagosur, andespay, rapidpay), as before
//                 routing rules
//   rules         a merchant's static split, cheapest first (by basis points): rapidpay 30,
//                 pagosur 25, ebanx 20, mercadopago 15, andespay 10
//   success_rate  a success-rate rule over all five (information-directed sampling on a long
//                 discounted memory, a change detector, scheduled probes of a provider that fell,
//                 no random exploration, the circuit)
//   net_revenue   the same rule with objective net_revenue (issue 45): expected value from the
//                 provider cost table (the market's fees, as PROVIDER_<CODE>_COSTS), the cheapest
//                 of providers whose approval the data cannot tell apart first
// and the oracle: each payment sent only to the provider with the highest true approval at its
// moment (and the net-revenue oracle: the highest true expected net revenue). Prints approval rate,
// attempts per payment, provider cost, net revenue, each policy's share of the oracle's approvals
// and of the net-revenue oracle's, and what choosing the route cost inside the payment path beside the
// provider calls' own latency: lp_routing_decision_seconds (a timer around the decision in
// lib/payments/cascade.ts, p50 and p99) and lp_routing_plan_seconds (the whole step, with the
// cached rules and window reads, p99). The summaries are read from the server's /metrics after
// each run and cover its last 10 minutes.
//
// Payments are paced (--rate per second) so the routing windows, set in payments by the offline
// measurement, map onto time: half-life 300 payments = 300 / rate seconds, and so on. The
// default (2,000 payments per run at 24 a second, 9 runs) takes about 13 minutes; learning costs
// a roughly fixed number of payments, so --n 600 (faster) shows more of it and less of the
// steady share, and swings ±2 points with the seed.
// The bench's server uses the PostgreSQL routing store (REDIS_URL is ignored here).
//   npm run bench:routing [-- --n 2000 --rate 24 --seed 22 --policies fixed,rules,success_rate]
//   npm run bench:routing -- --offline [--n 600 --seeds 20 --lag 0 --all-variants]   (the selector
//        alone, in process: each objective's share of the approval oracle and of the net-revenue
//        oracle, provider cost and net revenue, over many seeds; --all-variants adds the algorithms
//        and settings compared when success-rate was chosen. --lag L: each answer known L
//        payments late, as with payments in flight through the API). Issue 45's acceptance:
//        --n 2000 --seeds 40.
import { parseArgs } from "node:util";
import { withBenchServer, sql } from "./lib/bench-server.ts";
import { startSimulatedProvider } from "./psp/simulator.ts";
import { startRealSimulators } from "./psp/real-simulators.ts";
import { SIMULATED_PROVIDERS, providerEnv } from "./psp/providers.ts";
import { freePort } from "./lib/embedded-db.ts";
import { SPEI_PROVIDERS, amountOf, benchEmail, netOracle, oracle, scenarios, type Scenario } from "./psp/market.ts";
import { AMOUNT_CENTS, CHOSEN, replay, replayFixed, type ReplayVariant } from "./psp/market-replay.ts";
import type { Algorithm } from "../lib/routing/select.ts";

const { values } = parseArgs({ options: { n: { type: "string", default: "2000" }, rate: { type: "string", default: "24" }, concurrency: { type: "string", default: "16" }, seed: { type: "string", default: "22" }, offline: { type: "boolean", default: false }, seeds: { type: "string", default: "20" }, lag: { type: "string", default: "0" }, variant: { type: "string" }, policies: { type: "string", default: "fixed,rules,success_rate,net_revenue" }, "all-variants": { type: "boolean", default: false } } });
const N = Number(values.n);
const SEED = Number(values.seed);
const PROVIDERS = SPEI_PROVIDERS;

type Policy = { name: string; rules: unknown[] };
const POLICIES: Policy[] = [
  { name: "fixed", rules: [] },
  // Cheapest first by the market's basis points (rapidpay 55, pagosur 60, ebanx 65, mercadopago 70, andespay 95).
  { name: "rules", rules: [{ paymentMethodId: "1003", strategy: "split", providers: [{ provider: "rapidpay", weight: 30 }, { provider: "pagosur", weight: 25 }, { provider: "ebanx", weight: 20 }, { provider: "mercadopago", weight: 15 }, { provider: "andespay", weight: 10 }] }] },
  { name: "success_rate", rules: [{ paymentMethodId: "1003", strategy: "success_rate", exploration: CHOSEN.exploration, providers: PROVIDERS.map((provider) => ({ provider })) }] },
  // The same rule maximising net revenue (issue 45), from the market's fee table (costEnv).
  { name: "net_revenue", rules: [{ paymentMethodId: "1003", strategy: "success_rate", objective: "net_revenue", exploration: CHOSEN.exploration, providers: PROVIDERS.map((provider) => ({ provider })) }] },
];

/** The market's fees as the server's provider cost table (lib/providers/costs.ts): the same in every scenario. */
function costEnv(s: Scenario): Record<string, string> {
  return Object.fromEntries(Object.entries(s.providers).map(([code, m]) => [`PROVIDER_${code.toUpperCase()}_COSTS`, `1003:${m.costBp}:${m.fixedCents}:${m.fixedCents}`]));
}

type Result = { scenario: string; policy: string; approved: number; approvedCents: number; attempts: number; costCents: number; oracle: number; netOracleCents: number; routingP50Ms: number | null; routingP99Ms: number | null; planP99Ms: number | null; providerP50Ms: number | null; run: RunTiming; cpu: RunTiming };
/** This run's decisions alone, from the histogram's counter deltas: p99 as the bucket it falls in ("≤ 0.25 ms"), and how many took over 1 ms. */
type RunTiming = { count: number; p99LeMs: number | null; over1ms: number };
type Buckets = Map<number, number>;

/** The cumulative buckets of a histogram (lp_routing_decision_duration_seconds: wall time; lp_routing_decision_cpu_seconds: CPU time): upper bound (s) → count. */
function histogram(metricsText: string, name: string): Buckets {
  const out = new Map<number, number>();
  for (const line of metricsText.split("\n")) {
    const m = new RegExp(`^${name}_bucket\\{le="([^"]+)"\\} (\\S+)$`).exec(line);
    if (m) out.set(m[1] === "+Inf" ? Infinity : Number(m[1]), Number(m[2]));
  }
  return out;
}

const decisionHistograms = async (url: string) => {
  const text = await (await fetch(`${url}/metrics`)).text();
  return { wall: histogram(text, "lp_routing_decision_duration_seconds"), cpu: histogram(text, "lp_routing_decision_cpu_seconds") };
};

function runTiming(before: Buckets, after: Buckets): RunTiming {
  const les = [...after.keys()].sort((a, b) => a - b);
  const delta = (le: number) => (after.get(le) ?? 0) - (before.get(le) ?? 0);
  const count = delta(Infinity);
  const p99 = les.find((le) => delta(le) >= 0.99 * count);
  return { count, p99LeMs: count && p99 !== undefined ? p99 * 1000 : null, over1ms: count - delta(0.001) };
}

function costOf(s: Scenario, attempts: Array<{ provider: string; outcome: string }>, amountCents: number): number {
  let cents = 0;
  for (const a of attempts) {
    const m = s.providers[a.provider];
    if (!m) continue;
    cents += m.fixedCents;
    if (a.outcome === "accepted") cents += (amountCents * m.costBp) / 10_000;
  }
  return cents;
}

/** A run's p99 as the histogram bucket it falls in. */
const le = (t: RunTiming) => (t.p99LeMs === null ? "—" : t.p99LeMs === Infinity ? "> 5 ms" : `≤ ${t.p99LeMs} ms`);

function table(rows: Result[]) {
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  const ms = (x: number | null) => (x === null || Number.isNaN(x) ? "—" : `${x.toFixed(3)} ms`);
  console.log("\n| scenario | policy | approval | attempts / payment | provider cost (USD) | net revenue (USD) | share of oracle | share of net-revenue oracle | decision p50 | decision p99 | this run's decision p99 (bucket) | over 1 ms | its CPU time p99 | over 1 ms (CPU) | routing step p99 | provider call p50 |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const r of rows) {
    console.log(`| ${r.scenario} | ${r.policy} | ${pct(r.approved / N)} | ${(r.attempts / N).toFixed(2)} | ${(r.costCents / 100).toFixed(2)} | ${((r.approvedCents - r.costCents) / 100).toFixed(2)} | ${pct(r.approved / r.oracle)} | ${pct((r.approvedCents - r.costCents) / r.netOracleCents)} | ${ms(r.routingP50Ms)} | ${ms(r.routingP99Ms)} | ${le(r.run)} | ${r.run.over1ms} of ${r.run.count} | ${le(r.cpu)} | ${r.cpu.over1ms} | ${ms(r.planP99Ms)} | ${r.providerP50Ms === null ? "—" : `${r.providerP50Ms} ms`} |`);
  }
  // The issue's table: success-rate against the oracle and against fixed priority.
  console.log("\n| scenario | oracle | fixed priority | success-rate routing | % of oracle | gain over fixed (payments) |");
  console.log("|---|---|---|---|---|---|");
  for (const sc of [...new Set(rows.map((r) => r.scenario))]) {
    const fixed = rows.find((r) => r.scenario === sc && r.policy === "fixed");
    const sr = rows.find((r) => r.scenario === sc && r.policy === "success_rate");
    if (!fixed || !sr) continue;
    console.log(`| ${sc} | ${sr.oracle} | ${fixed.approved} | ${sr.approved} | ${pct(sr.approved / sr.oracle)} | ${sr.approved - fixed.approved >= 0 ? "+" : ""}${sr.approved - fixed.approved} (fixed is ${fixed.oracle - fixed.approved} below the oracle) |`);
  }
}

async function online() {
  const ports: [number, number, number] = [await freePort(), await freePort(), await freePort()];
  const sims = SIMULATED_PROVIDERS(ports, ["bench-pagosur-secret", "bench-andespay-secret", "bench-rapidpay-secret"]);
  const stops = [] as Array<() => Promise<void>>;
  for (const p of sims) stops.push((await startSimulatedProvider(p)).stop);
  // The real providers' simulators, each on a port the system gives it as it binds. The server's
  // port is picked afterwards (withBenchServer), when every simulator is already listening, so it
  // can never be one of theirs (npm start needs a picker because its PORT is fixed beforehand).
  // That is also why their notice URL is not the server's yet: the bench moves no charge, so none
  // sends notices, and EBANX's is re-pointed once the server is up; MP notifies the notification_url
  // each payment carries, and Stripe serves no SPEI.
  const real = await startRealSimulators("http://127.0.0.1:9");
  for (const r of real.sims) stops.push(r.stop);
  // Where POST /_control/market goes: every simulator that serves SPEI.
  const marketUrls = [...sims.map((sim) => `http://127.0.0.1:${sim.port}`), ...real.sims.filter((r) => PROVIDERS.includes(r.code)).map((r) => r.url)];
  const results: Result[] = [];
  try {
    // The windows of the offline choice (in payments) turned into time at the paced rate.
    const RATE = Number(values.rate);
    const inMs = (payments: number) => String(Math.max(10, Math.round((payments / RATE) * 1000)));
    delete process.env.REDIS_URL;
    const env = {
      ...providerEnv(sims),
      ...real.env,
      ...costEnv(scenarios(N, SEED)[0]!),
      ...Object.fromEntries([...sims.map((sim) => sim.code), ...real.sims.map((r) => r.code)].map((code) => [`PROVIDER_${code.toUpperCase()}_TIMEOUT_MS`, "2000"])),
      ROUTING_REFRESH_MS: "100",
      ROUTING_BUCKET_MS: inMs(1),
      ROUTING_HALF_LIFE_MS: inMs(CHOSEN.halfLife),
      ROUTING_CHANGE_THRESHOLD: String(CHOSEN.threshold),
      ROUTING_PROBE_INTERVAL_MS: inMs(CHOSEN.probe!.intervalMs),
      ROUTING_PROBE_MAX_INTERVAL_MS: inMs(CHOSEN.probe!.maxIntervalMs),
      ROUTING_WINDOW_MS: inMs(8 * CHOSEN.halfLife),
      ROUTING_CIRCUIT_WINDOW_MS: inMs(60),
      ROUTING_CIRCUIT_COOLDOWN_MS: inMs(20),
      ROUTING_CIRCUIT_MIN_VOLUME: "4",
      DATABASE_POOL_SIZE: "10",
      LOG_LEVEL: "error",
    };
    await withBenchServer(env, async (server) => {
      const { createMerchant } = await import("../lib/merchants/create-merchant.ts");
      const { setRate } = await import("../lib/money/rates.ts");
      await setRate("MXN", "18.20", "bench");
      const ebanx = real.sims.find((r) => r.code === "ebanx")!;
      await fetch(`${ebanx.url}/_control/notice-url`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url: `${server.url}/api/v1/providers/ebanx/notifications` }) });
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
        for (const url of marketUrls) {
          const set = await fetch(`${url}/_control/market`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ scenario: s }) });
          if (!set.ok) throw new Error(`POST ${url}/_control/market: ${set.status}`);
        }
        let oracleApprovals = 0;
        let netOracleCents = 0;
        for (let i = 0; i < N; i++) {
          if (oracle(s, i, PROVIDERS).approved) oracleApprovals++;
          netOracleCents += netOracle(s, i, PROVIDERS).net;
        }
        for (const policy of POLICIES.filter((p) => values.policies.split(",").includes(p.name))) {
          // Every policy starts from nothing learned.
          await sql(server.databaseUrl, "TRUNCATE routing_outcomes");
          await new Promise((r) => setTimeout(r, 400));
          const m = await createMerchant({ name: `Bench ${s.name} ${policy.name}`, tier: "premium" });
          const key = m.production.secretKey;
          const put = await call("/me/routing", key, "PUT", { rules: policy.rules });
          if (put.status !== 200) throw new Error(`PUT /me/routing: ${put.status} ${JSON.stringify(put.body)}`);
          const bucketsBefore = await decisionHistograms(server.url);
          let approved = 0;
          let attempts = 0;
          let cost = 0;
          let approvedCents = 0;
          const durations: number[] = [];
          // Which providers the policy sent attempts to (all five of SPEI's take part).
          const byProvider = new Map<string, number>(PROVIDERS.map((p) => [p, 0]));
          // Payment i leaves at i / rate seconds (paced, so payments and time agree), at most
          // --concurrency in flight.
          const started = performance.now();
          let next = 0;
          const worker = async () => {
            for (let i = next++; i < N; i = next++) {
              const wait = started + (i * 1000) / RATE - performance.now();
              if (wait > 0) await new Promise((r) => setTimeout(r, wait));
              const amountCents = amountOf(s, i);
              const r = await call("/payments", key, "POST", { amount: amountCents / 100, paymentMethodId: "1003", userName: "Juan Perez", userEmail: benchEmail(i), documentId: "GODE561231GR8" });
              let tried: Array<{ provider: string; outcome: string; durationMs: number }>;
              if (r.status === 200) {
                approved++;
                approvedCents += amountCents;
                tried = (await call(`/payments/${r.body.transactionId}`, key, "GET")).body.attempts;
              } else {
                tried = r.body?.error?.details?.attempts ?? [];
              }
              attempts += tried.length;
              cost += costOf(s, tried, amountCents);
              for (const a of tried) durations.push(a.durationMs), byProvider.set(a.provider, (byProvider.get(a.provider) ?? 0) + 1);
            }
          };
          await Promise.all(Array.from({ length: Number(values.concurrency) }, worker));
          const lag = (performance.now() - started) / 1000 - N / RATE;
          if (lag > 5) console.log(`  (the run took ${lag.toFixed(0)} s longer than paced: the server fell behind ${RATE}/s)`);
          durations.sort((a, b) => a - b);
          const bucketsAfter = await decisionHistograms(server.url);
          const run = runTiming(bucketsBefore.wall, bucketsAfter.wall);
          const cpu = runTiming(bucketsBefore.cpu, bucketsAfter.cpu);
          results.push({ run, cpu, scenario: s.name, policy: policy.name, approved, attempts, costCents: cost, approvedCents, oracle: oracleApprovals, netOracleCents, routingP50Ms: ((await metric("lp_routing_decision_seconds", "0.5")) ?? NaN) * 1000, routingP99Ms: ((await metric("lp_routing_decision_seconds", "0.99")) ?? NaN) * 1000, planP99Ms: ((await metric("lp_routing_plan_seconds", "0.99")) ?? NaN) * 1000, providerP50Ms: durations.length ? durations[Math.floor(durations.length / 2)]! : null });
          console.log(`${s.name} / ${policy.name}: ${approved} of ${N} approved (oracle ${oracleApprovals}), ${(attempts / N).toFixed(2)} attempts per payment, decision p99 ${le(run)} (CPU ${le(cpu)}), ${run.over1ms} of ${run.count} over 1 ms (CPU: ${cpu.over1ms}); attempts by provider: ${[...byProvider].map(([p, k]) => `${p} ${k}`).join(", ")}`);
        }
      }
    });
  } finally {
    for (const stop of stops) await stop();
  }
  table(results);
}

/**
 * The selector alone against the market model, many seeds (scripts/psp/market-replay.ts): the
 * shipped settings under each objective (issue 45), against the approval oracle and the
 * net-revenue oracle, with what the providers were paid and what the payments netted; each
 * decision's CPU time (process.cpuUsage around selectRoute, as the servers' histogram). With
 * --all-variants, also the algorithms and settings compared when success-rate was chosen.
 */
async function offline() {
  const seeds = Number(values.seeds);
  const objectives: ReplayVariant[] = [CHOSEN, { ...CHOSEN, name: "net_revenue (shipped settings)", objective: "net_revenue" }];
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  console.log(`\n${N} payments per run (USD ${AMOUNT_CENTS / 100} each; the segment market's in three bands), ${seeds} seeds${Number(values.lag) ? `, answers ${values.lag} payments late` : ""}`);
  console.log("\n| scenario | objective | approvals: share of oracle (mean) | worst seed | provider cost per payment (USD) | net revenue per payment (USD) | share of net-revenue oracle (mean) | worst seed | decision CPU time p99 (µs) | each amount band's share of its oracle |");
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  for (const base of scenarios(N, SEED)) {
    for (const v of objectives) {
      const shares: number[] = [];
      const netShares: number[] = [];
      let cost = 0;
      let net = 0;
      const timings: number[] = [];
      const bands = new Map<string, { approved: number; oracle: number }>();
      for (let k = 0; k < seeds; k++) {
        const r = replay({ ...base, seed: SEED + k }, v, 1000 + k, Number(values.lag), PROVIDERS, timings);
        for (const [b, x] of Object.entries(r.bands ?? {})) {
          const t = bands.get(b) ?? { approved: 0, oracle: 0 };
          bands.set(b, { approved: t.approved + x.approved, oracle: t.oracle + x.oracle });
        }
        shares.push(r.approved / r.oracle);
        netShares.push(r.netCents / r.netOracleCents);
        cost += r.costCents;
        net += r.netCents;
      }
      shares.sort((a, b) => a - b);
      netShares.sort((a, b) => a - b);
      timings.sort((a, b) => a - b);
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const p99 = timings[Math.floor(timings.length * 0.99)]!;
      console.log(`| ${base.name} | ${v.objective ?? "approval"} | ${pct(mean(shares))} | ${pct(shares[0]!)} | ${(cost / 100 / (seeds * N)).toFixed(4)} | ${(net / 100 / (seeds * N)).toFixed(4)} | ${pct(mean(netShares))} | ${pct(netShares[0]!)} | ${p99.toFixed(0)} | ${bands.size > 1 ? [...bands].map(([b, x]) => `${b} ${pct(x.approved / x.oracle)}`).join(", ") : "—"} |`);
    }
  }
  if (!values["all-variants"] && !values.variant) return;
  const variants: ReplayVariant[] = [
    { algorithm: "thompson", name: "before: discounted thompson, half-life 50, errors as failures", halfLife: 50, threshold: Infinity, exploration: 0.05, legacy: true },
    { algorithm: "thompson", name: "thompson, half-life 100, no detector", halfLife: 100, threshold: Infinity, exploration: 0.03 },
    { algorithm: "thompson", name: "thompson, half-life 300, no detector", halfLife: 300, threshold: Infinity, exploration: 0.03 },
    { algorithm: "thompson", name: "thompson + detector, threshold 3", halfLife: 300, threshold: 3, exploration: 0.03 },
    { algorithm: "thompson", name: "thompson + detector, threshold 7", halfLife: 300, threshold: 7, exploration: 0.03 },
    { algorithm: "thompson", name: "thompson + detector, half-life 1000", halfLife: 1000, threshold: 5, exploration: 0.03 },
    { algorithm: "thompson", name: "thompson + detector, 5 % explore", halfLife: 300, threshold: 5, exploration: 0.05 },
    { algorithm: "thompson", name: "thompson + detector, 3 % explore (shipped before)", halfLife: 300, threshold: 5, exploration: 0.03 },
    { algorithm: "ids", name: "IDS, no probes, 3 % explore", halfLife: 300, threshold: 5, exploration: 0.03 },
    // Probes of a fallen provider (in payments: first interval / longest), the rest as shipped unless said.
    ...([
      ["ids", 20, 60, 0.03],
      ["ids", 20, 60, 0],
      ["ids", 30, 90, 0],
      ["ids", 20, 40, 0],
      ["ids", 20, 60, 0, { halfLife: 600 }],
      ["ids", 20, 60, 0, { threshold: 6 }],
      ["thompson", 20, 60, 0],
      ["thompson", 20, 60, 0.03],
      ["thompson", 10, 60, 0],
      ["thompson", 30, 90, 0],
      ["thompson", 20, 40, 0],
      ["thompson", 20, 60, 0, { halfLife: 600 }],
      ["thompson", 10, 40, 0.03],
      ["thompson", 20, 100, 0.03],
    ] as Array<[Algorithm, number, number, number, Partial<ReplayVariant>?]>).map(([algorithm, intervalMs, maxIntervalMs, exploration, over]) => ({
      algorithm,
      name: `${algorithm === "ids" ? "IDS + " : ""}probes ${intervalMs}/${maxIntervalMs}, ${exploration ? `${exploration * 100} % explore` : "no random exploration"}${over?.halfLife ? `, half-life ${over.halfLife}` : ""}${over?.threshold ? `, threshold ${over.threshold}` : ""}`,
      halfLife: 300,
      threshold: 5,
      exploration,
      probe: { intervalMs, maxIntervalMs },
      ...over,
    })),
    CHOSEN,
  ];
  console.log(`\n| scenario | algorithm | share of oracle (mean over ${seeds} seeds${Number(values.lag) ? `, answers ${values.lag} payments late` : ""}) | worst seed | 10th percentile | fixed priority's share (mean) |`);
  console.log("|---|---|---|---|---|---|");
  for (const base of scenarios(N, SEED)) {
    for (const v of variants.filter((x) => !values.variant || values.variant.split(",").some((w) => x.name.includes(w)))) {
      const shares: number[] = [];
      let fixed = 0;
      for (let k = 0; k < seeds; k++) {
        const s = { ...base, seed: SEED + k };
        const r = replay(s, v, 1000 + k, Number(values.lag));
        shares.push(r.approved / r.oracle);
        fixed += replayFixed(s) / r.oracle;
      }
      shares.sort((a, b) => a - b);
      const mean = shares.reduce((a, b) => a + b, 0) / shares.length;
      console.log(`| ${base.name} | ${v.name} | ${(mean * 100).toFixed(1)} % | ${(shares[0]! * 100).toFixed(1)} % | ${(shares[Math.floor(shares.length / 10)]! * 100).toFixed(1)} % | ${((fixed / seeds) * 100).toFixed(1)} % |`);
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
