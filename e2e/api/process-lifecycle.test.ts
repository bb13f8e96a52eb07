// The server's process tree over real processes and HTTP: SIGTERM during load answers every
// accepted request (no 5xx, no reset) and exits within 10 s, also when the SIGTERM goes to the
// whole group of `npm run serve` (npm dies first; the stop is still the clean one); a SIGKILL of
// the launcher that is part of the service (npm, a supervisor that says so, a cluster primary)
// leaves nothing listening soon after, by the clean stop; a script that starts it in the
// background and exits leaves it serving;
// /healthz and /readyz, which turns 503 while PostgreSQL is unreachable and 200 when it is back.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import http from "node:http";
import path from "node:path";
import { tmpdir } from "node:os";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { spawn, type ChildProcess } from "node:child_process";
import { api, newMerchant, waitFor } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { freePort } from "../../scripts/lib/embedded-db.ts";
import { groupAlive, listening, spawnGroup } from "../../scripts/lib/process-group.ts";
import { serveArgs } from "../../scripts/lib/server.ts";

after(() => db().$disconnect());

const root = path.resolve(import.meta.dirname, "../..");
// The compiled server, as `npm run serve` runs it (built by the run's buildIfStale).
const SERVE = serveArgs();

type Proc = { child: ChildProcess; output: () => string; exited: Promise<number | null> };
function run(cmd: string, args: string[], env: Record<string, string>): Proc {
  const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  return { child, output: () => out, exited: new Promise((r) => child.once("exit", (code) => r(code))) };
}

async function ready(port: number, timeoutMs = 60_000) {
  await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.status === 200, `the server on ${port} to be ready`, timeoutMs);
}

type Load = { statuses: number[]; failures: string[]; refused: () => number; sent: () => number; finish: () => Promise<void> };

/**
 * Eight keep-alive clients sending GET /me and POST /payments until the server stops accepting.
 * node:http rather than fetch: each failure says whether it came on a connection the server had
 * already served (`reusedSocket`). A reset on a fresh connection is the kernel dropping its
 * accept queue as the listener closes: that request never reached the server, like a refused
 * one. A reset on a reused connection would be ours.
 */
function startLoad(port: number, key: string): Load {
  const base = `http://127.0.0.1:${port}/api/v1`;
  const statuses: number[] = [];
  const failures: string[] = [];
  let refused = 0;
  let sent = 0;
  let stopped = false;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const send = (i: number) =>
    new Promise<number>((resolve, reject) => {
      const post = i % 2 === 1;
      const req = http.request(
        `${base}${post ? "/payments" : "/me"}`,
        { agent, method: post ? "POST" : "GET", headers: { authorization: `Bearer ${key}`, ...(post ? { "content-type": "application/json" } : {}) } },
        (res) => {
          res.resume();
          res.once("end", () => resolve(res.statusCode ?? 0));
          res.once("error", (err) => reject(Object.assign(err, { reused: req.reusedSocket })));
        },
      );
      req.once("error", (err) => reject(Object.assign(err, { reused: req.reusedSocket })));
      req.end(post ? JSON.stringify({ amount: 5, paymentMethodId: "sbx_card" }) : undefined);
    });
  const worker = async (i: number) => {
    for (;;) {
      sent++;
      try {
        statuses.push(await send(i));
      } catch (err) {
        const { code, reused } = err as NodeJS.ErrnoException & { reused: boolean };
        // Never accepted: the server no longer listens, or it closed before accepting this connection.
        if (code === "ECONNREFUSED" || (code === "ECONNRESET" && !reused)) {
          refused++;
          return;
        }
        failures.push(`${code ?? (err as Error).message}${reused ? " (reused connection)" : ""}`);
        if (stopped) return;
      }
    }
  };
  const loops = Array.from({ length: 8 }, (_, i) => worker(i));
  return {
    statuses,
    failures,
    refused: () => refused,
    sent: () => sent,
    finish: async () => {
      stopped = true;
      await Promise.all(loops);
      agent.destroy();
    },
  };
}

/** Every request the server accepted was answered: no reset, no broken answer, no 5xx. */
function assertAllAnswered(load: Load) {
  assert.deepEqual(load.failures, [], "no reset, no broken answer");
  assert.deepEqual(load.statuses.filter((s) => s >= 500), [], "no 5xx");
  assert.ok(load.statuses.length >= 200 && load.refused() > 0, `answered ${load.statuses.length} of ${load.sent()}, then refused`);
}

