// What routing learns from outcomes, shared by every instance: each provider attempt goes to the
// routing store (lib/routing/store.ts: Redis when REDIS_URL is set, else PostgreSQL; the rows of
// routing_outcomes either way). Each process reads a snapshot of the window (time buckets per
// provider, rail and amount band, scored by lib/routing/window.ts; the circuit's inputs per
// provider and rail) at most every ROUTING_REFRESH_MS, in the background, so choosing a route
// costs no round trip.
//
// The circuit is derived from the same rows, so it needs no state of its own: a provider whose
// errors (timeouts, 5xx, unreadable answers) reach ERROR_RATE of at least MIN_VOLUME attempts
// in the window, its last attempt an error, is `open` (skipped) for COOL_DOWN after that error,
// then `half_open`: one probe per process per cool-down goes through. An answer (approved or
// declined) newer than its last error closes it; another error opens it again.
import Redis from "ioredis";
import { config } from "@/lib/platform/config";
import { log } from "@/lib/platform/log";
import { singleton } from "@/lib/platform/singleton";
import { CLOSE_ORDER, onShutdown } from "@/lib/platform/lifecycle";
import type { CircuitState, Fallen, Score } from "@/lib/routing/select";
import { PgRoutingStore, RedisRoutingStore, circuitKey, scoreKey, type RoutingStore } from "@/lib/routing/store";
import { FRESH, POOL_PSEUDO, evidenceOf, pooledScore, probeDue, watchBuckets, type Bucket, type Memory } from "@/lib/routing/window";

import type { RoutingOutcomeInput } from "@/lib/routing/outcome";
export type { OutcomeKind, RoutingOutcomeInput } from "@/lib/routing/outcome";

/** The window's settings, from config() (read when first used). */
export const ROUTING = {
  get windowMs() {
    return config().ROUTING_WINDOW_MS;
  },
  get bucketMs() {
    return config().ROUTING_BUCKET_MS;
  },
  get scoring() {
    const c = config();
    return { halfLifeMs: c.ROUTING_HALF_LIFE_MS, changeThreshold: c.ROUTING_CHANGE_THRESHOLD };
  },
  get probes() {
    const c = config();
    return { intervalMs: c.ROUTING_PROBE_INTERVAL_MS, maxIntervalMs: c.ROUTING_PROBE_MAX_INTERVAL_MS };
  },
  get refreshMs() {
    return config().ROUTING_REFRESH_MS;
  },
  get circuit() {
    const c = config();
    return { windowMs: c.ROUTING_CIRCUIT_WINDOW_MS, errorRate: c.ROUTING_CIRCUIT_ERROR_RATE, minVolume: c.ROUTING_CIRCUIT_MIN_VOLUME, coolDownMs: c.ROUTING_CIRCUIT_COOLDOWN_MS };
  },
};

/** The amount bands, in order (the segments a provider's evidence is kept in, pooled: window.ts pooledScore). */
export const AMOUNT_BANDS = ["lt50", "lt500", "ge500"] as const;

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

type Snapshot = { at: number; buckets: Map<string, Bucket[]>; scores: Map<string, Score>; circuits: Map<string, CircuitInputs> };
const state = singleton("routing-stats", () => ({ snapshot: null as Snapshot | null, loading: null as Promise<Snapshot> | null, probes: new Map<string, number>(), fallenProbes: new Map<string, number>(), memories: new Map<string, Memory>(), pending: [] as Array<RoutingOutcomeInput & { at: Date }>, flushing: null as Promise<void> | null, reading: false, hooked: false }));

/** The shared store: Redis when configured (every instance then reads the same counters), PostgreSQL otherwise. */
export function routingStore(): RoutingStore {
  return singleton("routing-store", () => {
    const spec = () => ({ windowMs: Math.max(ROUTING.windowMs, ROUTING.circuit.windowMs), bucketMs: ROUTING.bucketMs });
    const url = config().REDIS_URL;
    if (!url) return new PgRoutingStore(spec);
    // A routing read must not hang on Redis: commands time out, and a failed read keeps the last snapshot.
    const redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: true, connectTimeout: 2_000, commandTimeout: 1_000 });
    redis.on("error", () => {}); // surfaced by the refresh's warning
    onShutdown("redis routing", CLOSE_ORDER.clients, () => redis.quit());
    return new RedisRoutingStore(redis, spec, config().ROUTING_REDIS_PREFIX);
  });
}

