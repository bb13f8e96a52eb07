// Where the routing window lives, shared by every instance: Redis when REDIS_URL is configured,
// PostgreSQL otherwise (issue 22). Both answer the same question — the window's time buckets per
// provider, rail and amount band, and each provider's last error and last answer for the circuit
// — so the scoring (lib/routing/window.ts) and the circuit (stats.ts) are one code path.
// Outcome rows always go to PostgreSQL as well (routing_outcomes: durable, and what an operator
// queries); with Redis the servers read the hot window from Redis' counters instead of grouping
// rows on every refresh.
import type Redis from "ioredis";
import { db } from "@/lib/platform/db";
import { BUYER_DECLINES, evidenceOf, type Bucket } from "@/lib/routing/window";
import type { RoutingOutcomeInput } from "@/lib/routing/outcome";

export type LastSeen = { lastErrorAt: number | null; lastAnswerAt: number | null };
/** The window as read: buckets by `provider|rail|band` (oldest first), last error/answer by `provider|rail`. */
export type WindowData = { buckets: Map<string, Bucket[]>; last: Map<string, LastSeen> };
export type WindowSpec = { windowMs: number; bucketMs: number };

export interface RoutingStore {
  /** Stores outcomes (each with its `at`). */
  record(batch: Array<RoutingOutcomeInput & { at: Date }>): Promise<void>;
  /** The window ending at `now`. */
  read(now: number): Promise<WindowData>;
}

export const scoreKey = (provider: string, rail: string, band: string) => `${provider}|${rail}|${band}`;
export const circuitKey = (provider: string, rail: string) => `${provider}|${rail}`;

async function insertRows(batch: Array<RoutingOutcomeInput & { at: Date }>): Promise<void> {
  await db().routingOutcome.createMany({ data: batch.map((o) => ({ provider: o.provider, rail: o.rail, band: o.band, outcome: o.outcome, declineCode: o.declineCode, latencyMs: o.latencyMs, rescued: o.rescued ?? false, at: o.at })) });
}

/** PostgreSQL: the rows grouped into buckets by the database on each read. */
export class PgRoutingStore implements RoutingStore {
  constructor(private spec: () => WindowSpec) {}

  record(batch: Array<RoutingOutcomeInput & { at: Date }>): Promise<void> {
    return insertRows(batch);
  }

  async read(now: number): Promise<WindowData> {
    const { windowMs, bucketMs } = this.spec();
    const since = new Date(now - windowMs);
    const buyer = [...BUYER_DECLINES];
    const [rows, last] = await Promise.all([
      db().$queryRaw<Array<{ provider: string; rail: string; band: string; start: number; approved: number; declined: number; errors: number }>>`
        SELECT provider, rail, band, (floor(EXTRACT(EPOCH FROM at) * 1000 / ${bucketMs}::float8) * ${bucketMs}::float8)::float8 AS start,
          COUNT(*) FILTER (WHERE outcome = 'approved')::int AS approved,
          COUNT(*) FILTER (WHERE outcome IN ('declined', 'hard') AND COALESCE(decline_code, '') <> ALL(${buyer}::text[]))::int AS declined,
          COUNT(*) FILTER (WHERE outcome = 'error')::int AS errors
        FROM routing_outcomes WHERE at > ${since} GROUP BY 1, 2, 3, 4 ORDER BY 4`,
      db().$queryRaw<Array<{ provider: string; rail: string; last_error: Date | null; last_answer: Date | null }>>`
        SELECT provider, rail, MAX(at) FILTER (WHERE outcome = 'error') AS last_error, MAX(at) FILTER (WHERE outcome <> 'error') AS last_answer
        FROM routing_outcomes WHERE at > ${since} GROUP BY provider, rail`,
    ]);
    const data: WindowData = { buckets: new Map(), last: new Map() };
    for (const r of rows) {
      const k = scoreKey(r.provider, r.rail, r.band);
      const list = data.buckets.get(k) ?? [];
      list.push({ start: Number(r.start), approved: r.approved, declined: r.declined, errors: r.errors });
      data.buckets.set(k, list);
    }
    for (const l of last) data.last.set(circuitKey(l.provider, l.rail), { lastErrorAt: l.last_error?.getTime() ?? null, lastAnswerAt: l.last_answer?.getTime() ?? null });
    return data;
  }
}

