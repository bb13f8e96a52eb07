// Deliveries verified by libraries nobody here wrote: the `standardwebhooks` package (Standard
// Webhooks headers) and Stripe's `webhooks.constructEvent` (the contract's X-Service-Signature).
// Every delivery verifies with the current secret in both styles; during a rotation a receiver
// still holding the previous secret verifies the Standard Webhooks signature made with it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { Webhook } from "standardwebhooks";
import Stripe from "stripe";
import { api, newMerchant, waitFor, listenLocal } from "./helpers.ts";
import { db } from "@/lib/platform/db";

type Hit = { body: string; headers: http.IncomingHttpHeaders };
const hits: Hit[] = [];
let receiver: http.Server;
let closeReceiver = async () => {};
let url = "";
const stripe = new Stripe("sk_test_not_used_for_verification");

before(async () => {
  receiver = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c) => (body += c));
    req.on("end", () => (hits.push({ body, headers: req.headers }), res.end("ok")));
  });
  const served = await listenLocal(receiver);
  closeReceiver = served.close;
  url = `${served.base}/hooks`;
});
after(async () => {
  await closeReceiver();
  await db().$disconnect();
});

const standardHeaders = (h: http.IncomingHttpHeaders) => ({ "webhook-id": String(h["webhook-id"]), "webhook-timestamp": String(h["webhook-timestamp"]), "webhook-signature": String(h["webhook-signature"]) });

async function paidDelivery(key: string): Promise<Hit> {
  const p = await api("/payments", { key, body: { amount: 10, paymentMethodId: "sbx_card" } });
  assert.equal(p.status, 200, p.text);
  await api(`/payments/${p.body.transactionId}/simulate`, { key, body: { action: "paid" } });
  return waitFor(async () => hits.find((h) => h.body.includes(p.body.transactionId)), "the delivery");
}

test("every delivery verifies with the current secret, in the Standard Webhooks style and with Stripe's verifier", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const sub = await api("/webhooks", { key, body: { url, events: ["payment.completed"] } });
  const secret: string = sub.body.secret;
  assert.match(secret, /^whsec_[A-Za-z0-9+/]{32}$/, "24 random bytes in base64, as Standard Webhooks libraries read them");
  const hit = await paidDelivery(key);

  const event = new Webhook(secret).verify(hit.body, standardHeaders(hit.headers)) as { id: string; type: string };
  assert.equal(event.type, "payment.completed");
  assert.equal(hit.headers["webhook-id"], event.id, "webhook-id is the event id");
  assert.equal(hit.headers["webhook-timestamp"], String(hit.headers["x-service-signature"]).match(/t=(\d+)/)![1], "one timestamp for both styles");

  const viaStripe = stripe.webhooks.constructEvent(hit.body, String(hit.headers["x-service-signature"]), secret);
  assert.equal(viaStripe.id, event.id);

  assert.throws(() => new Webhook("whsec_" + Buffer.alloc(24, 7).toString("base64")).verify(hit.body, standardHeaders(hit.headers)));
  assert.throws(() => stripe.webhooks.constructEvent(hit.body.replace("completed", "failed"), String(hit.headers["x-service-signature"]), secret));
});

test("during a rotation: one signature per active secret; the previous secret still verifies (Standard Webhooks)", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const sub = await api("/webhooks", { key, body: { url, events: ["payment.completed"] } });
  const old: string = sub.body.secret;
  const rotated = await api(`/webhooks/${sub.body.id}/rotate-secret`, { key, body: {} });
  assert.equal(rotated.status, 200, rotated.text);
  const current: string = rotated.body.secret;
  assert.notEqual(current, old);
  const hit = await paidDelivery(key);

  assert.equal(String(hit.headers["webhook-signature"]).split(" ").length, 2, "two signatures while both secrets are active");
  for (const s of [current, old]) assert.equal((new Webhook(s).verify(hit.body, standardHeaders(hit.headers)) as { type: string }).type, "payment.completed");
  assert.equal(stripe.webhooks.constructEvent(hit.body, String(hit.headers["x-service-signature"]), current).type, "payment.completed");
});
