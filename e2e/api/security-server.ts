// The production server of security.test.ts (not a test file itself), started the way
// docs/operators/security.md says for production: `npm start` with APP_ENV=production, an https
// APP_URL, real-looking secrets, REDIS_URL, its own database and port, no provider, 127.0.0.1 as
// its one trusted proxy; its merchant from the operator CLI. With the inward addresses an outbound
// request must refuse and the raw big-body POSTs the bounded-input tests send.
import assert from "node:assert/strict";
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import http from "node:http";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { waitFor } from "./helpers.ts";
import { freePort } from "../../scripts/lib/embedded-db.ts";
import { parseDatabaseUrl, root } from "../../scripts/lib/schema-engine.ts";
import { scratchDatabase, type ScratchDatabase } from "../../scripts/lib/scratch-database.ts";
import { startArgs } from "../../scripts/lib/server.ts";
import { setResolver } from "@/lib/webhooks/url-policy";
import { serverProcessEnv } from "../../scripts/lib/process-env.ts";

export const redisBase = (process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379").replace(/\/\d*$/, "");
export const secret = (label: string) => `${label}-${randomBytes(24).toString("base64url")}`;
export const AUTH_FAILURES_PER_MINUTE = 30;

/** Only what a process needs to run: nothing of the harness' test configuration leaks in. */
export function cleanEnv(extra: Record<string, string>): Record<string, string | undefined> {
  const keep = new Set(["PATH", "HOME", "LANG", "TMPDIR", "TERM", "USER", "SHELL", "NODE_OPTIONS"]);
  const env: Record<string, string | undefined> = {};
  for (const k of Object.keys(process.env)) env[k] = keep.has(k) ? process.env[k] : undefined;
  // package.json's process environment (npm start's), as an operator's server has it.
  return serverProcessEnv({ ...env, NEXT_TELEMETRY_DISABLED: "1", ...extra });
}

export function collect(child: ChildProcess) {
  let out = "";
  child.stdout?.on("data", (d) => (out += d));
  child.stderr?.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  return { output: () => out, exited };
}

// The production server and its merchant, set by startProduction (the test file's `before`).
export let port = 0;
export let base = "";
export let prodEnv: Record<string, string> = {};
export let start: { child: ChildProcess; output: () => string; exited: Promise<number | null> };
export let admin: pg.Client;
/** Its own database on the local server (TEST_DATABASE_ADMIN_URL), made in `before`. */
export let scratch: ScratchDatabase | undefined;
export let databaseUrl = "";
export let live = { publishableKey: "", secretKey: "" };
export let sandbox = { publishableKey: "", secretKey: "" };

export async function query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await admin.query(sql, params)).rows as T[];
}

/** RSS (KiB) of the Next server `npm start` runs: its own process group (CLI and next-server). */
export function serverRssKiB(): number {
  const ps = execFileSync("ps", ["-eo", "pid=,ppid=,pgid=,rss="], { encoding: "utf8" })
    .split("\n")
    .filter(Boolean)
    .map((l) => l.trim().split(/\s+/).map(Number) as [number, number, number, number]);
  // The server runs in the process npm start is (scripts/serve.ts), with any workers below it.
  const tree = new Set([start.child.pid!]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of ps) if (tree.has(ppid) && !tree.has(pid)) (tree.add(pid), (grew = true));
  }
  assert.ok(ps.some(([pid]) => pid === start.child.pid), "found the server npm start runs");
  return ps.filter(([pid]) => tree.has(pid)).reduce((sum, [, , , rss]) => sum + rss, 0);
}

