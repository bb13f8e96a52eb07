// The SDK against the real, built server (started by `npm test`; API_URL): a full integration
// flow through typed calls (token, payment, simulate, refund, webhook verification in both header
// styles, payout), then the transport's promises proven against a fault-injecting proxy in front
// of the same server: retries on 503 honouring Retry-After, a lost answer retried with the same
// Idempotency-Key creating exactly one payment, and an expired access token refreshed.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { createClient, unwrap, ApiError, verifyWebhook, WebhookVerificationError } from "../src/index.ts";
import { newMerchant, waitFor, API_URL, listenLocal } from "../../e2e/api/helpers.ts";
import { db } from "@/lib/platform/db";
import { clabeCheckDigit } from "@/lib/rails/document-rules";

const BASE = `${API_URL}/api/v1`;
type Delivery = { body: string; headers: http.IncomingHttpHeaders };
const deliveries: Delivery[] = [];
let receiver: http.Server;
let closeReceiver = async () => {};
let receiverUrl = "";

before(async () => {
  receiver = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      deliveries.push({ body, headers: req.headers });
      res.end("ok");
    });
  });
  const served = await listenLocal(receiver);
  closeReceiver = served.close;
  receiverUrl = `${served.base}/hooks`;
});

after(async () => {
  await closeReceiver();
  await db().$disconnect();
});

const BUYER = { userName: "Ana Souza", userEmail: "ana@example.com", documentId: "52998224725" };

test("a full flow through typed calls: token, payment, simulate, refund, webhook, payout", async () => {
  const m = await newMerchant();
  const client = createClient({ baseUrl: BASE, secretKey: m.sandbox.secretKey, publishableKey: m.sandbox.publishableKey });

  const me = await unwrap(client.GET("/me"));
  assert.equal(me.environment, "sandbox");

  const hook = await unwrap(client.POST("/webhooks", { body: { url: receiverUrl, events: ["payment.completed"] } }));
  assert.match(hook.secret, /^whsec_/);

  const payment = await unwrap(client.POST("/payments", { body: { amount: 25, paymentMethodId: "sbx_card", merchantOrderId: `sdk-${Date.now()}`, ...BUYER } }));
  assert.equal(payment.status, "pending");
  await unwrap(client.POST("/payments/{id}/simulate", { params: { path: { id: payment.transactionId } }, body: { action: "paid" } }));
  const paid = await unwrap(client.GET("/payments/{id}", { params: { path: { id: payment.transactionId } } }));
  assert.equal(paid.status, "completed");

  const refund = await unwrap(client.POST("/payments/{id}/refund", { params: { path: { id: payment.transactionId } }, body: { amount: 10 } }));
  assert.equal(refund.transactionId, payment.transactionId);

  // The delivery verifies with the SDK in either header style, and not with another secret.
  const d = await waitFor(async () => deliveries.find((x) => x.body.includes(payment.transactionId)), "the payment.completed delivery");
  const event = client.webhooks.verify(d.body, d.headers as Record<string, string>, hook.secret);
  assert.equal(event.type, "payment.completed");
  assert.equal((event.data.object as { id?: string }).id, payment.transactionId);
  const contractOnly = { "x-service-signature": d.headers["x-service-signature"] as string };
  assert.equal(verifyWebhook(d.body, contractOnly, hook.secret).id, event.id);
  {
    assert.ok(d.headers["webhook-signature"], "Standard Webhooks headers on every delivery");
    const standardOnly = { "webhook-id": d.headers["webhook-id"] as string, "webhook-timestamp": d.headers["webhook-timestamp"] as string, "webhook-signature": d.headers["webhook-signature"] as string };
    assert.equal(verifyWebhook(d.body, standardOnly, hook.secret).id, event.id);
  }
  assert.throws(() => verifyWebhook(d.body, d.headers as Record<string, string>, "whsec_c29tZSBvdGhlciBzZWNyZXQgb2YgMjQgYnl0ZXM"), WebhookVerificationError);
  assert.throws(() => verifyWebhook(d.body.replace("payment.completed", "payment.failed"), d.headers as Record<string, string>, hook.secret), WebhookVerificationError);

  // Payout: fund the sandbox, send, read it back.
  await unwrap(client.POST("/me/payout/fund-sandbox", { body: { currency: "MXN", amount: 1000 } }));
  const methods = await unwrap(client.GET("/me/payout/methods"));
  const spei = methods.items.find((x) => x.currency === "MXN");
  assert.ok(spei, "an MXN payout method");
  const sent = await unwrap(
    client.POST("/me/payout/send", {
      body: { methodId: spei.id, amount: 100, recipient: { name: "Carlos Ruiz", account: "00218001234567890" + clabeCheckDigit("00218001234567890"), bankCode: "002", documentId: "GODE561231GR8", documentType: "RFC", email: "carlos@example.com" } },
    }),
  );
  const got = await unwrap(client.GET("/me/payout/send/{id}", { params: { path: { id: sent.payout.id } } }));
  assert.equal(got.payout.id, sent.payout.id);
});

test("errors are typed: code, status, param and request id", async () => {
  const m = await newMerchant();
  const client = createClient({ baseUrl: BASE, secretKey: m.sandbox.secretKey });
  const err = await unwrap(client.GET("/payments/{id}", { params: { path: { id: "tx_missing" } } })).catch((e: unknown) => e);
  assert.ok(err instanceof ApiError);
  assert.equal(err.status, 404);
  assert.equal(err.code, "transaction_not_found");
  assert.match(err.requestId ?? "", /^req_/);
  const bad = await unwrap(client.POST("/payments", { body: { amount: -5, paymentMethodId: "sbx_card" } })).catch((e: unknown) => e);
  assert.ok(bad instanceof ApiError, String(bad));
  assert.equal(bad.status, 400);
  assert.equal(bad.param, "amount");
});

