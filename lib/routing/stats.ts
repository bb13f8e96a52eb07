// What routing learns from outcomes, shared by every instance: each provider attempt is one row
// of routing_outcomes (PostgreSQL; also the source of the dashboard's routing analytics). Each
// process reads a snapshot of the window (approvals and failures per provider, rail and amount
// band, discounted by age; the circuit's inputs per provider and rail) at most every
// ROUTING_REFRESH_MS, in the background, so choosing a route costs no round trip.
//
// The circuit is derived from the same rows, so it needs no state of its own: a provider whose
// errors (timeouts, 5xx, unreadable answers) reach ERROR_RATE of at least MIN_VOLUME attempts
// in the window, its last attempt an error, is `open` (skipped) for COOL_DOWN after that error,
// then `half_open`: one probe per process per cool-down goes through. An answer (approved or
// declined) newer than its last error closes it; another error opens it again.
import { db } from "@/lib/db";
import { config } from "@/lib/config";
import { log } from "@/lib/log";
import { singleton } from "@/lib/singleton";
import type { CircuitState, Score } from "@/lib/routing/select";

export type OutcomeKind = "approved" | "declined" | "hard" | "error";
export type RoutingOutcomeInput = { provider: string; rail: string; band: string; outcome: OutcomeKind; declineCode: string | null; latencyMs: number; rescued?: boolean; at?: Date };

/** The window's settings, from config() (read when first used). */
export const ROUTING = {
  get windowMs() {
    return config().ROUTING_WINDOW_MS;
  },
  get halfLifeMs() {
    return config().ROUTING_HALF_LIFE_MS;
  },
  get refreshMs() {
    return config().ROUTING_REFRESH_MS;
  },
  get circuit() {
    const c = config();
    return { windowMs: c.ROUTING_CIRCUIT_WINDOW_MS, errorRate: c.ROUTING_CIRCUIT_ERROR_RATE, minVolume: c.ROUTING_CIRCUIT_MIN_VOLUME, coolDownMs: c.ROUTING_CIRCUIT_COOLDOWN_MS };
  },
};

/** Amount bands (USD) so a provider good at small tickets is not assumed good at large ones. */
export function amountBand(usdMinor: bigint): string {
  if (usdMinor < 5_000n) return "lt50";
  if (usdMinor < 50_000n) return "lt500";
  return "ge500";
}

export type CircuitInputs = { total: number; errors: number; lastErrorAt: number | null; lastAnswerAt: number | null };
export type CircuitConfig = { windowMs: number; errorRate: number; minVolume: number; coolDownMs: number };

/** The circuit's state from the window's facts (pure; `probeAllowed` is the half-open gate). */
export function circuitState(i: CircuitInputs, now: number, cfg: CircuitConfig): CircuitState {
  if (i.lastErrorAt === null) return "closed";
  if (i.lastAnswerAt !== null && i.lastAnswerAt >= i.lastErrorAt) return "closed";
  if (i.total < cfg.minVolume || i.errors / i.total < cfg.errorRate) return "closed";
  return now - i.lastErrorAt < cfg.coolDownMs ? "open" : "half_open";
}

type Snapshot = { at: number; scores: Map<string, Score>; circuits: Map<string, CircuitInputs> };
const state = singleton("routing-stats", () => ({ snapshot: null as Snapshot | null, loading: null as Promise<Snapshot> | null, probes: new Map<string, number>(), pending: [] as RoutingOutcomeInput[], flushing: false }));

const scoreKey = (provider: string, rail: string, band: string) => `${provider}|${rail}|${band}`;
const circuitKey = (provider: string, rail: string) => `${provider}|${rail}`;

async function load(now = Date.now()): Promise<Snapshot> {
  const since = new Date(now - Math.max(ROUTING.windowMs, ROUTING.circuit.windowMs));
  const halfLife = ROUTING.halfLifeMs / 1000;
  const [scores, circuits] = await Promise.all([
    db().$queryRaw<Array<{ provider: string; rail: string; band: string; approved: number; failed: number }>>`
      SELECT provider, rail, band,
        COALESCE(SUM(power(0.5, EXTRACT(EPOCH FROM (now() - at)) / ${halfLife}::float8)) FILTER (WHERE outcome = 'approved'), 0)::float8 AS approved,
        COALESCE(SUM(power(0.5, EXTRACT(EPOCH FROM (now() - at)) / ${halfLife}::float8)) FILTER (WHERE outcome <> 'approved'), 0)::float8 AS failed
      FROM routing_outcomes WHERE at > ${new Date(now - ROUTING.windowMs)} GROUP BY provider, rail, band`,
    db().$queryRaw<Array<{ provider: string; rail: string; total: number; errors: number; last_error: Date | null; last_answer: Date | null }>>`
      SELECT provider, rail,
        COUNT(*) FILTER (WHERE at > ${new Date(now - ROUTING.circuit.windowMs)})::int AS total,
        COUNT(*) FILTER (WHERE outcome = 'error' AND at > ${new Date(now - ROUTING.circuit.windowMs)})::int AS errors,
        MAX(at) FILTER (WHERE outcome = 'error') AS last_error,
        MAX(at) FILTER (WHERE outcome <> 'error') AS last_answer
      FROM routing_outcomes WHERE at > ${since} GROUP BY provider, rail`,
  ]);
  const snap: Snapshot = { at: now, scores: new Map(), circuits: new Map() };
  for (const s of scores) snap.scores.set(scoreKey(s.provider, s.rail, s.band), { approved: Number(s.approved), failed: Number(s.failed) });
  for (const c of circuits) snap.circuits.set(circuitKey(c.provider, c.rail), { total: c.total, errors: c.errors, lastErrorAt: c.last_error?.getTime() ?? null, lastAnswerAt: c.last_answer?.getTime() ?? null });
  return snap;
}

