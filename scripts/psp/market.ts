// A market of simulated providers, reproducible from a seed (issue 22's routing benchmark). A
// scenario gives, per provider, an approval probability that drifts over the run, a latency,
// an outage window and a cost, plus the share of buyers every provider declines (hard: their
// bank says no, wherever the charge goes). Payment `i` of a run of `n` is at time t = i / n; its
// buyer e-mail carries `i` (`m<i>@bench.example`), so the simulator (scripts/psp/simulator.ts,
// POST /_control/market) and the benchmark (scripts/bench-routing.ts, for the oracle) compute
// the same outcome for (provider, i) from a hash of the seed, whatever order the calls come in.
// The real providers' simulators (./mercadopago/, ./ebanx/) take the same POST /_control/market
// and answer in their own wire format (./market-real-providers.ts).
import { createHash } from "node:crypto";
import { railById } from "../../lib/rails/rails.ts";

export type Segment = { from: number; to: number; approval: number };
export type ProviderModel = {
  /** The approval probability of a buyer no bank refuses; `drift` overrides it on [from, to). */
  approval: number;
  drift?: Segment[];
  latencyMs: number;
  /** Down (answers 503) on [from, to) of the run. */
  outage?: { from: number; to: number };
  /** What one attempt costs: basis points of the amount plus a fixed fee in USD cents. */
  costBp: number;
  fixedCents: number;
  /** A change in one amount band only (issue 45's segments): overrides the approval on [from, to) for payments of that band. */
  segments?: Array<Segment & { band: string }>;
};
/** An amount band of the payments (lib/routing/stats.ts amountBand's names): its share of them and the amount they carry. */
export type Band = { band: string; share: number; amountCents: number };
/** `bands`: the payments' amounts by band (none: every payment USD 25, band lt50). */
export type Scenario = { name: string; description: string; seed: number; n: number; hardDeclineShare: number; providers: Record<string, ProviderModel>; bands?: Band[] };
const ONE_BAND: Band = { band: "lt50", share: 1, amountCents: 2500 };

/** Payment i's band (a draw of its own, so scenarios without bands replay their draws unchanged). */
export function bandOf(s: Scenario, i: number): Band {
  if (!s.bands?.length) return ONE_BAND;
  let x = draw(s.seed, "band", i);
  for (const b of s.bands) if ((x -= b.share) < 0) return b;
  return s.bands.at(-1)!;
}
export const amountOf = (s: Scenario, i: number) => bandOf(s, i).amountCents;
export type MarketDecision = { mode: "accept" | "decline" | "error"; reason?: "insufficient_funds" | "do_not_honor" | "suspected_fraud" | "invalid_document"; delayMs?: number };

const HARD_REASONS = ["insufficient_funds", "do_not_honor", "suspected_fraud", "invalid_document"] as const;

/** A uniform draw in [0, 1) from (seed, parts): the same inputs give the same draw everywhere. */
export function draw(seed: number, ...parts: Array<string | number>): number {
  const h = createHash("sha256").update(`${seed}|${parts.join("|")}`).digest();
  return h.readUInt32BE(0) / 4294967296;
}

export function approvalAt(m: ProviderModel, t: number, band?: string): number {
  if (m.outage && t >= m.outage.from && t < m.outage.to) return 0;
  const own = band === undefined ? undefined : m.segments?.find((x) => x.band === band && t >= x.from && t < x.to);
  if (own) return own.approval;
  const seg = m.drift?.find((s) => t >= s.from && t < s.to);
  return seg ? seg.approval : m.approval;
}

export const paymentIndexOf = (email: string | undefined): number | null => {
  const m = /^m(\d+)@bench\.example$/.exec(email ?? "");
  return m ? Number(m[1]) : null;
};
export const benchEmail = (i: number) => `m${i}@bench.example`;