/** A proxy in front of the server that fails on purpose, as networks and load balancers do. */
async function faultyProxy(plan: (req: http.IncomingMessage, n: number) => "forward" | "503" | "429" | "lose-answer") {
  let n = 0;
  const seen: { method: string; url: string; key?: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", async () => {
      const step = plan(req, n++);
      seen.push({ method: req.method!, url: req.url!, key: req.headers["idempotency-key"] as string | undefined });
      if (step === "503" || step === "429") {
        res.writeHead(Number(step), { "retry-after": "0", "content-type": "application/json" });
        res.end(JSON.stringify({ error: { code: step === "429" ? "rate_limit_exceeded" : "service_unavailable", type: "api_error", message: "try again" } }));
        return;
      }
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== "host" && k !== "content-length")) as Record<string, string>;
      const upstream = await fetch(`${API_URL}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
      const text = await upstream.text();
      if (step === "lose-answer") {
        res.destroy(); // the server acted; the client never hears it
        return;
      }
      res.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" });
      res.end(text);
    });
  });
  const served = await listenLocal(server);
  return { url: `${served.base}/api/v1`, seen, close: served.close };
}

test("retries: 503 with Retry-After is retried; a lost answer is retried with the same Idempotency-Key and creates one payment", async () => {
  const m = await newMerchant();
  const proxy = await faultyProxy((req, n) => (req.method === "GET" && n < 2 ? "503" : req.method === "POST" && req.url!.endsWith("/payments") && n < 4 ? "lose-answer" : "forward"));
  try {
    const retries: string[] = [];
    const client = createClient({ baseUrl: proxy.url, secretKey: m.sandbox.secretKey, baseDelayMs: 10, onRetry: (i) => retries.push(i.reason) });
    await unwrap(client.GET("/me"));
    assert.deepEqual(retries.slice(0, 2), ["HTTP 503", "HTTP 503"]);

    const orderId = `sdk-lost-${Date.now()}`;
    const p = await unwrap(client.POST("/payments", { body: { amount: 12, paymentMethodId: "sbx_card", merchantOrderId: orderId, ...BUYER } }));
    const posts = proxy.seen.filter((s) => s.method === "POST");
    assert.ok(posts.length >= 2, "the lost answer was retried");
    assert.equal(new Set(posts.map((s) => s.key)).size, 1, "one Idempotency-Key across the retries");
    const list = await unwrap(createClient({ baseUrl: BASE, secretKey: m.sandbox.secretKey }).GET("/payments", { params: { query: { merchantOrderId: orderId } } }));
    assert.deepEqual(list.data.map((t) => t.id), [p.transactionId], "exactly one payment for the order");
  } finally {
    await proxy.close();
  }
});

test("a POST whose Idempotency-Key the server does not bind (rotate a secret) is sent once: a lost answer or a 503 is not repeated, a 429 is", async () => {
  const m = await newMerchant();
  const direct = createClient({ baseUrl: BASE, secretKey: m.sandbox.secretKey });
  const hook = await unwrap(direct.POST("/webhooks", { body: { url: receiverUrl, events: ["payment.completed"] } }));
  const rotations = (seen: { method: string; url: string }[]) => seen.filter((s) => s.method === "POST" && s.url.endsWith("/rotate-secret"));
  for (const step of ["lose-answer", "503"] as const) {
    const proxy = await faultyProxy((req) => (req.url!.endsWith("/rotate-secret") ? step : "forward"));
    try {
      const retries: string[] = [];
      const client = createClient({ baseUrl: proxy.url, secretKey: m.sandbox.secretKey, baseDelayMs: 10, onRetry: (i) => retries.push(i.reason) });
      const res = await client.POST("/webhooks/{id}/rotate-secret", { params: { path: { id: hook.id } } }).catch((e: unknown) => e);
      if (step === "503") assert.equal((res as { response: Response }).response.status, 503);
      else assert.ok(res instanceof Error, "the lost answer reaches the caller");
      assert.equal(rotations(proxy.seen).length, 1, `${step}: sent once`);
      assert.deepEqual(retries, []);
      assert.equal(proxy.seen.at(-1)!.key, undefined, "no Idempotency-Key the server would ignore");
    } finally {
      await proxy.close();
    }
  }
  // A 429 says the server did not act: that one is repeated.
  const proxy = await faultyProxy((req, n) => (req.url!.endsWith("/rotate-secret") && n === 0 ? "429" : "forward"));
  try {
    const client = createClient({ baseUrl: proxy.url, secretKey: m.sandbox.secretKey, baseDelayMs: 10 });
    const rotated = await unwrap(client.POST("/webhooks/{id}/rotate-secret", { params: { path: { id: hook.id } } }));
    assert.ok(rotated.secret);
    assert.equal(rotations(proxy.seen).length, 2);
  } finally {
    await proxy.close();
  }
});

test("an access token the server refuses is replaced once, from the refresh token or the keys", async () => {
  const m = await newMerchant();
  let calls = 0;
  const client = createClient({
    baseUrl: BASE,
    secretKey: m.sandbox.secretKey,
    publishableKey: m.sandbox.publishableKey,
    // Spoil the first access token, as if it had expired on the server's clock.
    fetch: async (input, init) => {
      const headers = new Headers(init?.headers);
      if (String(input).endsWith("/me") && calls++ === 0) headers.set("authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.e30.spoiled");
      return fetch(input, { ...init, headers });
    },
  });
  const me = await unwrap(client.GET("/me"));
  assert.equal(me.environment, "sandbox");
  assert.equal(calls, 2);
});