// Keeps the later of two timestamps in a hash field (instances record out of order).
const MAX_SCRIPT = `
local v = redis.call('HGET', KEYS[1], ARGV[1])
if (not v) or tonumber(v) < tonumber(ARGV[2]) then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`;

/**
 * Redis: one hash per provider, rail and band whose fields are `<bucket start>:a|d|e` counters
 * (HINCRBY, atomic across instances), one hash per provider and rail with the last error and
 * last answer, and a set naming the keys. Fields older than the window are dropped on read.
 */
export class RedisRoutingStore implements RoutingStore {
  constructor(
    private redis: Redis,
    private spec: () => WindowSpec,
    private prefix = "routing:",
    /** Also append the rows to PostgreSQL (servers: yes; the store's own test: no database). */
    private rows = true,
  ) {}

  async record(batch: Array<RoutingOutcomeInput & { at: Date }>): Promise<void> {
    const { windowMs, bucketMs } = this.spec();
    const p = this.redis.pipeline();
    for (const o of batch) {
      const at = o.at.getTime();
      const e = evidenceOf(o.outcome, o.declineCode);
      const k = scoreKey(o.provider, o.rail, o.band);
      if (e) {
        const field = `${Math.floor(at / bucketMs) * bucketMs}:${e === "approved" ? "a" : e === "declined" ? "d" : "e"}`;
        p.hincrby(this.prefix + "w:" + k, field, 1).pexpire(this.prefix + "w:" + k, windowMs);
      }
      p.sadd(this.prefix + "keys", k).pexpire(this.prefix + "keys", windowMs);
      p.eval(MAX_SCRIPT, 1, this.prefix + "c:" + circuitKey(o.provider, o.rail), o.outcome === "error" ? "lastError" : "lastAnswer", String(at), String(windowMs));
    }
    // Both, independently: a Redis outage must not lose the rows, nor a database one the counters.
    const [counters, rows] = await Promise.allSettled([
      p.exec().then((results) => {
        const failed = (results ?? []).find(([err]) => err);
        if (failed) throw failed[0];
      }),
      this.rows ? insertRows(batch) : Promise.resolve(),
    ]);
    for (const r of [counters, rows]) if (r.status === "rejected") throw r.reason;
  }

  async read(now: number): Promise<WindowData> {
    const { windowMs } = this.spec();
    const keys = await this.redis.smembers(this.prefix + "keys");
    const circuits = [...new Set(keys.map((k) => k.split("|").slice(0, 2).join("|")))];
    const p = this.redis.pipeline();
    for (const k of keys) p.hgetall(this.prefix + "w:" + k);
    for (const c of circuits) p.hgetall(this.prefix + "c:" + c);
    const results = (await p.exec()) ?? [];
    const data: WindowData = { buckets: new Map(), last: new Map() };
    const prune = this.redis.pipeline();
    let pruning = 0;
    keys.forEach((k, i) => {
      const hash = (results[i]?.[1] ?? {}) as Record<string, string>;
      const byStart = new Map<number, Bucket>();
      const old: string[] = [];
      for (const [field, value] of Object.entries(hash)) {
        const [s, kind] = field.split(":") as [string, string];
        const start = Number(s);
        if (start < now - windowMs) {
          old.push(field);
          continue;
        }
        const b = byStart.get(start) ?? { start, approved: 0, declined: 0, errors: 0 };
        if (kind === "a") b.approved += Number(value);
        else if (kind === "d") b.declined += Number(value);
        else b.errors += Number(value);
        byStart.set(start, b);
      }
      if (old.length) (prune.hdel(this.prefix + "w:" + k, ...old), pruning++);
      if (byStart.size) data.buckets.set(k, [...byStart.values()].sort((a, b) => a.start - b.start));
    });
    circuits.forEach((c, j) => {
      const hash = (results[keys.length + j]?.[1] ?? {}) as Record<string, string>;
      if (!hash.lastError && !hash.lastAnswer) return;
      data.last.set(c, { lastErrorAt: hash.lastError ? Number(hash.lastError) : null, lastAnswerAt: hash.lastAnswer ? Number(hash.lastAnswer) : null });
    });
    if (pruning) await prune.exec();
    return data;
  }
}