/** The buyer's bank refuses payment i everywhere (with which reason), or null. */
export function hardDecline(s: Scenario, i: number): MarketDecision["reason"] | null {
  if (draw(s.seed, "buyer", i) >= s.hardDeclineShare) return null;
  return HARD_REASONS[Math.floor(draw(s.seed, "buyer-reason", i) * HARD_REASONS.length)]!;
}

/** What `provider` answers payment i. A refusal of a buyer no bank refuses is the issuer's generic do_not_honor, as acquirers answer. */
export function decide(s: Scenario, provider: string, i: number): MarketDecision {
  const m = s.providers[provider];
  if (!m) return { mode: "accept" };
  const t = i / s.n;
  const delayMs = m.latencyMs;
  if (m.outage && t >= m.outage.from && t < m.outage.to) return { mode: "error", delayMs };
  const hard = hardDecline(s, i);
  if (hard) return { mode: "decline", reason: hard, delayMs };
  return draw(s.seed, provider, i) < approvalAt(m, t, bandOf(s, i).band) ? { mode: "accept", delayMs } : { mode: "decline", reason: "do_not_honor", delayMs };
}

/** The oracle: payment i sent only to the provider with the highest true approval at its time. */
export function oracle(s: Scenario, i: number, eligible: string[]): { provider: string; approved: boolean } {
  const t = i / s.n;
  const band = bandOf(s, i).band;
  const best = [...eligible].sort((a, b) => approvalAt(s.providers[b]!, t, band) - approvalAt(s.providers[a]!, t, band))[0]!;
  return { provider: best, approved: decide(s, best, i).mode === "accept" };
}

/** What one attempt costs in USD cents (the fixed fee always, the basis points when approved): the bench's provider cost. */
export function attemptCost(m: ProviderModel, approved: boolean, amountCents: number): number {
  return m.fixedCents + (approved ? (amountCents * m.costBp) / 10_000 : 0);
}

/** A provider's expected net revenue on a payment of `amountCents` at time t: P × (amount − its fee) − the fee of a failure. */
export const expectedNet = (m: ProviderModel, t: number, amountCents: number, band?: string) => approvalAt(m, t, band) * (amountCents - (amountCents * m.costBp) / 10_000) - m.fixedCents;

/**
 * The net-revenue oracle (issue 45): payment i sent only to the provider with the highest true
 * expected net revenue at its moment; what it nets (the amount less the fee when approved, less
 * the fixed fee when not).
 */
export function netOracle(s: Scenario, i: number, eligible: string[], amountCents = amountOf(s, i)): { provider: string; approved: boolean; net: number } {
  const t = i / s.n;
  const band = bandOf(s, i).band;
  const best = [...eligible].sort((a, b) => expectedNet(s.providers[b]!, t, amountCents, band) - expectedNet(s.providers[a]!, t, amountCents, band))[0]!;
  const approved = decide(s, best, i).mode === "accept";
  return { provider: best, approved, net: (approved ? amountCents : 0) - attemptCost(s.providers[best]!, approved, amountCents) };
}

const base = (approval: number, latencyMs: number, costBp: number, fixedCents: number): ProviderModel => ({ approval, latencyMs, costBp, fixedCents });

/** SPEI's providers in the platform order (lib/rails/rails.ts: the real providers first). */
export const SPEI_PROVIDERS = railById("1003")!.providers;
/** The three simulated providers the scenarios had alone until the real connectors came (the published three-provider figures). */
export const COMMON_PROVIDERS = ["pagosur", "andespay", "rapidpay"];

/**
 * The shipped scenarios, over SPEI's five providers. pagosur, andespay and rapidpay keep the models
 * they had alone (their draws are keyed by provider, so the three-provider runs replay as before);
 * mercadopago and ebanx (the real connectors' simulators) join so that the scenario still means
 * what it said: the first provider of the platform order (now mercadopago) is the one that falls or
 * goes down, and neither newcomer is ever the best at any moment, so the oracle's approvals are the
 * three-provider oracle's and what the newcomers change is the baseline and the choice to make.
 */
