// Throwaway databases on a PostgreSQL server: a benchmark's, the test run's own, a test's that
// starts and kills its own app, the schema engine's shadow. Created empty; dropped by the caller
// (also on an interrupt: `drop` forces out whatever is still connected).
import { randomBytes } from "node:crypto";
import { sql } from "./postgres.ts";

/** The local server's admin database: TEST_DATABASE_ADMIN_URL, default postgresql://postgres@127.0.0.1:5432/postgres. */
export const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export type ScratchDatabase = { name: string; url: string; drop: () => Promise<void> };

/**
 * Creates `<prefix>_<time><random>` on the server `server` names (the URL of any database there,
 * by default ADMIN_URL); `url` reaches the new database as the same user.
 */
export async function scratchDatabase(prefix: string, server = ADMIN_URL): Promise<ScratchDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
  const u = new URL(server);
  u.pathname = `/${name}`;
  await sql(server, `CREATE DATABASE "${name}"`);
  return { name, url: u.toString(), drop: async () => void (await sql(server, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)) };
}
