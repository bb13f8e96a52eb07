// The success-rate policy replayed against the market model in process (no HTTP): the same
// selectRoute and the same window (lib/routing/window.ts: evidence, discount, change detector)
// with time counted in payments — one bucket per payment, half-lives in payments. Many seeds in
// seconds: how the algorithm and its settings were chosen (npm run bench:routing -- --offline),
// and what lib/routing/market.test.ts pins.
import { SPEI_PROVIDERS, attemptCost, decide, netOracle, oracle, type Scenario } from "./market.ts";
import type { Objective } from "../../lib/routing/schema.ts";
import { compileRoutingRules, selectRoute, seededRng, type Algorithm } from "../../lib/routing/select.ts";
import { FRESH, evidenceOf, probeDue, watchBuckets, type Bucket, type Memory, type ProbeConfig } from "../../lib/routing/window.ts";

/** SPEI's five providers in the platform order; the three-provider runs pass COMMON_PROVIDERS (./market.ts). */
export const PROVIDERS = SPEI_PROVIDERS;
/** `probe`: a fallen provider's probe schedule, in payments (none: no probes, no restore of its history; the earlier algorithm). */
export type ReplayVariant = { name: string; algorithm: Algorithm; halfLife: number; threshold: number; exploration: number; legacy?: boolean; probe?: ProbeConfig; objective?: Objective };
/** The bench's payment: USD 25 (in cents), as the online run sends. */
export const AMOUNT_CENTS = 2500;
/** A run's money (USD cents): what every attempt cost, what the approved payments netted after it, and the net-revenue oracle's. */
export type ReplayResult = { approved: number; oracle: number; costCents: number; netCents: number; netOracleCents: number };
/** The shipped settings, in payments (lib/platform/config.ts turns them into time). */
export const CHOSEN: ReplayVariant = { name: "IDS + change detector + probes of a fallen provider, no random exploration (shipped)", algorithm: "ids", halfLife: 300, threshold: 5, exploration: 0, probe: { intervalMs: 30, maxIntervalMs: 120 } };

/**
 * One run of the success-rate policy over scenario `s`: approvals, and the oracle's. `lag`: each
 * answer is known that many payments after its own (payments in flight while a provider answers,
 * as through the API; a fallen provider's next probe waits for the first one's answer, as the
 * servers do). `providers`: the routable ones, in the platform order.
 */
export function replay(s: Scenario, v: ReplayVariant, rngSeed: number, lag = 0, providers: string[] = PROVIDERS, timings?: number[]): ReplayResult {
  const rules = compileRoutingRules([{ paymentMethodId: "1003", strategy: "success_rate", exploration: v.exploration, fallback: true, ...(v.objective ? { objective: v.objective } : {}), providers: providers.map((provider) => ({ provider })) }]);
  // The market's fee table as the production one reads (lib/providers/costs.ts): the fixed fee on every attempt.
  const cost = (p: string) => ({ bp: s.providers[p]!.costBp, fixedUsdMinor: s.providers[p]!.fixedCents, failedUsdMinor: s.providers[p]!.fixedCents });
  let costCents = 0;
  let netOracleCents = 0;
  const buckets = new Map(providers.map((p) => [p, [] as Bucket[]]));
  const memories = new Map<string, Memory>(providers.map((p) => [p, FRESH]));
  const cfg = { halfLifeMs: v.halfLife, changeThreshold: v.threshold };
  const rng = seededRng(rngSeed);
  let approved = 0;
  let best = 0;
  const late: Array<{ known: number; provider: string; evidence: "approved" | "declined" | "error"; at: number }> = [];
  const learn = (provider: string, e: "approved" | "declined" | "error", at: number) => {
    const list = buckets.get(provider)!;
    let b = list.at(-1);
    if (!b || b.start !== at) list.push((b = { start: at, approved: 0, declined: 0, errors: 0 }));
    if (e === "approved") b.approved++;
    else if (e === "declined") b.declined++;
    else b.errors++;
  };
  for (let i = 0; i < s.n; i++) {
    while (late.length && late[0]!.known <= i) {
      const x = late.shift()!;
      learn(x.provider, x.evidence, x.at);
    }
    if (oracle(s, i, providers).approved) best++;
    netOracleCents += netOracle(s, i, providers, AMOUNT_CENTS).net;
    const scores = new Map(
      providers.map((p) => {
        if (v.legacy) {
          // Before: every failure (errors and the buyer's declines included) against the provider, no detector.
          let a = 0;
          let f = 0;
          for (const b of buckets.get(p)!) (a += b.approved * Math.pow(0.5, (i - b.start) / v.halfLife)), (f += (b.declined + b.errors) * Math.pow(0.5, (i - b.start) / v.halfLife));
          return [p, { approved: a, failed: f }];
        }
        const r = watchBuckets(buckets.get(p)!, i, cfg, memories.get(p)!);
        // Without probes, a fall is only a reset (the detector alone, as before).
        memories.set(p, v.probe ? r.memory : { ...r.memory, fallen: null });
        return [p, r.score];
      }),
    );
    const started = timings ? performance.now() : 0;
    const plan = selectRoute(rules, 1, { paymentMethodId: "1003", amountUsdMinor: BigInt(AMOUNT_CENTS), country: "MEX", currency: "USD", documentType: "rfc" }, providers, {
      rng,
      algorithm: v.algorithm,
      score: (p) => scores.get(p)!,
      cost,
      fallen: (p) => (!v.probe || !memories.get(p)!.fallen ? null : !late.some((x) => x.provider === p) && probeDue(buckets.get(p)!, memories.get(p)!, i, v.probe) ? "due" : "fallen"),
    });
    if (timings) timings.push(performance.now() - started);
    for (const step of plan.steps) {
      const d = decide(s, step.provider, i);
      costCents += attemptCost(s.providers[step.provider]!, d.mode === "accept", AMOUNT_CENTS);
      const e = v.legacy ? (d.mode === "accept" ? "approved" : d.mode === "error" ? "error" : "declined") : evidenceOf(d.mode === "accept" ? "approved" : d.mode === "error" ? "error" : "hard", d.reason ?? null);
      if (e && lag > 0) late.push({ known: i + 1 + lag, provider: step.provider, evidence: e, at: i });
      else if (e) learn(step.provider, e, i);
      if (d.mode === "accept") {
        approved++;
        break;
      }
      if (d.mode === "decline") break; // do_not_honor and the buyer's hard declines stop the cascade
    }
    // Buckets older than eight half-lives weigh nothing: dropped (keeps a run linear).
    for (const list of buckets.values()) while (list.length && i - list[0]!.start > 8 * v.halfLife) list.shift();
  }
  return { approved, oracle: best, costCents, netCents: approved * AMOUNT_CENTS - costCents, netOracleCents };
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