/** Reloads the snapshot now (tests, and the first payment of a process). */
export async function refreshRoutingStats(): Promise<void> {
  await flushOutcomes();
  state.snapshot = await load();
}

/** The current snapshot; a stale one triggers a background reload and is used meanwhile (the first of a process is awaited). */
export async function routingSnapshot(): Promise<ReturnType<typeof snapshotView>> {
  if (!state.snapshot) await (state.loading ?? refreshRoutingStats().catch((err) => log.warn({ err: String(err) }, "routing stats load failed")));
  return snapshotView();
}

function snapshotView(): { score: (provider: string, rail: string, band: string) => Score; circuit: (provider: string, rail: string) => CircuitState } {
  const now = Date.now();
  const snap = state.snapshot;
  if ((!snap || now - snap.at > ROUTING.refreshMs) && !state.loading) {
    state.loading = load(now)
      .then((s) => (state.snapshot = s))
      .catch((err) => (log.warn({ err: String(err) }, "routing stats refresh failed"), state.snapshot ?? { at: now, scores: new Map(), circuits: new Map() }))
      .finally(() => (state.loading = null));
  }
  return {
    score: (p, rail, band) => snap?.scores.get(scoreKey(p, rail, band)) ?? { approved: 0, failed: 0 },
    circuit: (p, rail) => {
      const inputs = snap?.circuits.get(circuitKey(p, rail));
      const s = inputs ? circuitState(inputs, now, ROUTING.circuit) : "closed";
      if (s !== "half_open") return s;
      // One probe per process per cool-down; the others keep skipping it until the probe answers.
      const key = circuitKey(p, rail);
      const last = state.probes.get(key) ?? 0;
      if (now - last < ROUTING.circuit.coolDownMs) return "open";
      state.probes.set(key, now);
      return "half_open";
    },
  };
}

/** The circuit's state as every instance would compute it now (the analytics page). */
export async function circuitStates(now = Date.now()): Promise<Array<{ provider: string; rail: string; state: CircuitState } & CircuitInputs>> {
  const snap = await load(now);
  return [...snap.circuits.entries()].map(([k, i]) => {
    const [provider, rail] = k.split("|") as [string, string];
    return { provider, rail, state: circuitState(i, now, ROUTING.circuit), ...i };
  });
}

/**
 * Records an attempt's outcome. Writes are batched and leave the payment's path at once; an
 * outcome also updates this process's snapshot right away, so a failing provider is felt here
 * before the next refresh.
 */
export function recordOutcome(o: RoutingOutcomeInput): void {
  const at = o.at ?? new Date();
  state.pending.push({ ...o, at });
  const snap = state.snapshot;
  if (snap) {
    const k = scoreKey(o.provider, o.rail, o.band);
    const s = snap.scores.get(k) ?? { approved: 0, failed: 0 };
    if (o.outcome === "approved") s.approved++;
    else s.failed++;
    snap.scores.set(k, s);
    const ck = circuitKey(o.provider, o.rail);
    const c = snap.circuits.get(ck) ?? { total: 0, errors: 0, lastErrorAt: null, lastAnswerAt: null };
    c.total++;
    if (o.outcome === "error") (c.errors++, (c.lastErrorAt = at.getTime()));
    else c.lastAnswerAt = at.getTime();
    snap.circuits.set(ck, c);
  }
  if (!state.flushing) queueMicrotask(() => void flushOutcomes());
}

export async function flushOutcomes(): Promise<void> {
  if (state.flushing || !state.pending.length) return;
  state.flushing = true;
  try {
    while (state.pending.length) {
      const batch = state.pending.splice(0, 500);
      await db()
        .routingOutcome.createMany({ data: batch.map((o) => ({ provider: o.provider, rail: o.rail, band: o.band, outcome: o.outcome, declineCode: o.declineCode, latencyMs: o.latencyMs, rescued: o.rescued ?? false, at: o.at! })) })
        .catch((err) => log.warn({ err: String(err), lost: batch.length }, "routing outcomes not recorded"));
    }
  } finally {
    state.flushing = false;
  }
}
