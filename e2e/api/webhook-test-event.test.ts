// "Send a test event" over real HTTP (issue 41, point 6): POST /webhooks/{id}/test delivers a
// signed `webhook.test` event (data.object: the subscription) to that subscription only,
// whatever its events list, through the normal pipeline: a local receiver verifies it with
// node:crypto alone, the delivery log shows it, a managed inbox stores it; the merchant's other
// subscriptions (even `*`) get nothing; a disabled subscription, another merchant's id and a live
// key are refused; nobody can subscribe to the type.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { createHmac, timingSafeEqual } from "node:crypto";
import { api, assertEnvelope, listenLocal, newMerchant, waitFor } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { EVENT_SCHEMAS } from "@/lib/events/payloads";

after(() => db().$disconnect());

function verify(header: string, body: string, secret: string): boolean {
  const fields = Object.fromEntries(header.split(",").map((kv) => kv.split("=") as [string, string]));
  const t = Number(fields.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > 300) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${body}`).digest();
  const given = Buffer.from(fields.v1 ?? "", "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

test("a signed webhook.test reaches the one subscription asked, through its delivery log; the others get nothing", async () => {
  const received: Array<{ path: string; body: string; headers: http.IncomingHttpHeaders }> = [];
  const served = await listenLocal(
    http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        received.push({ path: req.url ?? "/", body, headers: req.headers });
        res.end("ok");
      });
    }),
  );
  try {
    const m = await newMerchant();
    const key = m.sandbox.secretKey;
    // Subscribed to payouts only: a test event goes to it anyway.
    const sub = await api("/webhooks", { key, body: { url: `${served.base}/asked`, events: ["payout.failed"] } });
    assert.equal(sub.status, 200, sub.text);
    const other = await api("/webhooks", { key, body: { url: `${served.base}/other`, events: ["*"] } });
    assert.equal(other.status, 200, other.text);

    const sent = await api(`/webhooks/${sub.body.id}/test`, { key, body: {} });
    assert.equal(sent.status, 200, sent.text);
    assert.match(sent.body.id, /^dlv_/);
    assert.equal(sent.body.event, "webhook.test");
    assert.equal(sent.body.status, "pending");

    const [hit] = await waitFor(async () => received.filter((r) => r.path === "/asked").length > 0 && received.filter((r) => r.path === "/asked"), "the test delivery");
    assert.equal(hit!.headers["x-service-event"], "webhook.test");
    assert.equal(hit!.headers["x-service-delivery"], sent.body.id);
    assert.ok(verify(String(hit!.headers["x-service-signature"]), hit!.body, sub.body.secret), "signed with the subscription's secret");
    const event = JSON.parse(hit!.body);
    assert.equal(event.type, "webhook.test");
    assert.equal(event.id, hit!.headers["webhook-id"]);
    assert.deepEqual(event.data.object, (await api(`/webhooks/${sub.body.id}`, { key })).body, "data.object is the subscription as GET returns it");
    const parsed = EVENT_SCHEMAS["webhook.test"].safeParse(event);
    assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
    assert.deepEqual(parsed.data, event, "nothing the schema does not describe");

    const log = await waitFor(async () => {
      const r = await api(`/webhooks/${sub.body.id}/deliveries`, { key });
      return r.body.data?.[0]?.status === "succeeded" && r;
    }, "the delivery log entry");
    assert.equal(log.body.data.length, 1);
    assert.equal(log.body.data[0].id, sent.body.id);
    assert.equal(log.body.data[0].payload.id, event.id);
    // The `*` subscription was never offered it (the fan-out job ran: this payment's event reached it).
    const p = await api("/payments", { key, body: { amount: 5, paymentMethodId: "sbx_card" } });
    await api(`/payments/${p.body.transactionId}/simulate`, { key, body: { action: "failed" } });
    await waitFor(async () => received.some((r) => r.path === "/other"), "the payment's event at the other subscription");
    assert.deepEqual(received.filter((r) => r.path === "/other").map((r) => r.headers["x-service-event"]), ["payment.failed"]);
    assert.equal((await api(`/webhooks/${other.body.id}/deliveries?event=webhook.test`, { key })).body.data.length, 0);
    assert.equal((await api(`/events?type=webhook.test`, { key })).body.data.length, 1);
  } finally {
    await served.close();
  }
});

test("a managed inbox stores the test event; refusals: disabled, unknown, a live key, subscribing to the type", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const inbox = await api("/webhooks", { key, body: { events: ["payment.completed"] } });
  assert.equal((await api(`/webhooks/${inbox.body.id}/test`, { key, body: {} })).status, 200);
  const stored = await waitFor(async () => {
    const r = await api(`/webhooks/${inbox.body.id}/inbox`, { key });
    return r.body.data?.length === 1 && r.body.data[0];
  }, "the inbox message");
  assert.equal(stored.event, "webhook.test");
  assert.equal(stored.payload.data.object.id, inbox.body.id);

  assert.equal((await api(`/webhooks/${inbox.body.id}`, { key, method: "PATCH", body: { status: "disabled" } })).status, 200);
  const disabled = await api(`/webhooks/${inbox.body.id}/test`, { key, body: {} });
  assertEnvelope(disabled, "invalid_request", 400);
  assert.equal(disabled.body.error.param, "id");
  assertEnvelope(await api("/webhooks/whk_nope/test", { key, body: {} }), "webhook_not_found", 404);
  const stranger = await newMerchant();
  assertEnvelope(await api(`/webhooks/${inbox.body.id}/test`, { key: stranger.sandbox.secretKey, body: {} }), "webhook_not_found", 404);
  // The gate answers before any lookup: the live key is refused whatever the id.
  assertEnvelope(await api(`/webhooks/${inbox.body.id}/test`, { key: m.production.secretKey, body: {} }), "production_key_refused", 400);
  assert.equal(await db().event.count({ where: { merchantId: m.merchantId, environment: "production" } }), 0, "production wrote no event");
  assertEnvelope(await api("/webhooks", { key, body: { events: ["webhook.test"] } }), "invalid_request", 400);
});
