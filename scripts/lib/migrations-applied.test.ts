// The start's "nothing to migrate" check (migrations-applied.ts) against a real PostgreSQL: true
// only when every shipped migration is applied with its file's checksum.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, mkdirSync, writeFileSync, appendFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { scratchDatabase } from "./scratch-database.ts";
import { deployMigrations, migrationsDir } from "./schema-engine.ts";
import { migrationsUpToDate } from "./migrations-applied.ts";

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const copy = () => {
  const d = mkdtempSync(path.join(tmpdir(), "lp-migrations-"));
  dirs.push(d);
  cpSync(migrationsDir, d, { recursive: true });
  return d;
};

test("a fresh database is not up to date; after deploy it is; a new or edited migration makes it stale again", async () => {
  const db = await scratchDatabase("lp_mig_check");
  try {
    assert.equal(await migrationsUpToDate(db.url), false, "no _prisma_migrations table yet");
    await deployMigrations(db.url);
    assert.equal(await migrationsUpToDate(db.url), true);
    const added = copy();
    mkdirSync(path.join(added, "29991231000000_later"));
    writeFileSync(path.join(added, "29991231000000_later", "migration.sql"), "SELECT 1;\n");
    assert.equal(await migrationsUpToDate(db.url, added), false, "a migration not applied yet");
    const edited = copy();
    appendFileSync(path.join(edited, "20261203080000_mandate_providers", "migration.sql"), "\n-- edited\n");
    assert.equal(await migrationsUpToDate(db.url, edited), false, "a file changed after it was applied");
    assert.equal(await migrationsUpToDate("postgresql://postgres@127.0.0.1:1/none"), false, "no answer: migrate as before");
  } finally {
    await db.drop();
  }
});
