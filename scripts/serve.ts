// The app server process (`npm start` runs it after preparing the database; tests and operators
// may run it directly with DATABASE_URL set): Next in this process, or `WEB_CONCURRENCY` worker
// processes of it sharing the port (node:cluster). One tree that stops as one:
// - SIGTERM (and SIGINT): stop accepting, answer what was received, let jobs finish, close the
//   pools, exit 0 within STOP_TIMEOUT_MS (default 9 s); the primary forwards it to its workers.
// - A worker whose primary is gone (its IPC channel closed, even after SIGKILL) exits at once;
//   a single process whose parent chain is killed (npm, a supervisor) exits within a second, so
//   nothing of the service is left listening.
//   node --import tsx scripts/serve.ts            (PORT, HOST, WEB_CONCURRENCY, DEV=1)
import "./lib/tracing-first.ts";
import cluster from "node:cluster";
import { availableParallelism } from "node:os";
import { readFileSync } from "node:fs";
import { startAppServer, type AppServer } from "./lib/app-server.ts";

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

/** The PIDs of this process's ancestors below init (its launcher chain: npm, sh, a test runner…). */
function ancestors(): number[] {
  const out: number[] = [];
  let pid = process.ppid;
  for (let i = 0; i < 6 && pid > 1; i++) {
    out.push(pid);
    try {
      pid = Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
    } catch {
      break;
    }
  }
  return out;
}

/** Exits when a launcher of this process dies (a SIGKILL of the top process gives no signal to forward). */
function exitWithLaunchers(onGone: () => void): void {
  const watched = ancestors();
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === "EPERM";
    }
  };
  setInterval(() => {
    if (watched.some((pid) => !alive(pid))) onGone();
  }, 250).unref();
}

async function runOne(o: ServeOptions, role: string): Promise<AppServer> {
  const app = await startAppServer({ port: o.port, host: o.host, dev: o.dev });
  let stopping = false;
  const stop = (why: string, fast = false) => {
    if (stopping) return;
    stopping = true;
    console.log(`[serve ${process.pid}] ${why}: stopping`);
    const hard = setTimeout(() => process.exit(1), (fast ? 1_000 : o.stopTimeoutMs) + 1_000);
    hard.unref();
    void app
      .stop(fast ? 500 : o.stopTimeoutMs)
      .then(() => o.afterStop?.())
      .finally(() => process.exit(0));
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  // Whoever started us is gone (SIGKILL gives nothing to forward): leave at once, so the port
  // is free for the restart a supervisor is about to make.
  const gone = (why: string) => {
    console.log(`[serve ${process.pid}] ${why}: exiting`);
    process.exit(1);
  };
  if (role === "worker") process.on("disconnect", () => !stopping && gone("primary gone"));
  else exitWithLaunchers(() => gone("launcher gone"));
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
  exitWithLaunchers(() => {
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill("SIGKILL");
    process.exit(1);
  });
}

// Run directly (`node --import tsx scripts/serve.ts`), or as a cluster worker of either entry.
const direct = process.argv[1] && new URL(import.meta.url).pathname === process.argv[1];
if (direct || process.env.SERVE_ROLE === "worker") {
  const o = serveOptionsFromEnv();
  serve({ ...o, onReady: (url) => console.log(`[serve] listening at ${url} (${o.workers} process${o.workers > 1 ? "es" : ""})`) }).catch((err) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  });
}
