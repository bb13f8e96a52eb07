// The API fast path (scripts/lib/api-dispatch.ts) answers as Next does. The server `npm test`
// started serves /api/v1 by the fast path (the whole API suite runs through it); this file starts
// a second server on the same database with API_FAST_PATH=off and sends every endpoint of the
// contract the same requests on both: same status, same error code, same content type. Then the
// behaviours the dispatcher itself owns: streamed bodies, unread bodies on keep-alive connections,
// percent-escapes, the client going away.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { ENDPOINTS } from "@/lib/openapi/endpoints";
import { API_URL, newMerchant } from "./helpers.ts";
import { freePort } from "../../scripts/lib/embedded-db.ts";
import { startNext, waitForHttp, type RunningServer } from "../../scripts/lib/server.ts";

let viaNext: RunningServer;

before(async () => {
  const port = await freePort();
  // The same APP_URL as the first server: answers carry absolute links built from it.
  const env: Record<string, string | undefined> = { ...process.env, API_FAST_PATH: "off" };
  viaNext = startNext({ port, env, stdio: "ignore" });
  await waitForHttp(`${viaNext.url}/api/v1/ping`, 120_000);
});
after(async () => viaNext?.stop());

type Seen = { status: number; code: string | undefined; type: string | null; allow: string | null };

async function ask(base: string, path: string, init: RequestInit): Promise<Seen> {
  const res = await fetch(`${base}/api/v1${path}`, init);
  const text = await res.text();
  let code: string | undefined;
  try {
    code = JSON.parse(text)?.error?.code;
  } catch {}
  return { status: res.status, code, type: res.headers.get("content-type"), allow: res.headers.get("allow") };
}

test("every endpoint of the contract answers the fast path as it answers through Next", async () => {
  const m = await newMerchant();
  const differences: string[] = [];
  for (const e of ENDPOINTS) {
    // The listen stream stays open (sdk/test/listen.test.ts covers it); its refusals are compared below.
    if (e.responseType === "text/event-stream") continue;
    const path = e.path.replace(/\{\w+\}/g, "nope_0000");
    for (const key of [undefined, m.sandbox.secretKey, "sk_test_garbage"]) {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (key) headers.authorization = `Bearer ${key}`;
      // A body the endpoint refuses (wrong types), so no request changes anything.
      const body = e.method === "GET" ? undefined : JSON.stringify({ amount: "not a number", name: 1, url: 2 });
      const [fast, next] = [await ask(API_URL, path, { method: e.method, headers, body }), await ask(viaNext.url, path, { method: e.method, headers, body })];
      if (JSON.stringify(fast) !== JSON.stringify(next)) differences.push(`${e.method} ${e.path} [${key?.slice(0, 8)}]: fast ${JSON.stringify(fast)} vs Next ${JSON.stringify(next)}`);
    }
  }
  // Paths and methods no endpoint serves: the JSON 404 and 405 of the error contract.
  for (const [method, path] of [["GET", "/nothing/here"], ["DELETE", "/ping"], ["POST", "/payments/tx_1/nope"], ["GET", "/listen"]] as const) {
    const [fast, next] = [await ask(API_URL, path, { method }), await ask(viaNext.url, path, { method })];
    if (JSON.stringify(fast) !== JSON.stringify(next)) differences.push(`${method} ${path}: fast ${JSON.stringify(fast)} vs Next ${JSON.stringify(next)}`);
  }
  assert.deepEqual(differences, []);
});

test("a successful answer is the same through both: a payment created on one is read alike on the other", async () => {
  const m = await newMerchant();
  const auth = { authorization: `Bearer ${m.sandbox.secretKey}`, "content-type": "application/json" };
  const created = await fetch(`${API_URL}/api/v1/payments`, { method: "POST", headers: { ...auth, "idempotency-key": "fast-path-1" }, body: JSON.stringify({ amount: 15, paymentMethodId: "sbx_card", merchantOrderId: "fast-1" }) });
  assert.equal(created.status, 200);
  const { transactionId } = (await created.json()) as { transactionId: string };
  const read = async (base: string) => {
    const res = await fetch(`${base}/api/v1/payments/${transactionId}`, { headers: auth });
    const body = (await res.json()) as Record<string, unknown>;
    return { status: res.status, body };
  };
  const [fast, next] = [await read(API_URL), await read(viaNext.url)];
  assert.equal(fast.status, 200);
  assert.deepEqual(fast, next);
  // The same Idempotency-Key through Next replays the fast path's answer.
  const replay = await fetch(`${viaNext.url}/api/v1/payments`, { method: "POST", headers: { ...auth, "idempotency-key": "fast-path-1" }, body: JSON.stringify({ amount: 15, paymentMethodId: "sbx_card", merchantOrderId: "fast-1" }) });
  assert.equal(replay.headers.get("idempotent-replayed"), "true");
  assert.equal(((await replay.json()) as { transactionId: string }).transactionId, transactionId);
});

