// The app server process (`npm start` runs it after preparing the database; tests and operators
// may run it directly with DATABASE_URL set): Next in this process, or `WEB_CONCURRENCY` worker
// processes of it sharing the port (node:cluster). One tree that stops as one:
// - SIGTERM (and SIGINT): stop accepting, answer what was received, let jobs finish, close the
//   pools, exit 0 within STOP_TIMEOUT_MS (default 9 s); the primary forwards it to its workers.
// - A signal always wins: whatever else happens, a stop is this clean one.
// - It leaves with a launcher only when that launcher is part of the service (scripts/lib/
//   launchers.ts: the npm of `npm start`, a parent that set SERVE_WITH_PARENT=1, the cluster
//   primary for its workers), even after a SIGKILL of it, so nothing of the service is left
//   listening; and then by the same clean stop, after a grace in which a signal on its way wins.
//   A shell or script above it may exit (`nohup npm start &`): the service keeps running.
//   npm run serve = node .next/node/serve.js     (PORT, HOST, WEB_CONCURRENCY; compiled by npm run build)
//   node --import tsx scripts/serve.ts            (the same from source; DEV=1 for next dev)
import "./lib/tracing-first.ts";
import cluster from "node:cluster";
import { availableParallelism } from "node:os";
import { startAppServer, type AppServer } from "./lib/app-server.ts";
import { serviceLaunchers, watchLaunchers } from "./lib/launchers.ts";

export type ServeOptions = {
  port: number;
  host: string;
  dev: boolean;
  workers: number;
  stopTimeoutMs: number;
  onReady?: (url: string) => void;
  /** After the servers stopped, before the process exits (npm start: the embedded database). */
  afterStop?: () => Promise<void>;
};

export function serveOptionsFromEnv(env = process.env): ServeOptions {
  const workers = env.WEB_CONCURRENCY === "auto" ? availableParallelism() : Math.max(1, Number(env.WEB_CONCURRENCY ?? 1) || 1);
  return { port: Number(env.PORT ?? 3000), host: env.HOST ?? "127.0.0.1", dev: env.DEV === "1", workers, stopTimeoutMs: Number(env.STOP_TIMEOUT_MS ?? 9_000) };
}

/** How long a launcher's death waits for a signal that is on its way (a process group's SIGTERM). */
const LAUNCHER_GRACE_MS = 1_000;

/**
 * Leaves with the launchers that are part of the service (scripts/lib/launchers.ts), always by
 * `stop` — the same clean stop as SIGTERM — and only after a grace in which a signal that is on
 * its way wins: a launcher's death never cuts a stop short.
 */
function leaveWithLaunchers(stop: (why: string) => void): void {
  const pids = serviceLaunchers(process.env, process.ppid);
  console.log(`[serve ${process.pid}] leaves with ${pids.length ? `its launcher${pids.length > 1 ? "s" : ""} ${pids.join(", ")}` : "no launcher (a signal stops it)"}`);
  watchLaunchers(pids, (pid) => setTimeout(() => stop(`launcher ${pid} gone`), LAUNCHER_GRACE_MS).unref());
}

async function runOne(o: ServeOptions, role: string): Promise<AppServer> {
  const app = await startAppServer({ port: o.port, host: o.host, dev: o.dev });
  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[serve ${process.pid}] ${why}: stopping`);
    const hard = setTimeout(() => process.exit(1), o.stopTimeoutMs + 1_000);
    hard.unref();
    void app
      .stop(o.stopTimeoutMs)
      .then(() => o.afterStop?.())
      .finally(() => process.exit(0));
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  // A worker's primary is part of the service: when it is gone (even by SIGKILL, which gives it
  // nothing to forward) the worker drains and leaves, so nothing is left listening.
  if (role === "worker") process.on("disconnect", () => setTimeout(() => stop("primary gone"), LAUNCHER_GRACE_MS).unref());
  else leaveWithLaunchers(stop);
  return app;
}

/** Runs the server (or its workers) in this process; resolves once it serves. */
export async function serve(o: ServeOptions): Promise<void> {
  if (o.workers <= 1 || o.dev) {
    const app = await runOne(o, "single");
    o.onReady?.(app.url);
    return;
  }
  if (cluster.isWorker) {
    await runOne(o, "worker");
    process.send?.({ ready: true });
    return;
  }
  // The primary: forks the workers (this same file), forwards stops, replaces a crashed worker.
  cluster.setupPrimary({ exec: new URL(import.meta.url).pathname, execArgv: process.execArgv });
  let stopping = false;
  let ready = 0;
  const fork = () => {
    const w = cluster.fork({ ...process.env, SERVE_ROLE: "worker" });
    w.on("message", (m: { ready?: boolean }) => {
      if (m?.ready && ++ready === o.workers) o.onReady?.(`http://${o.host === "0.0.0.0" ? "127.0.0.1" : o.host}:${o.port}`);
    });
  };
  for (let i = 0; i < o.workers; i++) fork();
  const finish = () => void Promise.resolve(o.afterStop?.()).finally(() => process.exit(0));
  cluster.on("exit", (w, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) finish();
      return;
    }
    console.log(`[serve ${process.pid}] worker ${w.process.pid} exited (${signal ?? code}); starting another`);
    fork();
  });
  const stopAll = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill(signal);
    setTimeout(() => process.exit(1), o.stopTimeoutMs + 2_000).unref();
    if (Object.keys(cluster.workers ?? {}).length === 0) finish();
  };
  process.on("SIGTERM", () => stopAll("SIGTERM"));
  process.on("SIGINT", () => stopAll("SIGTERM"));
  leaveWithLaunchers((why) => {
    if (stopping) return;
    console.log(`[serve ${process.pid}] ${why}: stopping`);
    stopAll("SIGTERM");
  });
}

// Run directly (`node .next/node/serve.js`, or from source), or as a cluster worker of either entry.
const direct = process.argv[1] && new URL(import.meta.url).pathname === process.argv[1];
if (direct || process.env.SERVE_ROLE === "worker") {
  const o = serveOptionsFromEnv();
  serve({ ...o, onReady: (url) => console.log(`[serve] listening at ${url} (${o.workers} process${o.workers > 1 ? "es" : ""})`) }).catch((err) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  });
}
