// Shared helpers of the API tests: real HTTP to the server `npm test` started (API_URL), real
// PostgreSQL for set-up through the same domain functions the CLI uses.
import { randomUUID } from "node:crypto";
import http from "node:http";
import { spawnSync } from "node:child_process";
import { createMerchant, type CreateMerchantInput } from "@/lib/merchants/create-merchant";
import { startNext, waitForHttp, type RunningServer } from "../../scripts/lib/server.ts";
import { freePort } from "../../scripts/lib/embedded-db.ts";
import { scratchDatabase, type ScratchDatabase } from "../../scripts/lib/scratch-database.ts";

export const API_URL = process.env.API_URL ?? "http://127.0.0.1:3000";

export type ApiResponse<T = any> = { status: number; headers: Headers; body: T; text: string };

export type ApiOptions = {
  method?: string;
  key?: string;
  /** JSON-encoded unless `raw` is given. */
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  base?: string;
};

/** node:http, because fetch always derives Host from the URL and some tests must set it. */
function rawRequest(url: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; headers: Headers; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (text += c));
      res.on("end", () => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(", ") : v);
        resolve({ status: res.statusCode ?? 0, headers: h, text });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

export async function api<T = any>(path: string, opts: ApiOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  let body: string | undefined = opts.raw;
  if (opts.body !== undefined && body === undefined) {
    body = JSON.stringify(opts.body);
    headers["content-type"] ??= "application/json";
  }
  const url = `${opts.base ?? API_URL}/api/v1${path}`;
  const method = opts.method ?? (body !== undefined ? "POST" : "GET");
  const res = headers.host ? await rawRequest(url, method, headers, body) : await fetch(url, { method, headers, body });
  const text = typeof (res as any).text === "string" ? (res as any).text : await (res as Response).text();
  let parsed: any = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {}
  return { status: res.status, headers: res.headers, body: parsed, text };
}

export async function newMerchant(input: Partial<CreateMerchantInput> = {}) {
  return createMerchant({ name: `Test ${Math.random().toString(36).slice(2, 8)}`, tier: "premium", ...input });
}

/** Polls `check` until it returns a truthy value or the deadline passes (no fixed sleeps). */
export async function waitFor<T>(check: () => Promise<T | undefined | null | false>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let pause = 20;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, pause));
    pause = Math.min(pause * 2, 250);
  }
}

/** The simulated PSPs (scripts/psp/simulator.ts) the test server calls. */
export const PSP = { pagosur: process.env.PROVIDER_PAGOSUR_URL!, andespay: process.env.PROVIDER_ANDESPAY_URL!, rapidpay: process.env.PROVIDER_RAPIDPAY_URL! };
export type Psp = keyof typeof PSP;

/** Makes `psp` answer the next charge of buyer `forEmail` with `mode` (accept, decline with `reason`, error, timeout…). */
export async function behave(psp: Psp, mode: string, forEmail: string, reason?: string): Promise<void> {
  const r = await fetch(`${PSP[psp]}/_control/behaviour`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ mode, forEmail, reason, times: 1 }) });
  if (r.status !== 200) throw new Error(`${psp} /_control/behaviour: ${r.status}`);
}

/** Another instance of the built app on the same database, with extra configuration. */
export async function extraServer(env: Record<string, string>, opts: { captureOutput?: boolean } = {}): Promise<RunningServer & { output: () => string }> {
  const port = await freePort();
  const server = startNext({ port, env: { ...env, APP_URL: env.APP_URL ?? `http://127.0.0.1:${port}` }, stdio: opts.captureOutput ? "pipe" : "ignore" });
  let output = "";
  server.child.stdout?.on("data", (d) => (output += d));
  server.child.stderr?.on("data", (d) => (output += d));
  await waitForHttp(`${server.url}/api/v1/ping`);
  return Object.assign(server, { output: () => output });
}

export function assertEnvelope(res: ApiResponse, code: string, status: number) {
  if (res.status !== status || res.body?.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${res.text.slice(0, 300)}`);
  }
  const e = res.body.error;
  if (typeof e.type !== "string" || typeof e.message !== "string" || !/^req_/.test(e.requestId)) throw new Error(`malformed envelope: ${res.text}`);
  if (res.headers.get("x-request-id") !== e.requestId) throw new Error("X-Request-Id header differs from error.requestId");
}

/** Runs a repository script with tsx (the CLI, migrations, a job) against `env`; its last output line. */
export function tsx(args: string[], env: Record<string, string>): string {
  const r = spawnSync(process.execPath, ["--import", "tsx", ...args], { env: { ...process.env, ...env }, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${args.join(" ")} failed: ${r.stderr}`);
  return r.stdout.trim().split("\n").pop()!;
}

/** A database of the test's own on the test's server (for tests that start and kill their own app); `drop()` removes it and never throws. */
export async function ownDatabase(prefix: string): Promise<ScratchDatabase> {
  const own = await scratchDatabase(prefix, process.env.DATABASE_URL);
  return { ...own, drop: () => own.drop().catch(() => {}) };
}

/** Serves `server` on a free loopback port (a webhook receiver, a provider stand-in); `close()` ends it and its connections. */
export async function listenLocal(server: http.Server): Promise<{ base: string; close: () => Promise<void> }> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const base = `http://127.0.0.1:${(server.address() as import("node:net").AddressInfo).port}`;
  return {
    base,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/**
 * Posts a custody notice signed as the custody provider signs it (lib/custody/notice-signature.ts,
 * with the inbound CUSTODY_NOTICE_SECRET):
 * a fresh noticeId unless the body has one; `at` (unix seconds) to sign another moment.
 */
export async function postCustodyNotice(body: Record<string, unknown>, opts: { secret?: string; at?: number; header?: string } = {}) {
  const { signCustodyNotice } = await import("@/lib/custody/notice-signature");
  const raw = JSON.stringify({ noticeId: `cn_test_${randomUUID()}`, ...body });
  const path = "/api/v1/custody/notifications";
  const header = opts.header ?? signCustodyNotice(opts.secret ?? process.env.CUSTODY_NOTICE_SECRET!, path, raw, opts.at ?? Math.floor(Date.now() / 1000));
  const res = await fetch(`${API_URL}${path}`, { method: "POST", headers: { "content-type": "application/json", "x-custody-signature": header }, body: raw });
  const text = await res.text();
  return { status: res.status, text, headers: res.headers, body: JSON.parse(text) as any };
}
