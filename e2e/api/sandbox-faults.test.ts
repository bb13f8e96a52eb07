// The Sandbox-Provider-Behaviour header over real HTTP: scripted declines, timeouts, 5xx and
// garbage in the sandbox cascade, a cascade exhausted with an unknown outcome keeping its payment
// (named in the error) that a late notice still completes, a lost notice found later, duplicate
// webhooks with the same event id, and the header's validation (live keys refused).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { api, assertEnvelope, newMerchant, waitFor, listenLocal } from "./helpers.ts";
import { db } from "@/lib/platform/db";

const HEADER = "Sandbox-Provider-Behaviour";
const received: { id: string; type: string; objectId: string }[] = [];
let receiver: http.Server;
let closeReceiver = async () => {};
let hookUrl = "";

before(async () => {
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const e = JSON.parse(body);
      received.push({ id: e.id, type: e.type, objectId: e.data?.object?.id });
      res.end("ok");
    });
  });
  const served = await listenLocal(receiver);
  closeReceiver = served.close;
  hookUrl = `${served.base}/hooks`;
});

after(async () => {
  await closeReceiver();
  await db().$disconnect();
});

const body = (extra: Record<string, unknown> = {}) => ({ amount: 20, paymentMethodId: "sbx_card", merchantOrderId: `faults-${Math.random().toString(36).slice(2)}`, ...extra });
const payWith = (key: string, behaviour: string, extra: Record<string, string> = {}, b = body()) => api("/payments", { key, body: b, headers: { [HEADER]: behaviour, ...extra } });

test("declines, timeouts, 5xx and garbage are recorded as the cascade's attempts; the next provider takes the charge", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const r = await payWith(key, "timeout, error,accept");
  assert.equal(r.status, 200, r.text);
  const got = await api(`/payments/${r.body.transactionId}`, { key });
  assert.deepEqual(
    got.body.attempts.map((a: { provider: string; outcome: string; reason: string | null }) => [a.provider, a.outcome, a.reason]),
    [["sandbox_fault_1", "unavailable", "timeout"], ["sandbox_fault_2", "unavailable", "http_503"], ["sandbox", "accepted", null]],
  );
});

test("every provider declining is 422 cascade_exhausted (all_providers_declined) and creates nothing", async () => {
  const m = await newMerchant();
  const b = body();
  const r = await payWith(m.sandbox.secretKey, "decline,decline", {}, b);
  assertEnvelope(r, "cascade_exhausted", 422);
  assert.equal(r.body.error.details.reason, "all_providers_declined");
  assert.equal(r.body.error.details.transactionId, undefined);
  assert.deepEqual(r.body.error.details.attempts.map((a: { outcome: string }) => a.outcome), ["declined", "declined"]);
  const list = await api(`/payments?merchantOrderId=${b.merchantOrderId}`, { key: m.sandbox.secretKey });
  assert.equal(list.body.data.length, 0);
});

test("an unknown outcome keeps the payment pending, named in the error; a late notice completes it once; the retry replays", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  await api("/webhooks", { key, body: { url: hookUrl, events: ["payment.completed"] } });
  const b = body();
  const headers = { "Idempotency-Key": `faults-${Date.now()}` };
  const r = await payWith(key, "decline,garbage,late_notice", headers, b);
  assertEnvelope(r, "cascade_exhausted", 422);
  assert.equal(r.body.error.details.reason, "providers_unavailable");
  const id = r.body.error.details.transactionId;
  assert.match(id, /^tx_/);
  assert.equal((await api(`/payments/${id}`, { key })).body.status, "pending");
  // The same request again (same key): the same answer, no second payment.
  const again = await payWith(key, "decline,garbage,late_notice", headers, b);
  assert.equal(again.status, 422);
  assert.equal(again.body.error.details.transactionId, id);
  assert.equal(again.headers.get("idempotent-replayed"), "true");
  await waitFor(async () => (await api(`/payments/${id}`, { key })).body.status === "completed", "the late notice completes the kept payment");
  await waitFor(async () => received.some((e) => e.objectId === id && e.type === "payment.completed"), "payment.completed for the kept payment");
  assert.equal((await api(`/payments?merchantOrderId=${b.merchantOrderId}`, { key })).body.data.length, 1);
});

test("a lost notice: the payment is found paid later by the status check", async () => {
  const m = await newMerchant();
  const r = await payWith(m.sandbox.secretKey, "lost_notice");
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.status, "pending");
  await waitFor(async () => (await api(`/payments/${r.body.transactionId}`, { key: m.sandbox.secretKey })).body.status === "completed", "found paid");
});

test("duplicate_notice: the merchant receives each webhook of the payment twice, same event id", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  await api("/webhooks", { key, body: { url: hookUrl, events: ["payment.completed"] } });
  const r = await payWith(key, "accept,duplicate_notice", { "Sandbox-Simulate": "paid" });
  assert.equal(r.status, 200, r.text);
  const id = r.body.transactionId;
  const twice = await waitFor(async () => {
    const mine = received.filter((e) => e.objectId === id && e.type === "payment.completed");
    return mine.length >= 2 ? mine : null;
  }, "the duplicate delivery", 15_000);
  assert.equal(new Set(twice.map((e) => e.id)).size, 1, "one event, delivered twice");
  assert.equal((await api(`/payments/${id}`, { key })).body.status, "completed");
});

test("the header is validated, and refused with a live key", async () => {
  const m = await newMerchant();
  for (const v of ["explode", "accept,decline", "timeout,timeout,timeout,accept", "late_notice,lost_notice"]) {
    const r = await payWith(m.sandbox.secretKey, v);
    assertEnvelope(r, "invalid_request", 400);
    assert.equal(r.body.error.param, HEADER, v);
  }
  const live = await payWith(m.production.secretKey, "decline");
  assertEnvelope(live, "production_key_refused", 400);
  assert.equal(live.body.error.param, HEADER);
  // The American spelling is accepted too.
  const us = await api("/payments", { key: m.sandbox.secretKey, body: body(), headers: { "Sandbox-Provider-Behavior": "decline" } });
  assertEnvelope(us, "cascade_exhausted", 422);
});
