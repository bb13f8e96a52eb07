// The retention job against real rows: what is past its window goes, in batches; what is still
// needed stays (a processing idempotency record, a pending scheduled action or delivery, an event
// with a delivery still pending, anything recent).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { db } from "@/lib/platform/db";
import { newId } from "@/lib/platform/ids";
import { api, newMerchant } from "./helpers.ts";
import { purgeExpired } from "@/lib/jobs/purge-expired";

after(() => db().$disconnect());

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY);

test("the retention job deletes what is past its window and nothing else", async () => {
  const m = await newMerchant();
  const env = "sandbox" as const;
  const idem = (state: string, expiresAt: Date) =>
    db().idempotencyRecord.create({ data: { id: newId("idempotency"), merchantId: m.merchantId, environment: env, idempotencyKey: newId("idempotency"), method: "POST", path: "/x", requestHash: "h", state, lockedUntil: expiresAt, expiresAt } });
  const expired = await idem("completed", ago(1));
  const stillRunning = await idem("processing", ago(1));
  const fresh = await idem("completed", new Date(Date.now() + DAY));

  const inbox = (receivedAt: Date) => db().inboxMessage.create({ data: { id: newId("inboxMessage"), subscriptionId: "whk_retention", deliveryId: "dlv_x", event: "payment.completed", payload: {}, signature: "s", verified: true, receivedAt } });
  const oldInbox = await inbox(ago(31));
  const newInbox = await inbox(ago(1));

  const action = (state: string, doneAt: Date | null, dueAt: Date) => db().scheduledAction.create({ data: { id: newId("scheduledAction"), kind: "payment_simulation", action: "paid", state, doneAt, dueAt } });
  const oldDone = await action("done", ago(8), ago(8));
  // Pending (due in the future, so the server's runner leaves it alone), created long ago.
  const oldPending = await action("pending", null, new Date(Date.now() + 365 * DAY));
  const recentDone = await action("done", ago(1), ago(1));

  const event = (createdAt: Date, fanned: boolean) => db().event.create({ data: { id: newId("event"), merchantId: m.merchantId, environment: env, type: "payment.completed", payload: {}, createdAt, fannedOutAt: fanned ? createdAt : null } });
  const oldEvent = await event(ago(31), true);
  const oldEventPending = await event(ago(31), true);
  const oldEventUnfanned = await event(ago(31), false);
  const newEvent = await event(ago(1), true);
  const sub = (await api("/webhooks", { key: m.sandbox.secretKey, body: { events: ["payment.completed"] } })).body.id as string;
  const delivery = (eventId: string, status: string, createdAt: Date) => db().webhookDelivery.create({ data: { id: newId("delivery"), subscriptionId: sub, eventId, event: "payment.completed", status, createdAt } });
  const oldSucceeded = await delivery(oldEvent.id, "succeeded", ago(31));
  const oldPendingDelivery = await delivery(oldEventPending.id, "pending", ago(31));

  const log = (createdAt: Date) => db().apiRequestLog.create({ data: { id: newId("request"), merchantId: m.merchantId, environment: env, method: "GET", path: "/x", status: 200, requestId: "req_x", keyId: "k", durationMs: 1, createdAt } });
  const oldLog = await log(ago(8));
  const newLog = await log(ago(1));

  const first = await purgeExpired({ batchSize: 2 });
  assert.ok(Object.values(first).every((n) => n >= 0));

  const exists = async (model: { findUnique: (a: { where: { id: string } }) => Promise<unknown> }, id: string) => (await model.findUnique({ where: { id } })) !== null;
  assert.equal(await exists(db().idempotencyRecord, expired.id), false);
  assert.equal(await exists(db().idempotencyRecord, stillRunning.id), true, "a processing record stays");
  assert.equal(await exists(db().idempotencyRecord, fresh.id), true);
  assert.equal(await exists(db().inboxMessage, oldInbox.id), false);
  assert.equal(await exists(db().inboxMessage, newInbox.id), true);
  assert.equal(await exists(db().scheduledAction, oldDone.id), false);
  assert.equal(await exists(db().scheduledAction, oldPending.id), true, "a pending action stays, however old");
  assert.equal(await exists(db().scheduledAction, recentDone.id), true);
  assert.equal(await exists(db().event, oldEvent.id), false);
  // (An event not fanned out yet is guarded too, but the server's fan-out job marks this one at once.)
  void oldEventUnfanned;
  assert.equal(await exists(db().event, newEvent.id), true);
  assert.equal(await exists(db().event, oldEventPending.id), true, "an event with a delivery still pending stays");
  assert.equal(await exists(db().webhookDelivery, oldSucceeded.id), false);
  assert.equal(await exists(db().webhookDelivery, oldPendingDelivery.id), true, "a pending delivery stays");
  assert.equal(await exists(db().apiRequestLog, oldLog.id), false);
  assert.equal(await exists(db().apiRequestLog, newLog.id), true);
});
