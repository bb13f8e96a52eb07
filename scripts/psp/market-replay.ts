// The success-rate policy replayed against the market model in process (no HTTP): the same
// selectRoute and the same window (lib/routing/window.ts: evidence, discount, change detector)
// with time counted in payments — one bucket per payment, half-lives in payments. Many seeds in
// seconds: how the algorithm and its settings were chosen (npm run bench:routing -- --offline),
// and what lib/routing/market.test.ts pins.
import { SPEI_PROVIDERS, amountOf, attemptCost, bandOf, decide, netOracle, oracle, type Scenario } from "./market.ts";
import type { Objective } from "../../lib/routing/schema.ts";
import { compileRoutingRules, selectRoute, seededRng, type Algorithm } from "../../lib/routing/select.ts";
import { FRESH, POOL_PSEUDO, evidenceOf, pooledScore, probeDue, watchBuckets, type Bucket, type Memory, type ProbeConfig } from "../../lib/routing/window.ts";

/** SPEI's five providers in the platform order; the three-provider runs pass COMMON_PROVIDERS (./market.ts). */
export const PROVIDERS = SPEI_PROVIDERS;
/** `probe`: a fallen provider's probe schedule, in payments (none: no probes, no restore of its history; the earlier algorithm). */
export type ReplayVariant = { name: string; algorithm: Algorithm; halfLife: number; threshold: number; exploration: number; legacy?: boolean; probe?: ProbeConfig; objective?: Objective; /** Segments' pseudo-count (default POOL_PSEUDO; 0: no pooling). */ pool?: number };
/** The bench's payment in a scenario without bands: USD 25 (in cents), as the online run sends. */
export const AMOUNT_CENTS = 2500;
/** A run's money (USD cents): what every attempt cost, what the approved payments netted after it, and the net-revenue oracle's; approvals and the oracle's per amount band. */
export type ReplayResult = { approved: number; oracle: number; costCents: number; netCents: number; netOracleCents: number; bands?: Record<string, { approved: number; oracle: number }> };
/** The shipped settings, in payments (lib/platform/config.ts turns them into time). */
export const CHOSEN: ReplayVariant = { name: "IDS + change detector + probes of a fallen provider, no random exploration (shipped)", algorithm: "ids", halfLife: 300, threshold: 5, exploration: 0, probe: { intervalMs: 30, maxIntervalMs: 120 } };

/**
 * One run of the success-rate policy over scenario `s`: approvals, and the oracle's. `lag`: each
 * answer is known that many payments after its own (payments in flight while a provider answers,
 * as through the API; a fallen provider's next probe waits for the first one's answer, as the
 * servers do). `providers`: the routable ones, in the platform order.
 */
