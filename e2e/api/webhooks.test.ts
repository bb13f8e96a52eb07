// Webhooks over real HTTP: a local receiver verifies signatures on its own (node:crypto only),
// rotation signs with both secrets, failures are retried on schedule (× WEBHOOK_RETRY_SCALE),
// replay delivers again, deleted and disabled subscriptions get nothing, the managed inbox stores
// what it receives.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { createHmac, timingSafeEqual } from "node:crypto";
import { api, assertEnvelope, newMerchant, waitFor } from "./helpers.ts";
import { db } from "@/lib/platform/db";

type Received = { body: string; headers: http.IncomingHttpHeaders; path: string };
const received: Received[] = [];
const plan = new Map<string, number[]>(); // path -> statuses to answer, in order (then 200)
let receiver: http.Server;
let base = "";

before(async () => {
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ body, headers: req.headers, path: req.url ?? "/" });
      const queue = plan.get(req.url ?? "/");
      const status = queue?.shift() ?? 200;
      res.writeHead(status, { "content-type": "text/plain" });
      res.end(status === 200 ? "ok" : "receiver failed");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(receiver.address() as import("node:net").AddressInfo).port}`;
});
after(async () => {
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
  await db().$disconnect();
});

/** A receiver's verification, written from docs/integrators/webhooks.md ("Verifying a delivery") with nothing but node:crypto. */
function verify(header: string, body: string, secret: string, version: "v1" | "v0" = "v1"): boolean {
  const fields = Object.fromEntries(header.split(",").map((kv) => kv.split("=") as [string, string]));
  const t = Number(fields.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > 300) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${body}`).digest();
  const given = Buffer.from(fields[version] ?? "", "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

let path = 0;
const nextPath = () => `/hook-${++path}`;
const at = (p: string) => received.filter((r) => r.path === p);

async function paidPayment(key: string) {
  const p = await api("/payments", { key, body: { amount: 20, paymentMethodId: "sbx_card" } });
  assert.equal(p.status, 200, p.text);
  const s = await api(`/payments/${p.body.transactionId}/simulate`, { key, body: { action: "paid" } });
  assert.equal(s.status, 200, s.text);
  return p.body.transactionId as string;
}

describe("subscriptions", () => {
  test("create shows the secret once; get, list and patch never show it", async () => {
    const m = await newMerchant();
    const key = m.sandbox.secretKey;
    const created = await api("/webhooks", { key, body: { url: `${base}${nextPath()}`, events: ["payment.completed"] } });
    assert.equal(created.status, 200, created.text);
    assert.match(created.body.id, /^whk_/);
    assert.match(created.body.secret, /^whsec_/);
    assert.equal(created.body.managed, false);
    assert.equal(created.body.status, "enabled");
    const got = await api(`/webhooks/${created.body.id}`, { key });
    assert.equal(got.body.secret, undefined);
    const list = await api("/webhooks?limit=1000", { key });
    assert.equal(list.body.pagination.total, 1);
    assert.equal(list.body.pagination.limit, 100);
    assert.equal(list.body.data[0].secret, undefined);
    const patched = await api(`/webhooks/${created.body.id}`, { key, method: "PATCH", body: { events: ["*"] } });
    assert.deepEqual(patched.body.events, ["*"]);
    assert.equal(patched.body.secret, undefined);
    const row = await db().webhookSubscription.findUniqueOrThrow({ where: { id: created.body.id } });
    assert.ok(!row.secretEncrypted.includes(created.body.secret.slice(6)), "the secret is encrypted at rest");
  });

  test("bad input and other merchants' ids", async () => {
    const a = await newMerchant();
    const b = await newMerchant();
    assertEnvelope(await api("/webhooks", { key: a.sandbox.secretKey, body: { events: ["payment.nonsense"] } }), "invalid_request", 400);
    assertEnvelope(await api("/webhooks", { key: a.sandbox.secretKey, body: { url: "ftp://x.test", events: ["*"] } }), "invalid_request", 400);
    assertEnvelope(await api("/webhooks", { key: a.sandbox.secretKey, body: { url: `${base}/x` } }), "missing_field", 400);
    // Production refuses http and private addresses (SSRF guard); the sandbox allows them.
    assertEnvelope(await api("/webhooks", { key: a.production.secretKey, body: { url: `${base}/x`, events: ["*"] } }), "invalid_request", 400);
    assertEnvelope(await api("/webhooks", { key: a.production.secretKey, body: { url: "https://127.0.0.1/x", events: ["*"] } }), "invalid_request", 400);
    const mine = await api("/webhooks", { key: a.sandbox.secretKey, body: { url: `${base}/x`, events: ["*"] } });
    for (const [method, p] of [["GET", ""], ["PATCH", ""], ["DELETE", ""], ["POST", "/rotate-secret"], ["GET", "/deliveries"], ["GET", "/inbox"]] as const) {
      assertEnvelope(await api(`/webhooks/${mine.body.id}${p}`, { key: b.sandbox.secretKey, method, body: method === "PATCH" ? { events: ["*"] } : undefined }), "webhook_not_found", 404);
    }
    // The same merchant's production key does not see sandbox subscriptions either.
    assertEnvelope(await api(`/webhooks/${mine.body.id}`, { key: a.production.secretKey }), "webhook_not_found", 404);
    assertEnvelope(await api(`/webhooks/${mine.body.id}/deliveries/dlv_unknown/replay`, { key: a.sandbox.secretKey, method: "POST" }), "webhook_delivery_not_found", 404);
  });
});

describe("delivery", () => {
  test("a signed POST with the section 6 headers, verifiable on its own", async () => {
    const m = await newMerchant();
    const key = m.sandbox.secretKey;
    const p = nextPath();
    const sub = await api("/webhooks", { key, body: { url: `${base}${p}`, events: ["payment.completed"] } });
    const txId = await paidPayment(key);
    const [hit] = await waitFor(async () => at(p).length > 0 && at(p), "the delivery");
    assert.equal(hit!.headers["x-service-event"], "payment.completed");
    assert.match(String(hit!.headers["x-service-delivery"]), /^dlv_/);
    assert.ok(verify(String(hit!.headers["x-service-signature"]), hit!.body, sub.body.secret), "v1 verifies with the secret");
    assert.ok(!verify(String(hit!.headers["x-service-signature"]), hit!.body, "whsec_wrong"), "and not with another");
    const event = JSON.parse(hit!.body);
    assert.match(event.id, /^evt_/);
    assert.equal(event.type, "payment.completed");
    assert.equal(event.environment, "sandbox");
    assert.equal(event.apiVersion, "2026-05-01");
    assert.equal(event.data.object.id, txId);
    assert.equal(event.data.object.status, "completed");
    // Only the subscribed type was delivered (payment.captured fired too).
    assert.equal(at(p).length, 1);
    const log = await waitFor(async () => {
      const r = await api(`/webhooks/${sub.body.id}/deliveries`, { key });
      return r.body.data[0]?.status === "succeeded" && r;
    }, "the log entry");
    const d = log.body.data[0];
    assert.equal(d.attempts, 1);
    assert.equal(d.responseStatus, 200);
    assert.equal(d.responseBody, "ok");
    assert.equal(d.event, "payment.completed");
    assert.equal(d.payload.id, event.id);
    assert.equal(typeof d.durationMs, "number");
  });

  test("rotation: for 24 h deliveries carry v1 (new secret) and v0 (previous), each verifiable with its own", async () => {
    const m = await newMerchant();
    const key = m.sandbox.secretKey;
    const p = nextPath();
    const sub = await api("/webhooks", { key, body: { url: `${base}${p}`, events: ["payment.completed"] } });
    const rotated = await api(`/webhooks/${sub.body.id}/rotate-secret`, { key, method: "POST" });
    assert.equal(rotated.status, 200, rotated.text);
    assert.notEqual(rotated.body.secret, sub.body.secret);
    await paidPayment(key);
    const [hit] = await waitFor(async () => at(p).length > 0 && at(p), "the delivery");
    const header = String(hit!.headers["x-service-signature"]);
    assert.match(header, /^t=\d+,v1=[0-9a-f]{64},v0=[0-9a-f]{64}$/);
    assert.ok(verify(header, hit!.body, rotated.body.secret, "v1"));
    assert.ok(verify(header, hit!.body, sub.body.secret, "v0"));
    assert.ok(!verify(header, hit!.body, sub.body.secret, "v1"));
  });

  test("a receiver failing with 500 twice gets the third attempt; the log shows 3 attempts", async () => {
    const m = await newMerchant();
    const key = m.sandbox.secretKey;
    const p = nextPath();
    plan.set(p, [500, 500]);
    const sub = await api("/webhooks", { key, body: { url: `${base}${p}`, events: ["payment.completed"] } });
    await paidPayment(key);
    const log = await waitFor(async () => {
      const r = await api(`/webhooks/${sub.body.id}/deliveries`, { key });
      return r.body.data[0]?.status === "succeeded" && r;
    }, "the third attempt", 20_000);
    assert.equal(log.body.data[0].attempts, 3);
    assert.equal(at(p).length, 3);
    assert.equal(new Set(at(p).map((r) => r.headers["x-service-delivery"])).size, 1, "one delivery id across attempts");
    const failing = await api(`/webhooks/${sub.body.id}/deliveries?status=failed`, { key });
    assert.equal(failing.body.pagination.total, 0);
  });

  test("replay delivers again at once", async () => {
    const m = await newMerchant();
    const key = m.sandbox.secretKey;
    const p = nextPath();
    const sub = await api("/webhooks", { key, body: { url: `${base}${p}`, events: ["payment.completed"] } });
    await paidPayment(key);
    const first = await waitFor(async () => {
      const r = await api(`/webhooks/${sub.body.id}/deliveries`, { key });
      return r.body.data[0]?.status === "succeeded" && r.body.data[0];
    }, "the first delivery");
    const replay = await api(`/webhooks/${sub.body.id}/deliveries/${first.id}/replay`, { key, method: "POST" });
    assert.equal(replay.status, 200, replay.text);
    assert.equal(replay.body.status, "pending");
    await waitFor(async () => at(p).length === 2, "the replayed delivery");
    assert.equal(at(p)[1]!.headers["x-service-delivery"], first.id);
  });

  test("deleted and disabled subscriptions get nothing", async () => {
    const m = await newMerchant();
    const key = m.sandbox.secretKey;
    const [pDeleted, pDisabled, pControl] = [nextPath(), nextPath(), nextPath()];
    const deleted = await api("/webhooks", { key, body: { url: `${base}${pDeleted}`, events: ["*"] } });
    const disabled = await api("/webhooks", { key, body: { url: `${base}${pDisabled}`, events: ["*"] } });
    const control = await api("/webhooks", { key, body: { url: `${base}${pControl}`, events: ["*"] } });
    assert.equal((await api(`/webhooks/${deleted.body.id}`, { key, method: "DELETE" })).body.deleted, true);
    assertEnvelope(await api(`/webhooks/${deleted.body.id}`, { key }), "webhook_not_found", 404);
    assert.equal((await api(`/webhooks/${disabled.body.id}`, { key, method: "PATCH", body: { status: "disabled" } })).body.status, "disabled");
    await paidPayment(key);
    // The control subscription hears both events: by then the others have been passed over too.
    await waitFor(async () => at(pControl).length >= 2, "the control deliveries");
    const { fanOutEvents } = await import("@/lib/webhooks/fan-out-events");
    await fanOutEvents();
    assert.equal(at(pDeleted).length, 0);
    assert.equal(at(pDisabled).length, 0);
    assert.equal(await db().webhookDelivery.count({ where: { subscriptionId: { in: [deleted.body.id, disabled.body.id] } } }), 0);
    void control;
  });

  test("a subscription whose deliveries have only failed for 5 days is disabled", async () => {
    const m = await newMerchant();
    const key = m.sandbox.secretKey;
    const p = nextPath();
    plan.set(p, [500, 500, 500, 500]);
    const sub = await api("/webhooks", { key, body: { url: `${base}${p}`, events: ["payment.completed"] } });
    // Failing since six days ago: the next failed attempt disables it.
    await db().webhookSubscription.update({ where: { id: sub.body.id }, data: { failingSince: new Date(Date.now() - 6 * 86_400_000) } });
    await paidPayment(key);
    await waitFor(async () => (await api(`/webhooks/${sub.body.id}`, { key })).body.status === "disabled", "the subscription disabled");
    const log = await api(`/webhooks/${sub.body.id}/deliveries`, { key });
    assert.equal(log.body.data[0].responseStatus, 500);
    // Re-enabling clears the failure run (a retry still due may fail again at once and start a new one).
    const enabledAt = Date.now();
    const enabled = await api(`/webhooks/${sub.body.id}`, { key, method: "PATCH", body: { status: "enabled" } });
    assert.equal(enabled.body.status, "enabled");
    const since = (await db().webhookSubscription.findUniqueOrThrow({ where: { id: sub.body.id } })).failingSince;
    assert.ok(since === null || since.getTime() >= enabledAt - 5, `the old failure run is gone (failingSince ${since?.toISOString()})`);
  });

  test("the managed inbox receives real signed deliveries and lists them newest first", async () => {
    const m = await newMerchant();
    const key = m.sandbox.secretKey;
    const sub = await api("/webhooks", { key, body: { events: ["payment.completed", "payment.failed"] } });
    assert.equal(sub.body.managed, true);
    assert.match(sub.body.url, /\/api\/inbox\/whk_/);
    const first = await paidPayment(key);
    const second = await api("/payments", { key, body: { amount: 5, paymentMethodId: "sbx_card" } });
    await api(`/payments/${second.body.transactionId}/simulate`, { key, body: { action: "failed" } });
    const inbox = await waitFor(async () => {
      const r = await api(`/webhooks/${sub.body.id}/inbox`, { key });
      // The page and its total are two reads: wait until both show the two messages.
      return r.body.pagination?.total === 2 && r.body.data?.length === 2 && r;
    }, "two inbox messages");
    assert.deepEqual(inbox.body.data.map((x: any) => x.event).sort(), ["payment.completed", "payment.failed"]);
    assert.ok(Date.parse(inbox.body.data[0].receivedAt) >= Date.parse(inbox.body.data[1].receivedAt));
    assert.ok(inbox.body.data.some((x: any) => x.payload.data.object.id === first));
    // An unsigned post to the inbox is refused like any receiver would.
    const forged = await fetch(sub.body.url, { method: "POST", headers: { "content-type": "application/json", "x-service-signature": "t=1,v1=00" }, body: "{}" });
    assert.equal(forged.status, 401);
  });
});