export function scenarios(n: number, seed = 22): Scenario[] {
  // Fees (issue 45): the same in every scenario, so one cost table (PROVIDER_<CODE>_COSTS) serves
  // the online run; andespay is the dear one (95 bp, 0.40 % above rapidpay's 55; it was 75 bp
  // before net-revenue routing, which changed no approval, only the bench's provider cost).
  const mercadopago = base(0.88, 3, 70, 8);
  const ebanx = base(0.82, 4, 65, 15);
  return [
    {
      name: "steady",
      description: "approvals steady all run: mercadopago 0.84, ebanx 0.80, pagosur 0.82, andespay 0.90, rapidpay 0.86",
      seed,
      n,
      hardDeclineShare: 0.08,
      providers: { mercadopago: { ...mercadopago, approval: 0.84 }, ebanx: { ...ebanx, approval: 0.8 }, pagosur: base(0.82, 2, 60, 10), andespay: base(0.9, 3, 95, 10), rapidpay: base(0.86, 2, 55, 12) },
    },
    {
      name: "degrading",
      description: "mercadopago (first in the platform order) and pagosur fall to 0.20 approval for the middle third",
      seed,
      n,
      hardDeclineShare: 0.08,
      providers: { mercadopago: { ...mercadopago, drift: [{ from: 1 / 3, to: 2 / 3, approval: 0.2 }] }, ebanx, pagosur: { ...base(0.9, 2, 60, 10), drift: [{ from: 1 / 3, to: 2 / 3, approval: 0.2 }] }, andespay: base(0.86, 3, 95, 10), rapidpay: base(0.84, 2, 55, 12) },
    },
    {
      name: "outage",
      description: "mercadopago (first in the platform order) and pagosur are down (503) for a tenth of the run, from 0.45 to 0.55",
      seed,
      n,
      hardDeclineShare: 0.08,
      providers: { mercadopago: { ...mercadopago, outage: { from: 0.45, to: 0.55 } }, ebanx, pagosur: { ...base(0.9, 2, 60, 10), outage: { from: 0.45, to: 0.55 } }, andespay: base(0.86, 3, 95, 10), rapidpay: base(0.84, 2, 55, 12) },
    },
    {
      name: "tied",
      description: "andespay and rapidpay approve alike (0.88) but andespay costs 0.40 % more (95 bp against 55, the fees of every scenario): approval cannot choose, net revenue takes rapidpay",
      seed,
      n,
      hardDeclineShare: 0.08,
      providers: { mercadopago: { ...mercadopago, approval: 0.8 }, ebanx: { ...ebanx, approval: 0.78 }, pagosur: base(0.82, 2, 60, 10), andespay: base(0.88, 3, 95, 10), rapidpay: base(0.88, 2, 55, 12) },
    },
    {
      name: "segment",
      description: "payments in three amount bands (USD 25: 70 %, 200: 25 %, 900: 5 %), the steady market's approvals; andespay (the best) falls to 0.40 in the USD 900 band alone from a third of the run on",
      seed,
      n,
      hardDeclineShare: 0.08,
      bands: [
        { band: "lt50", share: 0.7, amountCents: 2500 },
        { band: "lt500", share: 0.25, amountCents: 20_000 },
        { band: "ge500", share: 0.05, amountCents: 90_000 },
      ],
      providers: { mercadopago: { ...mercadopago, approval: 0.84 }, ebanx: { ...ebanx, approval: 0.8 }, pagosur: base(0.82, 2, 60, 10), andespay: { ...base(0.9, 3, 95, 10), segments: [{ band: "ge500", from: 1 / 3, to: 1, approval: 0.4 }] }, rapidpay: base(0.86, 2, 55, 12) },
    },
  ];
}

/** The scenario with only `providers` of its market (the three-provider runs: COMMON_PROVIDERS). */
export const restrictedTo = (s: Scenario, providers: string[]): Scenario => ({ ...s, providers: Object.fromEntries(providers.map((p) => [p, s.providers[p]!])) });
