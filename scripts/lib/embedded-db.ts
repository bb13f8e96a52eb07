// An embedded PostgreSQL (PGlite, WASM) served over TCP on loopback, so the app talks to it
// through the same pg driver adapter it uses with a real server. PGlite runs one transaction at
// a time: the app's pool is kept at or below maxConnections.
import { mkdirSync } from "node:fs";
import net from "node:net";
// PGlite is loaded by the start that runs it: a start with DATABASE_URL (production) never loads it.
import type { PGlite as PGliteType } from "@electric-sql/pglite";

export const EMBEDDED_MAX_CONNECTIONS = 8;

/**
 * `n` distinct free ports, all held at once while they are found: ports taken one by one
 * (freePort) are free again as soon as each is returned, so the system may hand the same one to
 * the next `listen(0)` before its owner binds it (the test server once found the custody
 * simulator on its port).
 */
export async function freePorts(n: number): Promise<number[]> {
  const servers = Array.from({ length: n }, () => net.createServer());
  try {
    return await Promise.all(servers.map((srv) => new Promise<number>((resolve, reject) => {
      srv.unref();
      srv.on("error", reject);
      srv.listen(0, "127.0.0.1", () => resolve((srv.address() as net.AddressInfo).port));
    })));
  } finally {
    await Promise.all(servers.map((srv) => new Promise<void>((resolve) => (srv.listening ? srv.close(() => resolve()) : resolve()))));
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** dataDir undefined keeps everything in memory (used for migration shadow databases). */
export async function startEmbeddedPostgres(opts: { dataDir?: string; port?: number } = {}) {
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  const { PGlite } = await import("@electric-sql/pglite");
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  const db: PGliteType = opts.dataDir ? await PGlite.create(opts.dataDir) : await PGlite.create();
  const port = opts.port ?? (await freePort());
  const server = new PGLiteSocketServer({ db, port, host: "127.0.0.1", maxConnections: EMBEDDED_MAX_CONNECTIONS });
  await server.start();
  return {
    url: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      await server.stop().catch(() => {});
      await db.close().catch(() => {});
    },
  };
}