/** Requests on one keep-alive socket, one after another (what a client pool does). */
function onOneSocket(requests: Array<{ method: string; path: string; headers?: Record<string, string>; body?: string }>): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(API_URL);
  const one = (r: (typeof requests)[number]) =>
    new Promise<number>((resolve, reject) => {
      const req = http.request({ host: url.hostname, port: url.port, method: r.method, path: `/api/v1${r.path}`, headers: r.headers, agent, timeout: 15_000 }, (res) => {
        res.resume();
        res.once("end", () => resolve(res.statusCode!));
      });
      req.once("timeout", () => req.destroy(new Error(`no answer to ${r.method} ${r.path} on the reused socket`)));
      req.once("error", reject);
      req.end(r.body);
    });
  return (async () => {
    const out: number[] = [];
    for (const r of requests) out.push(await one(r));
    agent.destroy();
    return out;
  })();
}

test("a body the handler never reads (refused before reading) leaves the keep-alive connection usable", async () => {
  const big = JSON.stringify({ note: "x".repeat(300_000) });
  const statuses = await onOneSocket([
    { method: "POST", path: "/payments", headers: { "content-type": "application/json", authorization: "Bearer sk_test_garbage" }, body: big },
    { method: "POST", path: "/payments", headers: { "content-type": "application/json" }, body: '{"__proto__":{"admin":true}}' },
    { method: "GET", path: "/ping" },
    { method: "POST", path: "/payments", headers: { "content-type": "application/json" }, body: big },
    { method: "GET", path: "/ping" },
  ]);
  assert.deepEqual(statuses, [401, 401, 401, 401, 401]);
});

test("a body over the limit is refused with 413 and the connection still carries the next request", async () => {
  const m = await newMerchant();
  const auth = { authorization: `Bearer ${m.sandbox.secretKey}`, "content-type": "application/json" };
  const statuses = await onOneSocket([
    // Chunked (no Content-Length): cut while reading, at the limit.
    { method: "POST", path: "/payments", headers: { ...auth, "transfer-encoding": "chunked" }, body: JSON.stringify({ note: "x".repeat(1_200_000) }) },
    { method: "GET", path: "/ping", headers: auth },
  ]);
  assert.deepEqual(statuses, [413, 200]);
});

test("a malformed percent-escape gets the contract's JSON 400, a trailing slash Next's redirect, as through Next", async () => {
  for (const path of ["/payments/%ff", "/payments/"]) {
    const [fast, next] = [await ask(API_URL, path, { method: "GET", redirect: "manual" }), await ask(viaNext.url, path, { method: "GET", redirect: "manual" })];
    assert.deepEqual(fast, next, path);
  }
  assert.equal((await ask(API_URL, "/payments/%ff", { method: "GET" })).code, "invalid_request");
});

test("the listen stream: refused alike without a key; with one it streams until the client goes away, and the server lets go", async () => {
  const [fast, next] = [await ask(API_URL, "/webhooks/listen", { method: "GET" }), await ask(viaNext.url, "/webhooks/listen", { method: "GET" })];
  assert.deepEqual(fast, next);
  const m = await newMerchant();
  const controller = new AbortController();
  const res = await fetch(`${API_URL}/api/v1/webhooks/listen`, { headers: { authorization: `Bearer ${m.sandbox.secretKey}` }, signal: controller.signal });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /text\/event-stream/);
  const reader = res.body!.getReader();
  const first = await reader.read();
  assert.ok(first.value && first.value.byteLength > 0, "the stream sends something at once (its opening comment or event)");
  controller.abort();
  await reader.cancel().catch(() => {});
  // The server is still answering on fresh connections after the client left mid-stream.
  assert.equal((await fetch(`${API_URL}/api/v1/ping`, { headers: { authorization: `Bearer ${m.sandbox.secretKey}` } })).status, 200);
});