/** Starts the production server (its own database, `npm start`) and its merchant: sets the bindings above. */
export async function startProduction() {
  scratch = await scratchDatabase(`lp_sec_${process.pid}`);
  databaseUrl = scratch.url;
  admin = new pg.Client(parseDatabaseUrl(databaseUrl));
  await admin.connect();

  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  prodEnv = {
    APP_ENV: "production",
    PORT: String(port),
    APP_URL: "https://pay.example.test",
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: "5",
    REDIS_URL: `${redisBase}/4`,
    AUTH_SECRET: secret("auth"),
    JWT_SECRET: secret("jwt"),
    ENCRYPTION_KEY: secret("enc"),
    TRUSTED_PROXIES: "127.0.0.1/32",
    LOG_LEVEL: "warn",
  };
  // `npm start`, as docs/operators/security.md says for production. It builds only if the sources are newer
  // than the harness' build (they are not), migrates, and serves.
  const child = spawn(process.execPath, startArgs(), { cwd: root, env: cleanEnv(prodEnv) as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
  start = { child, ...collect(child) };
  await waitFor(async () => start.output().includes("is running at") || (child.exitCode !== null && Promise.reject(new Error(`start exited: ${start.output()}`))), "npm start to serve", 180_000);

  // Merchants of a production deployment come from the operator CLI.
  const cli = spawn(process.execPath, ["--import", "tsx", "scripts/cli.ts", "merchant:create", "--name", "Tienda Segura", "--tier", "premium", "--json"], { cwd: root, env: cleanEnv(prodEnv) as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
  const made = collect(cli);
  assert.equal(await made.exited, 0, made.output());
  const created = JSON.parse(made.output().trim().split("\n").filter((l) => l.startsWith("{")).pop()!);
  live = created.production;
  sandbox = created.sandbox;
}

export async function stopProduction() {
  setResolver(null);
  if (start?.child.exitCode === null) {
    start.child.kill("SIGTERM");
    await Promise.race([start.exited, new Promise((r) => setTimeout(r, 20_000).unref())]);
  }
  await admin?.end();
  await scratch?.drop();
}
// Every textual form of loopback, private, link-local and metadata addresses.
export const REFUSED_URLS = [
  "https://127.0.0.1/hook",
  "https://127.1/hook",
  "https://2130706433/hook",
  "https://0x7f000001/hook",
  "https://0x7f.0.0.1/hook",
  "https://0177.0.0.1/hook",
  "https://localhost/hook",
  "https://[::1]/hook",
  "https://[::ffff:127.0.0.1]/hook",
  "https://[::ffff:7f00:1]/hook",
  "https://[64:ff9b::7f00:1]/hook",
  "https://[2002:7f00:1::]/hook",
  "https://10.0.0.1/hook",
  "https://167772161/hook",
  "https://172.16.0.1/hook",
  "https://192.168.1.1/hook",
  "https://0xc0a80101/hook",
  "https://[::ffff:c0a8:101]/hook",
  "https://[fd00::1]/hook",
  "https://169.254.169.254/latest/meta-data",
  "https://2852039166/latest",
  "https://0xa9fea9fe/latest",
  "https://[::ffff:a9fe:a9fe]/latest",
  "https://[::ffff:169.254.169.254]/latest",
  "https://[64:ff9b::a9fe:a9fe]/latest",
  "https://[fe80::1]/hook",
  "https://[fd00:ec2::254]/latest",
  "https://100.100.100.200/latest",
  "https://0.0.0.0/hook",
  "https://[::]/hook",
];
export type PostOpts = { chunked?: boolean; headers?: Record<string, string> };

/**
 * POSTs `size` bytes (declared, or chunked without Content-Length) and returns status and body.
 * A server that refuses a body stops reading it and closes the connection; the client's kernel
 * may then reset the connection before the answer is read (status 0): asked again, up to 5 times.
 */
export async function bigPost(url: string, size: number, opts: PostOpts = {}): Promise<{ status: number; text: string }> {
  for (let attempt = 1; ; attempt++) {
    const res = await postOnce(url, size, opts);
    if (res.status !== 0 || attempt === 5) return res;
  }
}

export function postOnce(url: string, size: number, opts: PostOpts): Promise<{ status: number; text: string }> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { "content-type": "application/json", ...opts.headers };
    if (!opts.chunked) headers["content-length"] = String(size);
    const req = http.request(url, { method: "POST", headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      res.on("error", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    // The server answers and stops reading: the rest of our upload may fail, which is the point.
    req.on("error", () => resolve({ status: 0, text: "" }));
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      req.end();
    };
    pump();
  });
}