test("SIGTERM during load: every accepted request is answered (no 5xx, no reset) and the process exits 0 within 10 s", async () => {
  const m = await newMerchant({ tier: "premium" });
  const port = await freePort();
  const p = run(process.execPath, SERVE, { PORT: String(port), HOST: "127.0.0.1" });
  try {
    await ready(port);
    const load = startLoad(port, m.sandbox.secretKey);
    await waitFor(async () => load.statuses.length >= 200, "load under way", 120_000);
    const t0 = Date.now();
    p.child.kill("SIGTERM");
    const code = await p.exited;
    const tookMs = Date.now() - t0;
    await load.finish();
    assert.equal(code, 0, p.output().slice(-2000));
    assert.ok(tookMs < 10_000, `exited after ${tookMs} ms`);
    assertAllAnswered(load);
    assert.equal(await listening(port), false);
  } finally {
    p.child.kill("SIGKILL");
  }
});

/** `npm run serve` in its own process group, as a terminal, systemd or Kubernetes starts it. */
const npmServe = (port: number): Proc => spawnGroup("npm", ["run", "--silent", "serve"], { cwd: root, env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", SERVE_WITH_PARENT: "" } });

test("SIGTERM to the process group of `npm run serve` under load: npm dies at once, yet the stop is the clean one and every accepted request is answered", async () => {
  const m = await newMerchant({ tier: "premium" });
  const port = await freePort();
  const p = npmServe(port);
  try {
    await ready(port);
    assert.match(p.output(), /leaves with its launchers \d+, \d+/, "npm and its sh are the launchers");
    const load = startLoad(port, m.sandbox.secretKey);
    await waitFor(async () => load.statuses.length >= 200, "load under way", 120_000);
    process.kill(-p.child.pid!, "SIGTERM");
    await waitFor(async () => !groupAlive(p.child.pid!), "every process of the group to exit", 15_000);
    await load.finish();
    assert.match(p.output(), /SIGTERM: stopping/);
    assert.doesNotMatch(p.output(), /gone/, "npm's death did not cut the stop short");
    assertAllAnswered(load);
    assert.equal(await listening(port), false);
  } finally {
    try {
      process.kill(-p.child.pid!, "SIGKILL");
    } catch {}
  }
});

test("a SIGKILL of npm alone: the server it started drains and leaves by the clean stop", async () => {
  const port = await freePort();
  const p = npmServe(port);
  try {
    await ready(port);
    p.child.kill("SIGKILL");
    await p.exited;
    await waitFor(async () => !groupAlive(p.child.pid!), "the server to leave with its npm", 15_000);
    assert.match(p.output(), /launcher \d+ gone: stopping/);
    assert.equal(await listening(port), false);
  } finally {
    try {
      process.kill(-p.child.pid!, "SIGKILL");
    } catch {}
  }
});

test("started in the background by a script that then exits (nohup npm run serve &): the server keeps serving", async () => {
  const m = await newMerchant();
  const port = await freePort();
  const log = path.join(tmpdir(), `serve-bg-${port}.log`);
  // The deploy script: starts the service in the background and exits at once.
  const script = spawn("sh", ["-c", `nohup npm run --silent serve > ${log} 2>&1 &`], {
    cwd: root,
    detached: true,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", SERVE_WITH_PARENT: "" },
    stdio: "ignore",
  });
  const pgid = script.pid!;
  try {
    await new Promise((r) => script.once("exit", r));
    await ready(port);
    const said = () => (existsSync(log) ? readFileSync(log, "utf8") : "");
    assert.match(said(), /leaves with its launchers/, "npm of the background start is its launcher");
    // The script is gone; what the server leaves with (its npm) lives: it serves on for longer
    // than its watch period and the grace that follows a launcher's death.
    // (/readyz in the loop: an API key asked back to back for 2.5 s passes its rate limit on a fast machine.)
    const until = Date.now() + 2_500;
    while (Date.now() < until) {
      assert.equal((await fetch(`http://127.0.0.1:${port}/readyz`)).status, 200);
    }
    assert.equal((await api("/me", { base: `http://127.0.0.1:${port}`, key: m.sandbox.secretKey })).status, 200);
    assert.doesNotMatch(said(), /stopping|exiting/);
    // Its operator stops it with SIGTERM to its group: the clean stop.
    process.kill(-pgid, "SIGTERM");
    await waitFor(async () => !groupAlive(pgid), "the background service to stop", 15_000);
    assert.match(said(), /SIGTERM: stopping/);
  } finally {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {}
    rmSync(log, { force: true });
  }
});

test("a SIGKILL of the launcher leaves nothing listening soon after: one process, and a cluster of two workers", async () => {
  for (const workers of ["1", "2"]) {
    const port = await freePort();
    // The launcher stands for npm or a supervisor: it starts the server and is killed with SIGKILL.
    // It declares itself part of the service (SERVE_WITH_PARENT=1), as `npm start`'s npm is.
    const launcher = run(process.execPath, ["-e", `require("child_process").spawn(process.execPath, ${JSON.stringify(SERVE)}, { stdio: "inherit" }); setInterval(() => {}, 1000);`], {
      SERVE_WITH_PARENT: "1",
      PORT: String(port),
      HOST: "127.0.0.1",
      WEB_CONCURRENCY: workers,
    });
    try {
      await ready(port);
      launcher.child.kill("SIGKILL");
      await launcher.exited;
      // The server checks its launchers every 250 ms, waits a 1 s grace for a signal on its way,
      // then stops cleanly (about two seconds in all on an idle machine); the deadline here only
      // bounds a loaded CI machine's scheduling: the behaviour under test is that nothing is
      // left listening, not a timing (timings belong in benchmarks).
      await waitFor(async () => !(await listening(port)), `port ${port} free (${workers} worker(s))`, 30_000);
    } finally {
      launcher.child.kill("SIGKILL");
    }
  }
});

test("/healthz answers while alive; /readyz turns 503 while PostgreSQL is unreachable and 200 when it is back", async () => {
  // A TCP proxy the test controls stands between the server and PostgreSQL (never stop the shared one).
  const target = new URL(process.env.DATABASE_URL!);
  const proxyPort = await freePort();
  const conns = new Set<net.Socket>();
  const startProxy = () =>
    new Promise<net.Server>((resolve) => {
      const s = net.createServer((c) => {
        const up = net.connect(Number(target.port || 5432), target.hostname);
        conns.add(c).add(up);
        c.pipe(up).pipe(c);
        const end = () => (c.destroy(), up.destroy());
        c.on("error", end).on("close", end);
        up.on("error", end).on("close", end);
      });
      s.listen(proxyPort, "127.0.0.1", () => resolve(s));
    });
  let proxy = await startProxy();
  const viaProxy = new URL(target);
  viaProxy.port = String(proxyPort);
  const port = await freePort();
  const p = run(process.execPath, SERVE, { PORT: String(port), HOST: "127.0.0.1", DATABASE_URL: viaProxy.toString() });
  try {
    await ready(port);
    const readyz = async () => {
      const r = await fetch(`http://127.0.0.1:${port}/readyz`);
      return { status: r.status, body: (await r.json()) as { checks: Record<string, string> } };
    };
    const ok = await readyz();
    assert.deepEqual(ok.body.checks.database, "ok");
    assert.equal(ok.body.checks.migrations, "ok");
    assert.equal(ok.body.checks.jobs, "ok");
    // PostgreSQL goes away.
    const closing = new Promise((r) => proxy.close(r));
    for (const c of conns) c.destroy();
    await closing;
    const down = await waitFor(async () => {
      const r = await readyz();
      return r.status === 503 ? r : null;
    }, "/readyz 503", 15_000);
    assert.notEqual(down.body.checks.database, "ok");
    assert.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200, "alive all the same");
    // And comes back.
    proxy = await startProxy();
    await waitFor(async () => (await readyz()).status === 200, "/readyz 200 again", 20_000);
    // Outside the rate limits and without credentials.
    assert.equal((await api("/me", { base: `http://127.0.0.1:${port}` })).status, 401);
  } finally {
    p.child.kill("SIGKILL");
    await p.exited;
    const closing = new Promise((r) => proxy.close(r));
    for (const c of conns) c.destroy();
    await closing;
  }
});
