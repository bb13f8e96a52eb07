// Whether a database already has every migration this tree ships, applied whole and unchanged
// (`_prisma_migrations`: finished, not rolled back, the checksum Prisma writes, the SHA-256 of
// each migration.sql). A start whose database is up to date, the common case after the first,
// skips the migrations' child process (node + the schema engine's WASM: 1-2 s of a start on a
// slow machine, docs/operators/memory-and-startup.md); anything else (a new migration, a
// changed file, no table yet, an unreadable answer) runs it as before.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const migrationsDir = path.join(root, "prisma/migrations");

/** Each shipped migration's name and checksum, as `_prisma_migrations` records them. */
export function shippedMigrations(dir = migrationsDir): Map<string, string> {
  const out = new Map<string, string>();
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, e.name, "migration.sql");
    if (e.isDirectory() && existsSync(file)) out.set(e.name, createHash("sha256").update(readFileSync(file)).digest("hex"));
  }
  return out;
}

export async function migrationsUpToDate(databaseUrl: string, dir = migrationsDir): Promise<boolean> {
  const shipped = shippedMigrations(dir);
  if (!shipped.size) return false;
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ migration_name: string; checksum: string }>("SELECT migration_name, checksum FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL");
    const applied = new Map(rows.map((r) => [r.migration_name, r.checksum]));
    for (const [name, sum] of shipped) if (applied.get(name) !== sum) return false;
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}
