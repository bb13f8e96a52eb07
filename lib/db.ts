// The one Prisma client of the process, over the pg driver adapter (Prisma 7 has no built-in
// driver). The same adapter serves a real PostgreSQL and the embedded one.
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { config } from "@/lib/config";
import { singleton } from "@/lib/singleton";

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

export function createDb(url: string, poolSize: number, preparedStatements = true): PrismaClient {
  const adapter = new PrismaPg(
    { connectionString: url, max: poolSize, idleTimeoutMillis: 30_000 },
    // Named statements let PostgreSQL reuse plans of the hot queries (key lookups, lists).
    preparedStatements ? { statementNameGenerator: (q) => `s${hash(q.sql)}` } : {},
  );
  return new PrismaClient({ adapter });
}

function hash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36) + s.length.toString(36);
}

export function db(): PrismaClient {
  return singleton("db", () => {
    const c = config();
    if (!c.DATABASE_URL) throw new Error("DATABASE_URL is not set (npm start sets it for the embedded database)");
    return createDb(c.DATABASE_URL, c.DATABASE_POOL_SIZE, c.DATABASE_PREPARED_STATEMENTS);
  });
}