/** Scores every bucket list of the window at `now` (what the change detector remembers kept across snapshots). */
function score(buckets: Map<string, Bucket[]>, now: number): Map<string, Score> {
  const scores = new Map<string, Score>();
  for (const [k, list] of buckets) scores.set(k, rescore(k, list, now));
  return scores;
}

function rescore(k: string, list: Bucket[], now: number): Score {
  const r = watchBuckets(list, now, ROUTING.scoring, state.memories.get(k) ?? FRESH);
  state.memories.set(k, r.memory);
  return r.score;
}

/**
 * Reads the shared window into a new snapshot. This process's own outcomes must all be in it:
 * one written to the store while the read ran may or may not be in what it returned, and one
 * not yet written is not, so a refresh used to hide an instance's newest outcomes from its own
 * decisions until the next one (through the API, a provider's fall felt a few payments late).
 * So the read runs alone: what is waiting is written first, writes wait while it runs, and what
 * was recorded meanwhile is added to the new snapshot, then written.
 */
async function load(now = Date.now()): Promise<Snapshot> {
  while (state.flushing) await state.flushing;
  state.reading = true;
  try {
    await writePending();
    const snap = await read(now);
    for (const o of state.pending) apply(snap, o);
    return snap;
  } finally {
    state.reading = false;
    if (state.pending.length) void flushOutcomes();
  }
}

async function read(now: number): Promise<Snapshot> {
  const data = await routingStore().read(now);
  const circuitSince = now - ROUTING.circuit.windowMs;
  const circuits = new Map<string, CircuitInputs>();
  for (const [k, list] of data.buckets) {
    const ck = k.split("|").slice(0, 2).join("|");
    const c = circuits.get(ck) ?? { total: 0, errors: 0, lastErrorAt: null, lastAnswerAt: null };
    for (const b of list) if (b.start >= circuitSince - ROUTING.bucketMs) (c.total += b.approved + b.declined + b.errors), (c.errors += b.errors);
    circuits.set(ck, c);
  }
  for (const [ck, l] of data.last) circuits.set(ck, { ...(circuits.get(ck) ?? { total: 0, errors: 0 }), ...l });
  return { at: now, buckets: data.buckets, scores: score(data.buckets, now), circuits };
}

/** One load at a time (its read runs alone): a caller while one runs shares it, and it holds every outcome recorded before it ends. */
function reload(now = Date.now()): Promise<Snapshot> {
  state.loading ??= load(now)
    .then((s) => (state.snapshot = s))
    .finally(() => (state.loading = null));
  return state.loading;
}

/** Reloads the snapshot now (tests, and the first payment of a process). */
export async function refreshRoutingStats(): Promise<void> {
  await reload();
}

/** The current snapshot; a stale one triggers a background reload and is used meanwhile (the first of a process is awaited). */
export async function routingSnapshot(): Promise<ReturnType<typeof snapshotView>> {
  if (!state.snapshot) await reload().catch((err) => log.warn({ err: String(err) }, "routing stats load failed"));
  return snapshotView();
}

