// Which database a script talks to: DATABASE_URL when set; otherwise the embedded database of
// `npm start` if it is running (it owns .data/pglite), else the embedded database started here.
import { existsSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { root } from "./schema-engine.ts";
import { startEmbeddedPostgres } from "./embedded-db.ts";

/** Where `npm start`'s embedded database and demo keys live: .data/, or DATA_DIR (a benchmark's quick start uses a fresh one). */
export const DATA_DIR = process.env.DATA_DIR ? path.resolve(process.env.DATA_DIR) : path.join(root, ".data");
export const EMBEDDED_DATA_DIR = path.join(DATA_DIR, "pglite");
export const EMBEDDED_STATE_FILE = path.join(DATA_DIR, "embedded.json");

function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    s.once("connect", () => (s.destroy(), resolve(true)));
    s.once("error", () => resolve(false));
  });
}

/** Environment for anything that talks to the embedded database (one shared PGlite session). */
export const EMBEDDED_DB_ENV = { DATABASE_PREPARED_STATEMENTS: "false" } as const;

export async function openDatabase(): Promise<{ url: string; embedded: boolean; stop: () => Promise<void> }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, embedded: false, stop: async () => {} };
  if (existsSync(EMBEDDED_STATE_FILE)) {
    const { url, port } = JSON.parse(readFileSync(EMBEDDED_STATE_FILE, "utf8")) as { url: string; port: number };
    if (await reachable(port)) {
      Object.assign(process.env, EMBEDDED_DB_ENV);
      return { url, embedded: true, stop: async () => {} };
    }
  }
  const db = await startEmbeddedPostgres({ dataDir: EMBEDDED_DATA_DIR });
  Object.assign(process.env, EMBEDDED_DB_ENV);
  return { url: db.url, embedded: true, stop: db.stop };
}
