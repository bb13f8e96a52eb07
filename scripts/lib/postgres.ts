// Reaching a PostgreSQL server from the scripts: a URL as discrete connection fields, and one
// statement on a connection of its own (set-up, benchmarks' seeding and checks).
import pg from "pg";

export type PgTarget = { host: string; port: number; user: string; password?: string; database: string };

/** Discrete fields: with `connectionString`, pg lets the URL's database override `database`. */
export function parseDatabaseUrl(url: string): PgTarget {
  const u = new URL(url);
  return {
    host: decodeURIComponent(u.hostname || "127.0.0.1"),
    port: Number(u.port || 5432),
    user: decodeURIComponent(u.username || "postgres"),
    password: u.password ? decodeURIComponent(u.password) : undefined,
    database: decodeURIComponent(u.pathname.replace(/^\//, "") || "postgres"),
  };
}

/** One statement on a connection opened for it and closed after. */
export async function sql(url: string, text: string, params: unknown[] = []) {
  const c = new pg.Client(parseDatabaseUrl(url));
  await c.connect();
  try {
    return await c.query(text, params);
  } finally {
    await c.end();
  }
}