/** `timings`: each decision's CPU time in µs is pushed there. */
export function replay(s: Scenario, v: ReplayVariant, rngSeed: number, lag = 0, providers: string[] = PROVIDERS, timings?: number[]): ReplayResult {
  const rules = compileRoutingRules([{ paymentMethodId: "1003", strategy: "success_rate", exploration: v.exploration, fallback: true, ...(v.objective ? { objective: v.objective } : {}), providers: providers.map((provider) => ({ provider })) }]);
  // The market's fee table as the production one reads (lib/providers/costs.ts): the fixed fee on every attempt.
  const cost = (p: string) => ({ bp: s.providers[p]!.costBp, fixedUsdMinor: s.providers[p]!.fixedCents, failedUsdMinor: s.providers[p]!.fixedCents });
  let costCents = 0;
  let netOracleCents = 0;
  // Evidence per segment: provider × amount band (one rail, one country here), a sparse band
  // borrowing the provider's other bands (window.ts pooledScore), as the servers do.
  const bandNames = s.bands?.map((b) => b.band) ?? ["lt50"];
  const keyOf = (p: string, band: string) => `${p}|${band}`;
  const keys = providers.flatMap((p) => bandNames.map((band) => keyOf(p, band)));
  const buckets = new Map(keys.map((k) => [k, [] as Bucket[]]));
  const memories = new Map<string, Memory>(keys.map((k) => [k, FRESH]));
  const cfg = { halfLifeMs: v.halfLife, changeThreshold: v.threshold };
  const rng = seededRng(rngSeed);
  let approved = 0;
  let best = 0;
  let approvedCents = 0;
  const byBand = new Map(bandNames.map((b) => [b, { approved: 0, oracle: 0 }]));
  const late: Array<{ known: number; key: string; evidence: "approved" | "declined" | "error"; at: number }> = [];
  const learn = (key: string, e: "approved" | "declined" | "error", at: number) => {
    const list = buckets.get(key)!;
    let b = list.at(-1);
    if (!b || b.start !== at) list.push((b = { start: at, approved: 0, declined: 0, errors: 0 }));
    if (e === "approved") b.approved++;
    else if (e === "declined") b.declined++;
    else b.errors++;
  };
  for (let i = 0; i < s.n; i++) {
    while (late.length && late[0]!.known <= i) {
      const x = late.shift()!;
      learn(x.key, x.evidence, x.at);
    }
    const band = bandOf(s, i).band;
    const amount = amountOf(s, i);
    const seg = byBand.get(band)!;
    if (oracle(s, i, providers).approved) best++, seg.oracle++;
    netOracleCents += netOracle(s, i, providers, amount).net;
    const segScores = new Map(
      keys.map((k) => {
        if (v.legacy) {
          // Before: every failure (errors and the buyer's declines included) against the provider, no detector.
          let a = 0;
          let f = 0;
          for (const b of buckets.get(k)!) (a += b.approved * Math.pow(0.5, (i - b.start) / v.halfLife)), (f += (b.declined + b.errors) * Math.pow(0.5, (i - b.start) / v.halfLife));
          return [k, { approved: a, failed: f }];
        }
        const r = watchBuckets(buckets.get(k)!, i, cfg, memories.get(k)!);
        // Without probes, a fall is only a reset (the detector alone, as before).
        memories.set(k, v.probe ? r.memory : { ...r.memory, fallen: null });
        return [k, r.score];
      }),
    );
    const score = (p: string) => {
      const own = segScores.get(keyOf(p, band))!;
      if (bandNames.length === 1 || memories.get(keyOf(p, band))!.fallen) return own;
      const parent = { approved: 0, failed: 0 };
      for (const other of bandNames) if (other !== band) (parent.approved += segScores.get(keyOf(p, other))!.approved), (parent.failed += segScores.get(keyOf(p, other))!.failed);
      return pooledScore(own, parent, v.pool ?? POOL_PSEUDO);
    };
    // CPU time (µs) of the decision, as lp_routing_decision_cpu_seconds measures it in the servers:
    // wall time on a shared machine is mostly the OS preempting the process.
    const started = timings ? process.cpuUsage() : null;
    const plan = selectRoute(rules, 1, { paymentMethodId: "1003", amountUsdMinor: BigInt(amount), country: "MEX", currency: "USD", documentType: "rfc" }, providers, {
      rng,
      algorithm: v.algorithm,
      score,
      cost,
      fallen: (p) => {
        const k = keyOf(p, band);
        return !v.probe || !memories.get(k)!.fallen ? null : !late.some((x) => x.key === k) && probeDue(buckets.get(k)!, memories.get(k)!, i, v.probe) ? "due" : "fallen";
      },
    });
    if (timings && started) {
      const used = process.cpuUsage(started);
      timings.push(used.user + used.system);
    }
    for (const step of plan.steps) {
      const d = decide(s, step.provider, i);
      costCents += attemptCost(s.providers[step.provider]!, d.mode === "accept", amount);
      const e = v.legacy ? (d.mode === "accept" ? "approved" : d.mode === "error" ? "error" : "declined") : evidenceOf(d.mode === "accept" ? "approved" : d.mode === "error" ? "error" : "hard", d.reason ?? null);
      const k = keyOf(step.provider, band);
      if (e && lag > 0) late.push({ known: i + 1 + lag, key: k, evidence: e, at: i });
      else if (e) learn(k, e, i);
      if (d.mode === "accept") {
        approved++;
        seg.approved++;
        approvedCents += amount;
        break;
      }
      if (d.mode === "decline") break; // do_not_honor and the buyer's hard declines stop the cascade
    }
    // Buckets older than eight half-lives weigh nothing: dropped (keeps a run linear).
    for (const list of buckets.values()) while (list.length && i - list[0]!.start > 8 * v.halfLife) list.shift();
  }
  return { approved, oracle: best, costCents, netCents: approvedCents - costCents, netOracleCents, bands: Object.fromEntries(byBand) };
}

/** Fixed priority (the platform order: `providers`) over scenario `s`: approvals. */
export function replayFixed(s: Scenario, providers: string[] = PROVIDERS): number {
  let approved = 0;
  for (let i = 0; i < s.n; i++) {
    for (const p of providers) {
      const d = decide(s, p, i);
      if (d.mode === "accept") approved++;
      if (d.mode !== "error") break;
    }
  }
  return approved;
}
