// The database of the process: one pg pool, shared by the Prisma client (through the pg driver
// adapter; Prisma 7 has no built-in driver) and by `sql()`, a lean path for the few statements
// on every request's hot path (idempotency, payment insert); and a small second pool whose
// sessions run one generic plan, for ordered pages (`sql`'s `genericPlan`). Prisma's runtime costs a few
// milliseconds of CPU per query, which on a 2-core machine is the difference between meeting and
// missing the API's throughput targets; everything else goes through Prisma.
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { config } from "@/lib/platform/config";
import { singleton } from "@/lib/platform/singleton";
import { CLOSE_ORDER, onShutdown } from "@/lib/platform/lifecycle";
import { rememberBounded } from "@/lib/platform/bounded";

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

// A statement's name, remembered per text: hashing a payment insert's few kilobytes of SQL in
// JavaScript on every query was 2.6 % of POST /payments' CPU; a Map lookup hashes natively.
const statementNames = new Map<string, string>();

function statementName(sqlText: string): string {
  let name = statementNames.get(sqlText);
  if (name === undefined) {
    let h = 0x811c9dc5;
    for (let i = 0; i < sqlText.length; i++) h = Math.imul(h ^ sqlText.charCodeAt(i), 0x01000193);
    name = `s${(h >>> 0).toString(36)}${sqlText.length.toString(36)}`;
    // Texts are the code's statements (a few hundred); the bound only guards against a leak.
    rememberBounded(statementNames, sqlText, name, 10_000);
  }
  return name;
}

export function createDb(url: string, poolSize: number, preparedStatements = true): { prisma: PrismaClient; pool: pg.Pool } {
  // No JIT on a direct connection: statements here are OLTP, and JIT code is compiled again on
  // every run. A count over a million-payment merchant (a filtered list's total) priced past
  // jit_above_cost took 1,520 ms with JIT and 262 ms without. A transaction pooler refuses
  // settings sent at connection start, so behind one (no named statements) the server's stays.
  const pool = new pg.Pool({ connectionString: url, max: poolSize, idleTimeoutMillis: 30_000, allowExitOnIdle: true, ...(preparedStatements ? { options: "-c jit=off" } : {}) });
  pool.on("error", () => {}); // an idle client's error: the pool replaces it
  // Named statements let PostgreSQL reuse plans of the hot queries.
  // disposeExternalPool: `db().$disconnect()` closes the shared pool too (scripts and tests exit).
  const adapter = new PrismaPg(pool, { disposeExternalPool: true, ...(preparedStatements ? { statementNameGenerator: (q) => statementName(q.sql) } : {}) });
  return { prisma: new PrismaClient({ adapter }), pool };
}

/** Connections of the pool for ordered page reads (see `sql`'s `genericPlan`). */
export const GENERIC_PLAN_POOL_SIZE = 3;

function handle() {
  return singleton("db", () => {
    const c = config();
    if (!c.DATABASE_URL) throw new Error("DATABASE_URL is not set (npm start sets it for the embedded database)");
    const main = createDb(c.DATABASE_URL, c.DATABASE_POOL_SIZE, c.DATABASE_PREPARED_STATEMENTS);
    // Only with named statements: a setting sent at connection start is refused by a transaction
    // pooler (PgBouncer), and an unnamed statement is planned for its values anyway.
    const generic = c.DATABASE_PREPARED_STATEMENTS
      ? new pg.Pool({ connectionString: c.DATABASE_URL, max: GENERIC_PLAN_POOL_SIZE, idleTimeoutMillis: 30_000, allowExitOnIdle: true, options: "-c plan_cache_mode=force_generic_plan -c jit=off" })
      : null;
    generic?.on("error", () => {});
    const h = { ...main, generic, prepared: c.DATABASE_PREPARED_STATEMENTS };
    onShutdown("database pool", CLOSE_ORDER.database, async () => {
      await h.prisma.$disconnect();
      await generic?.end();
    });
    return h;
  });
}

export function db(): PrismaClient {
  return handle().prisma;
}

/**
 * One parameterised statement on the shared pool. BigInts are sent as text; use casts in SQL.
 * `planEachTime`: run it unnamed, so PostgreSQL plans it for its values on every call. For a
 * statement whose best plan depends on the values (a search: a rare e-mail wants its index, a
 * prefix matching half the rows wants the date order), a named statement settles on one generic
 * plan after five runs.
 *
 * `genericPlan`: run it on one generic plan from its first call, never a plan made for its
 * values. For an ordered page of one owner's rows (ORDER BY … LIMIT over an index that holds the
 * order): a plan made for the values trusts the statistics' count of the owner's rows, and an
 * owner the last ANALYZE never saw (a merchant that signed up since, or was too small to be
 * sampled, and has grown) is estimated at one row. Expecting one row, PostgreSQL reads it
 * through the narrowest index that matches and sorts: every row the owner has, on every page
 * (29 ms at 15,000 payments, growing with them; the bench's list fell to 0.04x ping). The
 * generic plan is costed on the average owner, so it walks the ordered index and stops at the
 * page. Runs on GENERIC_PLAN_POOL_SIZE connections of their own (plan_cache_mode is a session
 * setting); without named statements (DATABASE_PREPARED_STATEMENTS=0) it is an ordinary `sql`.
 * They run without JIT, as the main pool does (createDb): a generic plan is costed for the
 * average owner's rows, and sixteen shared pages of a table of a million rows priced past
 * jit_optimize_above_cost, so each run compiled its plan for 2.3 s to read 800 rows in 3 ms.
 */
export async function sql<R extends pg.QueryResultRow = Record<string, unknown>>(text: string, values: unknown[] = [], opts: { planEachTime?: boolean; genericPlan?: boolean } = {}): Promise<R[]> {
  const h = handle();
  const params = values.map((v) => (typeof v === "bigint" ? v.toString() : v));
  const pool = (opts.genericPlan && h.generic) || h.pool;
  const result = await pool.query<R>(h.prepared && !opts.planEachTime ? { name: statementName(text), text, values: params } : { text, values: params });
  return result.rows;
}

let explained = 0;

/**
 * The plan `sql(text, values, { genericPlan: true })` runs, as EXPLAIN (FORMAT JSON) gives it
 * (tests and benchmarks show the plan served, not one made for a single call's values). Values
 * are scalars (EXECUTE takes them as literals).
 */
export async function genericPlanOf(text: string, values: unknown[]): Promise<unknown> {
  const h = handle();
  const client = await (h.generic ?? h.pool).connect();
  const name = `explain_${process.pid}_${++explained}`;
  try {
    const params = values.map((v) => (typeof v === "bigint" ? v.toString() : v));
    await client.query({ name, text, values: params });
    const literals = params.map((v) => (v === null ? "NULL" : client.escapeLiteral(v instanceof Date ? v.toISOString() : String(v))));
    const r = await client.query(`EXPLAIN (FORMAT JSON) EXECUTE ${name}(${literals.join(", ")})`);
    return r.rows[0]["QUERY PLAN"];
  } finally {
    await client.query(`DEALLOCATE ${name}`).catch(() => {});
    client.release();
  }
}

/** The pool's connections right now (metrics). */
export function poolStats(): { total: number; idle: number; waiting: number } {
  const { pool } = handle();
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
}