function snapshotView(): { score: (provider: string, rail: string, band: string) => Score; circuit: (provider: string, rail: string) => CircuitState; fallen: (provider: string, rail: string, band: string) => Fallen } {
  const now = Date.now();
  const snap = state.snapshot;
  if ((!snap || now - snap.at > ROUTING.refreshMs) && !state.loading) reload(now).catch((err) => log.warn({ err: String(err) }, "routing stats refresh failed"));
  return {
    score: (p, rail, band) => {
      const own = snap?.scores.get(scoreKey(p, rail, band)) ?? { approved: 0, failed: 0 };
      // A segment seen to fall is itself, not its parent: no prior (pooling kept a fallen
      // band looking like the provider's good ones, measured −10 points of its oracle).
      if (state.memories.get(scoreKey(p, rail, band))?.fallen) return own;
      // The parent: the same provider and rail in the other bands.
      const parent = { approved: 0, failed: 0 };
      for (const other of AMOUNT_BANDS) {
        if (other === band) continue;
        const s = snap?.scores.get(scoreKey(p, rail, other));
        if (s) (parent.approved += s.approved), (parent.failed += s.failed);
      }
      return pooledScore(own, parent, POOL_PSEUDO);
    },
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
    fallen: (p, rail, band) => {
      const k = scoreKey(p, rail, band);
      const memory = state.memories.get(k);
      if (!memory?.fallen) return null;
      if (!probeDue(snap?.buckets.get(k) ?? [], memory, now, ROUTING.probes)) return "fallen";
      // One probe per process in flight: the next waits for its answer (recordOutcome clears
      // the mark), or a probe interval if none comes. (A wait of a fixed two buckets let a slow
      // answer — a loaded machine, a provider taking its time — send the fallen provider a second
      // and third payment before the first probe's refusal was known.)
      const sent = state.fallenProbes.get(k);
      if (sent !== undefined && now - sent < ROUTING.probes.intervalMs) return "fallen";
      state.fallenProbes.set(k, now);
      return "due";
    },
  };
}

/** The circuit's state as every instance would compute it now (the analytics page). */
export async function circuitStates(now = Date.now()): Promise<Array<{ provider: string; rail: string; state: CircuitState } & CircuitInputs>> {
  // Through the one shared load: a second read alongside it would let writes run while the
  // first still reads (a read must run alone, see load()).
  const snap = await reload(now);
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
  const outcome = { ...o, at: o.at ?? new Date() };
  if (!state.hooked) {
    // Outcomes still waiting when the process stops are written before its clients close (they
    // are the analytics' rows and every other instance's evidence).
    state.hooked = true;
    onShutdown("routing outcomes", CLOSE_ORDER.buffers, async () => {
      await state.loading?.catch(() => {});
      await state.flushing;
      await writePending();
    });
  }
  state.pending.push(outcome);
  state.fallenProbes.delete(scoreKey(o.provider, o.rail, o.band));
  if (state.snapshot) apply(state.snapshot, outcome);
  if (!state.flushing && !state.reading) queueMicrotask(() => void flushOutcomes());
}

/** Adds one outcome to a snapshot: its bucket (re-scored, so the change detector sees it) and its circuit. */
function apply(snap: Snapshot, o: RoutingOutcomeInput & { at: Date }): void {
  const at = o.at;
  const k = scoreKey(o.provider, o.rail, o.band);
  const e = evidenceOf(o.outcome, o.declineCode);
  if (e) {
    // Into this process's copy of the window's newest bucket, then re-scored (so the change
    // detector sees it too); the next refresh replaces it with the shared window.
    const start = Math.floor(at.getTime() / ROUTING.bucketMs) * ROUTING.bucketMs;
    const list = snap.buckets.get(k) ?? [];
    let b = list.at(-1);
    if (!b || b.start !== start) list.push((b = { start, approved: 0, declined: 0, errors: 0 }));
    if (e === "approved") b.approved++;
    else if (e === "declined") b.declined++;
    else b.errors++;
    snap.buckets.set(k, list);
    snap.scores.set(k, rescore(k, list, at.getTime()));
  }
  const ck = circuitKey(o.provider, o.rail);
  const c = snap.circuits.get(ck) ?? { total: 0, errors: 0, lastErrorAt: null, lastAnswerAt: null };
  c.total++;
  if (o.outcome === "error") (c.errors++, (c.lastErrorAt = at.getTime()));
  else c.lastAnswerAt = at.getTime();
  snap.circuits.set(ck, c);
}

/** Writes the waiting outcomes to the store (in the background; a snapshot read waits for it, and it waits for a read). */
export async function flushOutcomes(): Promise<void> {
  if (state.flushing || state.reading || !state.pending.length) return state.flushing ?? undefined;
  state.flushing = writePending().finally(() => (state.flushing = null));
  return state.flushing;
}

async function writePending(): Promise<void> {
  while (state.pending.length) {
    const batch = state.pending.splice(0, 500);
    await routingStore()
      .record(batch)
      .catch((err) => log.warn({ err: String(err), lost: batch.length }, "routing outcomes not recorded"));
  }
}
