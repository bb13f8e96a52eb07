// The app's HTTP server: Next running in this process (its programmatic server) behind a plain
// node:http server, so the process that listens is the process a supervisor started and
// nothing of it can outlive it. `stop()` is the clean stop: stop accepting, answer every request
// already received (keep-alive connections are told to close), let running jobs finish, close
// the pools, all within a deadline.
import http from "node:http";
import net, { type Socket } from "node:net";
import path from "node:path";
import { createApiDispatch } from "./api-dispatch.ts";
import { memoryMark } from "./memory-marks.ts";
// Not from schema-engine.ts: that loads pg, which tracing must patch before anything loads it.
const root = path.resolve(import.meta.dirname, "../..");

export type AppServer = { url: string; server: http.Server; stop: (deadlineMs?: number) => Promise<void> };

export async function startAppServer(opts: { port: number; host: string; dev: boolean; log?: (s: string) => void }): Promise<AppServer> {
  const log = opts.log ?? ((s: string) => console.log(`[server ${process.pid}] ${s}`));
  if (!opts.dev) (process.env as Record<string, string>).NODE_ENV = "production";
  // Tracing patches http and pg as they load: it starts before Next and the app's modules.
  // A literal import: the compiled server (scripts/lib/compile-server.ts) makes it a chunk loaded only here.
  if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) (await import("../../lib/platform/telemetry/tracing.ts")).startTracing();
  memoryMark("server: before Next");
  const { default: next } = await import("next");
  const app = next({ dev: opts.dev, dir: root, hostname: opts.host, port: opts.port, quiet: !opts.dev });
  await app.prepare();
  memoryMark("server: Next prepared (instrumentation ran: config, job ticker)");
  const handle = app.getRequestHandler();
  // /api/v1 straight to the compiled route handlers (scripts/lib/api-dispatch.ts); pages through
  // Next. API_FAST_PATH=off sends everything through Next (for comparison and as an escape hatch).
  const api = opts.dev || process.env.API_FAST_PATH === "off" ? null : createApiDispatch(root, log);

  let draining = false;
  let inFlight = 0;
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    inFlight++;
    let done = false;
    const finish = () => {
      if (!done) (done = true), inFlight--;
    };
    res.once("finish", finish);
    res.once("close", finish);
    // Draining: answer this request, then close its connection so the client opens a new one elsewhere.
    if (draining) res.setHeader("Connection", "close");
    if (api?.dispatch(req, res)) return;
    void handle(req, res);
  });
  server.keepAliveTimeout = 65_000; // longer than typical load-balancer idle timeouts
  server.on("connection", (s) => {
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const url = `http://${opts.host === "0.0.0.0" ? "127.0.0.1" : opts.host}:${opts.port}`;
  // Loaded after the server listens and never awaited: a start (and its signal handlers) never
  // waits on it, and a request that comes first loads its own route.
  memoryMark("server: listening");
  if (api) setImmediate(() => void api.warm().then(() => memoryMark("server: every route module loaded (fast path warm-up)")));

  let stopping: Promise<void> | null = null;
  const stop = (deadlineMs = 9_000) =>
    (stopping ??= (async () => {
      const until = Date.now() + deadlineMs;
      draining = true;
      const { startDraining, shutdownResources } = await import("../../lib/platform/lifecycle.ts");
      startDraining();
      // No new connections (net.Server's close: http's would also drop idle keep-alive
      // connections at once, racing a client that is just sending on one). Requests on open
      // connections are still answered, each with `Connection: close`, so clients move away;
      // connections left idle are closed a moment later.
      const closed = new Promise<void>((r) => net.Server.prototype.close.call(server, () => r()));
      const drainStarted = Date.now();
      while (Date.now() < until - 2_000 && (inFlight > 0 || (sockets.size > 0 && Date.now() - drainStarted < 1_000))) await new Promise((r) => setTimeout(r, 20));
      if (inFlight > 0) log(`${inFlight} request(s) still running at the deadline; closing their connections`);
      server.closeIdleConnections();
      await new Promise((r) => setTimeout(r, 50));
      server.closeAllConnections();
      for (const s of sockets) s.destroy();
      await closed;
      const late: string[] = await shutdownResources(Math.max(500, until - Date.now()));
      if (late.length) log(`not closed in time: ${late.join(", ")}`);
      await app.close().catch(() => {});
    })());
  return { url, server, stop };
}
