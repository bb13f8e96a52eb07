// The database of the process: one pg pool, shared by the Prisma client (through the pg driver
// adapter; Prisma 7 has no built-in driver) and by `sql()`, a lean path for the few statements
// on every request's hot path (idempotency, payment insert). Prisma's runtime costs a few
// milliseconds of CPU per query, which on a 2-core machine is the difference between meeting and
// missing the API's throughput targets; everything else goes through Prisma.
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { config } from "@/lib/config";
import { singleton } from "@/lib/singleton";
import { CLOSE_ORDER, onShutdown } from "@/lib/lifecycle";

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
    if (statementNames.size >= 10_000) statementNames.clear();
    statementNames.set(sqlText, name);
  }
  return name;
}

export function createDb(url: string, poolSize: number, preparedStatements = true): { prisma: PrismaClient; pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, idleTimeoutMillis: 30_000, allowExitOnIdle: true });
  pool.on("error", () => {}); // an idle client's error: the pool replaces it
  // Named statements let PostgreSQL reuse plans of the hot queries.
  // disposeExternalPool: `db().$disconnect()` closes the shared pool too (scripts and tests exit).
  const adapter = new PrismaPg(pool, { disposeExternalPool: true, ...(preparedStatements ? { statementNameGenerator: (q) => statementName(q.sql) } : {}) });
  return { prisma: new PrismaClient({ adapter }), pool };
}

function handle() {
  return singleton("db", () => {
    const c = config();
    if (!c.DATABASE_URL) throw new Error("DATABASE_URL is not set (npm start sets it for the embedded database)");
    const h = { ...createDb(c.DATABASE_URL, c.DATABASE_POOL_SIZE, c.DATABASE_PREPARED_STATEMENTS), prepared: c.DATABASE_PREPARED_STATEMENTS };
    onShutdown("database pool", CLOSE_ORDER.database, () => h.prisma.$disconnect());
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
 */
export async function sql<R extends pg.QueryResultRow = Record<string, unknown>>(text: string, values: unknown[] = [], opts: { planEachTime?: boolean } = {}): Promise<R[]> {
  const h = handle();
  const params = values.map((v) => (typeof v === "bigint" ? v.toString() : v));
  const result = await h.pool.query<R>(h.prepared && !opts.planEachTime ? { name: statementName(text), text, values: params } : { text, values: params });
  return result.rows;
}

/** The pool's connections right now (metrics). */
export function poolStats(): { total: number; idle: number; waiting: number } {
  const { pool } = handle();
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
}
