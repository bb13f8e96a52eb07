// A throwaway database on the local PostgreSQL server for a benchmark (TEST_DATABASE_ADMIN_URL,
// default postgresql://postgres@127.0.0.1:5432/postgres names the server): created empty, dropped
// by the caller (also on an interrupt: `drop` forces out whatever is still connected).
import pg from "pg";
import { parseDatabaseUrl } from "./schema-engine.ts";

const adminUrl = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

async function admin(text: string) {
  const c = new pg.Client(parseDatabaseUrl(adminUrl));
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

/** Creates `<prefix>_<time>`; `url` reaches it as the admin user. */
export async function scratchDatabase(prefix: string): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${Date.now().toString(36)}`;
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  await admin(`CREATE DATABASE "${name}"`);
  return { name, url: u.toString(), drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}
