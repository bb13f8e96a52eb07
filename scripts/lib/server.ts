// Starts the app server (scripts/serve.ts: Next in-process, or its workers) as a child in its own
// process group, for tests and benchmarks; `stop()` sends SIGTERM (the clean stop) and SIGKILLs
// the group only if it has not exited 12 s later. What ships is what is tested: the compiled
// server (.next/node/serve.js, plain node, as `npm run serve` runs it), which the callers'
// buildIfStale brings up to date; `dev` runs the sources through tsx, as `npm run dev` does.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { root } from "./schema-engine.ts";
import { compiledServe } from "./compile-server.ts";
import { serverProcessEnv } from "./process-env.ts";

/** The argv (after node) of `npm start`'s process: the compiled start.js, as `npm start` runs it after its prestart build. */
export function startArgs(): string[] {
  const compiled = path.join(path.dirname(compiledServe(root)), "start.js");
  if (!existsSync(compiled)) throw new Error(`${path.relative(root, compiled)} is missing: build first (npm run build, or buildIfStale)`);
  return [compiled];
}

/** The argv (after node) of a server process: the compiled serve.js, or the sources under tsx for dev. */
export function serveArgs(dev = false): string[] {
  if (dev) return ["--import", "tsx", path.join(root, "scripts/serve.ts")];
  const compiled = compiledServe(root);
  if (!existsSync(compiled)) throw new Error(`${path.relative(root, compiled)} is missing: build first (npm run build, or buildIfStale)`);
  return [compiled];
}

export type RunningServer = { url: string; child: ChildProcess; stop: () => Promise<void> };

export function startNext(opts: { port: number; host?: string; env: Record<string, string | undefined>; dev?: boolean; stdio?: "inherit" | "pipe" | "ignore" }): RunningServer {
  const child = spawn(process.execPath, serveArgs(opts.dev), {
    cwd: root,
    detached: true,
    stdio: ["ignore", opts.stdio ?? "inherit", opts.stdio ?? "inherit"],
    // SERVE_WITH_PARENT: a test run's server leaves with the run, even when the run is SIGKILLed.
    env: serverProcessEnv({ ...process.env, NEXT_TELEMETRY_DISABLED: "1", SERVE_WITH_PARENT: "1", ...opts.env, PORT: String(opts.port), HOST: opts.host ?? "127.0.0.1", ...(opts.dev ? { DEV: "1" } : {}) }) as NodeJS.ProcessEnv,
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    url: `http://${opts.host && opts.host !== "0.0.0.0" ? opts.host : "127.0.0.1"}:${opts.port}`,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {}
      const killer = setTimeout(() => {
        try {
          process.kill(-child.pid!, "SIGKILL");
        } catch {}
      }, 12_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** Polls until the server answers HTTP (any status) or the deadline passes. */
export async function waitForHttp(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await fetch(url, { signal: AbortSignal.timeout(2_000) });
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`server at ${url} did not answer within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
