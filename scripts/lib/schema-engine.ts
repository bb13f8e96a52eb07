// Drives Prisma's schema engine compiled to WebAssembly, so migrations need no native binary
// (the Prisma CLI cannot download one on these machines). The migrations folder and the
// `_prisma_migrations` table it writes are the standard ones: the stock CLI reads them as is.
import { readFile, readdir } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import { parseDatabaseUrl, type PgTarget } from "./postgres.ts";
import { scratchDatabase } from "./scratch-database.ts";

const require = createRequire(import.meta.url);
export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
export const schemaPath = path.join(root, "prisma/schema.prisma");
export const migrationsDir = path.join(root, "prisma/migrations");

export { parseDatabaseUrl, type PgTarget } from "./postgres.ts";

/** Where the engine may build its throwaway shadow database. */
export type ShadowProvider = () => Promise<{ target: PgTarget; cleanup: () => Promise<void> }>;

/** A shadow database created on the PostgreSQL server `serverUrl` names (a scratch database). */
export function postgresShadow(serverUrl: string): ShadowProvider {
  return async () => {
    const shadow = await scratchDatabase("shadow", serverUrl);
    return { target: parseDatabaseUrl(shadow.url), cleanup: shadow.drop };
  };
}

// The adapter has no mapping for PostgreSQL's internal "char" type (OID 18), which the engine's
// catalog queries return; it is a one-byte text, so it is read as text.
const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

function patchAdapter<T extends object>(adapter: T): T {
  const a = adapter as any;
  const performIO = a.performIO.bind(a);
  a.performIO = async (query: unknown) => {
    const result = await performIO(query);
    for (const f of result.fields ?? []) if (f.dataTypeID === PG_CHAR_OID) f.dataTypeID = PG_TEXT_OID;
    return result;
  };
  // The stock executeScript splits on every ';' (breaking $$ bodies and leaving half-applied
  // migrations); one simple-protocol query runs the whole script atomically.
  a.executeScript = async (script: string) => {
    try {
      await a.client.query(script);
    } catch (error) {
      a.onError(error);
    }
  };
  return adapter;
}

class MigrationAdapterFactory {
  readonly provider = "postgres" as const;
  readonly adapterName = "@prisma/adapter-pg";
  private cleanups: Array<() => Promise<void>> = [];
  constructor(private target: PgTarget, private shadow: ShadowProvider) {}

  async connect() {
    return patchAdapter(await new PrismaPg({ ...this.target, max: 2 }).connect());
  }

  async connectToShadowDb() {
    const { target, cleanup } = await this.shadow();
    const adapter = patchAdapter(await new PrismaPg({ ...target, max: 2 }).connect());
    const dispose = adapter.dispose.bind(adapter);
    // Close our pool before dropping the database, or the drop waits on our own connections.
    (adapter as any).dispose = async () => {
      await dispose().catch(() => {});
      await (adapter as any).client.end().catch(() => {});
      await cleanup();
    };
    this.cleanups.push(cleanup);
    return adapter;
  }
}

let wasmReady: Promise<any> | undefined;
/** The engine reports Rust panics through this global; without it a panic hides its message. */
const panic = { message: "" };
(globalThis as any).PRISMA_WASM_PANIC_REGISTRY ??= { set_message: (m: string) => { panic.message = m; console.error(`schema engine panic: ${m}`); } };

async function loadEngineModule() {
  wasmReady ??= (async () => {
    const glue = await import("@prisma/schema-engine-wasm/schema_engine_bg");
    const wasmPath = path.join(path.dirname(require.resolve("@prisma/schema-engine-wasm/schema_engine_bg")), "schema_engine_bg.wasm");
    const { instance } = await WebAssembly.instantiate(await readFile(wasmPath), { "./schema_engine_bg.js": glue as any });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports as any).__wbindgen_start();
    return glue;
  })();
  return wasmReady;
}

export async function openEngine(databaseUrl: string, shadow?: ShadowProvider) {
  const glue = await loadEngineModule();
  const target = parseDatabaseUrl(databaseUrl);
  const schema = await readFile(schemaPath, "utf8");
  const factory = new MigrationAdapterFactory(target, shadow ?? postgresShadow(databaseUrl));
  const logs: string[] = [];
  const engine = await glue.SchemaEngine.new(
    { datamodels: [[schemaPath, schema]] },
    (msg: string) => logs.push(msg),
    bindMigrationAwareSqlAdapterFactory(factory as any),
  );
  return { engine, schema, logs };
}

export async function readMigrations() {
  const dirs = existsSync(migrationsDir)
    ? (await readdir(migrationsDir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name).sort()
    : [];
  const lockPath = path.join(migrationsDir, "migration_lock.toml");
  return {
    baseDir: migrationsDir,
    lockfile: { path: "migration_lock.toml", content: existsSync(lockPath) ? await readFile(lockPath, "utf8") : null },
    shadowDbInitScript: "",
    migrationDirectories: await Promise.all(
      dirs.map(async (dir) => {
        const file = path.join(migrationsDir, dir, "migration.sql");
        const content = existsSync(file)
          ? { tag: "ok" as const, value: await readFile(file, "utf8") }
          : { tag: "error" as const, value: `missing ${file}` };
        return { path: dir, migrationFile: { path: "migration.sql", content } };
      }),
    ),
  };
}

export const noFilters = { externalTables: [], externalEnums: [] };

/** Applies every pending migration; returns the names applied. */
export async function deployMigrations(databaseUrl: string): Promise<string[]> {
  const { engine } = await openEngine(databaseUrl);
  try {
    const out = await engine.applyMigrations({ migrationsList: await readMigrations(), filters: noFilters });
    return out.appliedMigrationNames;
  } finally {
    engine.free?.();
  }
}
