// Migrations without Prisma's native engine (see scripts/lib/schema-engine.ts).
//   npm run db:deploy            apply pending migrations
//   npm run db:migrate -- <name> create a migration from schema.prisma changes, then apply it
//   npm run db:status            list applied / pending migrations; exit 1 when the database is behind
//   npm run db:drift             exit 1 when schema.prisma and prisma/migrations disagree
// Without DATABASE_URL they act on the embedded database in .data/ (as `npm start` does).
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { deployMigrations, migrationsDir, noFilters, openEngine, postgresShadow, readMigrations, root, schemaPath } from "./lib/schema-engine.ts";
import { startEmbeddedPostgres } from "./lib/embedded-db.ts";

// The schema engine's catalog reader panics on PGlite (PostgreSQL 18 in WASM), so the shadow
// database that replays migrations for `create` and `drift` lives on a real PostgreSQL server:
// SHADOW_DATABASE_URL, else DATABASE_URL's server, else the local server on 127.0.0.1:5432.
function shadowServerUrl(): string {
  return process.env.SHADOW_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
}

async function withDatabase<T>(fn: (url: string) => Promise<T>): Promise<T> {
  if (process.env.DATABASE_URL) return fn(process.env.DATABASE_URL);
  const main = await startEmbeddedPostgres({ dataDir: path.join(root, ".data/pglite") });
  try {
    return await fn(main.url);
  } finally {
    await main.stop();
  }
}

/** The SQL that takes the migrations' end state to schema.prisma; null when they agree. */
async function diffMigrationsToSchema(url: string): Promise<string | null> {
  const { engine, schema } = await openEngine(url, postgresShadow(shadowServerUrl()));
  const out = await engine.diff({
    from: { tag: "migrations", ...(await readMigrations()) },
    to: { tag: "schemaDatamodel", files: [{ path: schemaPath, content: schema }] },
    script: true,
    exitCode: true,
    filters: noFilters,
  });
  return out.exitCode === 2 ? out.stdout : null;
}

async function main() {
  const [command, name] = process.argv.slice(2);
  switch (command) {
    case "deploy": {
      const applied = await withDatabase((url) => deployMigrations(url));
      // --json: the names alone, for `npm start`, which runs this in a child process (scripts/start.ts).
      if (process.argv.includes("--json")) console.log(JSON.stringify({ applied }));
      else console.log(applied.length ? `applied: ${applied.join(", ")}` : "database is up to date");
      return 0;
    }
    case "create": {
      if (!name || !/^[a-z0-9_]+$/.test(name)) {
        console.error("usage: npm run db:migrate -- <snake_case_name>");
        return 2;
      }
      return withDatabase(async (url) => {
        // The WASM engine's createMigration refuses external shadow databases; a diff from the
        // migrations (replayed on a shadow) to schema.prisma is the same script it would write.
        const sql = await diffMigrationsToSchema(url);
        if (!sql) {
          console.log("schema.prisma matches the migrations: nothing to create");
          return 0;
        }
        const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
        const dirName = `${stamp}_${name}`;
        await mkdir(path.join(migrationsDir, dirName), { recursive: true });
        await writeFile(path.join(migrationsDir, dirName, "migration.sql"), sql);
        console.log(`created prisma/migrations/${dirName}/migration.sql`);
        const applied = await deployMigrations(url);
        console.log(`applied: ${applied.join(", ") || "(none)"}`);
        return 0;
      });
    }
    case "status": {
      return withDatabase(async (url) => {
        const { engine } = await openEngine(url);
        const migrationsList = await readMigrations();
        const out = await engine.diagnoseMigrationHistory({ migrationsList, optInToShadowDatabase: false, filters: noFilters });
        console.log(`${migrationsList.migrationDirectories.length} migrations in prisma/migrations`);
        if (out.failedMigrationNames?.length) console.log(`failed: ${out.failedMigrationNames.join(", ")}`);
        if (out.editedMigrationNames?.length) console.log(`edited after apply: ${out.editedMigrationNames.join(", ")}`);
        const h = out.history;
        if (!h) {
          console.log("database is up to date");
          return out.failedMigrationNames?.length ? 1 : 0;
        }
        console.log(JSON.stringify(h, null, 2));
        return 1;
      });
    }
    case "drift": {
      // Only the shadow is touched: drift compares the migrations folder with schema.prisma.
      {
        const sql = await diffMigrationsToSchema(shadowServerUrl());
        if (sql) {
          console.error("DRIFT: schema.prisma differs from prisma/migrations. Create a migration:\n  npm run db:migrate -- <name>\nThe missing SQL:\n");
          console.error(sql);
          return 1;
        }
        console.log("no drift: schema.prisma matches prisma/migrations");
        return 0;
      }
    }
    default:
      console.error("usage: tsx scripts/migrate.ts deploy|create <name>|status|drift");
      return 2;
  }
}

// The engine never closes its pg pools: exit explicitly.
main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.stack ?? err.message : err);
    process.exit(1);
  },
);
