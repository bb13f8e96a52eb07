// The events API and cursor paging over real HTTP: list, get, filters, 404s; `previousStatus`
// and per-object `sequence` in every event; cursor pages of payments and events that lose and
// repeat nothing while 1,000 payments are created in parallel; cursor errors; the document.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { api, assertEnvelope, newMerchant, waitFor } from "./helpers.ts";
import { db } from "@/lib/platform/db";

after(() => db().$disconnect());

const pay = (key: string, extra: Record<string, unknown> = {}) => api("/payments", { key, body: { amount: 10, paymentMethodId: "sbx_card", ...extra } });

test("events: list and get as delivered, with previousStatus and a per-object sequence; filters; 404s", async () => {
  const m = await newMerchant();
  const other = await newMerchant();
  const key = m.sandbox.secretKey;
  const p = await pay(key);
  const id = p.body.transactionId;
  await api(`/payments/${id}/simulate`, { key, body: { action: "paid" } });
  const refund = await api(`/payments/${id}/refund`, { key, body: { amount: 5 } });
  assert.equal(refund.status, 200, refund.text);
  const list = await waitFor(async () => {
    const r = await api(`/events?objectId=${id}`, { key });
    return r.body.data?.some((e: { type: string }) => e.type === "payment.completed") ? r : null;
  }, "the payment's events");
  type Ev = { id: string; type: string; data: { object: { status: string }; previousStatus: string | null; sequence: number } };
  const events = [...list.body.data].reverse() as Ev[];
  assert.deepEqual(events.map((e) => e.data.sequence), events.map((_, i) => i + 1), "1, 2, … in order of creation");
  const completed = events.find((e) => e.type === "payment.completed")!;
  assert.equal(completed.data.previousStatus, "pending");
  // The refund claim's own event: resolved, from pending (the kernel knows the row's status before).
  const claimId = refund.body.refundId ?? refund.body.claimId;
  const claimEvents = await waitFor(async () => {
    const r = await api(`/events?objectId=${claimId}`, { key });
    return r.body.data?.some((e: { type: string }) => e.type === "claim.resolved") ? ([...r.body.data].reverse() as Ev[]) : null;
  }, "the claim's events");
  assert.deepEqual(claimEvents.map((e) => [e.type, e.data.sequence]), [["claim.resolved", 1]]);
  assert.equal(claimEvents[0]!.data.previousStatus, "pending");

  const one = await api(`/events/${completed.id}`, { key });
  assert.equal(one.status, 200);
  assert.deepEqual(one.body, completed);
  assert.equal((await api(`/events?type=payment.completed`, { key })).body.data.every((e: { type: string }) => e.type === "payment.completed"), true);
  const future = new Date(Date.now() + 3_600_000).toISOString();
  assert.equal((await api(`/events?createdFrom=${encodeURIComponent(future)}`, { key })).body.data.length, 0);
  assert.ok((await api(`/events?createdTo=${encodeURIComponent(future)}`, { key })).body.data.length >= events.length);

  assertEnvelope(await api(`/events/${completed.id}`, { key: other.sandbox.secretKey }), "event_not_found", 404);
  assertEnvelope(await api(`/events/${completed.id}`, { key: m.production.secretKey }), "event_not_found", 404);
  assertEnvelope(await api(`/events/evt_nope`, { key }), "event_not_found", 404);
  assertEnvelope(await api(`/events?type=payment.nonsense`, { key }), "invalid_request", 400);
  assertEnvelope(await api(`/events?createdFrom=yesterday`, { key }), "invalid_request", 400);
});

/** Pages through `path` with the cursor, one way, collecting ids (asserting each page's size). */
async function pageAll(key: string, path: string, dir: "forward" | "backward", start: string | null) {
  const ids: string[] = [];
  let cursor = start;
  for (let i = 0; i < 500; i++) {
    const q = cursor ? `&${dir === "forward" ? "startingAfter" : "endingBefore"}=${cursor}` : "";
    const r = await api(`${path}${path.includes("?") ? "&" : "?"}limit=25${q}`, { key });
    assert.equal(r.status, 200, r.text);
    const page = r.body.data.map((x: { id: string }) => x.id) as string[];
    if (dir === "forward") ids.push(...page);
    else ids.unshift(...page);
    cursor = dir === "forward" ? r.body.nextCursor : r.body.previousCursor;
    if (!r.body.hasMore || !cursor) return ids;
  }
  throw new Error("paging did not end");
}

test("cursor paging of payments and events loses and repeats nothing while 1,000 payments arrive", async () => {
  const m = await newMerchant({ tier: "premium" });
  const key = m.sandbox.secretKey;
  for (let i = 0; i < 6; i++) await Promise.all(Array.from({ length: 25 }, () => pay(key)));
  const before = (await db().transaction.findMany({ where: { merchantId: m.merchantId, environment: "sandbox" }, select: { id: true } })).map((t) => t.id);
  assert.equal(before.length, 150);

  let creating = true;
  const arrivals = (async () => {
    for (let done = 0; done < 1000; done += 50) await Promise.all(Array.from({ length: 50 }, () => pay(key)));
    creating = false;
  })();
  const first = await api("/payments?limit=25", { key });
  const forward = [first.body.data.map((x: { id: string }) => x.id) as string[], await pageAll(key, "/payments", "forward", first.body.nextCursor)].flat();
  const oldest = forward.at(-1)!;
  const backward = await pageAll(key, "/payments", "backward", oldest);
  await arrivals;
  assert.equal(creating, false);

  for (const [name, ids] of [["forward", forward], ["backward", backward]] as const) {
    assert.equal(new Set(ids).size, ids.length, `${name}: no payment twice`);
    const seen = new Set(ids);
    assert.deepEqual(before.filter((id) => !seen.has(id) && id !== oldest), [], `${name}: every payment that existed is there`);
  }
  assert.ok(backward.length >= forward.length - 1, "paging back up reaches the payments that arrived meanwhile too");

  // The events of the same merchant page the same way.
  const events = await pageAll(key, "/events?type=payment.completed", "forward", null);
  assert.equal(new Set(events).size, events.length);
});

test("cursor errors: both cursors, a cursor with an offset, an unknown or foreign cursor are 400 naming the parameter", async () => {
  const m = await newMerchant();
  const other = await newMerchant();
  const key = m.sandbox.secretKey;
  const a = (await pay(key)).body.transactionId;
  const foreign = (await pay(other.sandbox.secretKey)).body.transactionId;
  for (const [q, param] of [
    [`startingAfter=${a}&endingBefore=${a}`, "endingBefore"],
    [`startingAfter=${a}&offset=10`, "offset"],
    [`startingAfter=tx_unknown`, "startingAfter"],
    [`endingBefore=${foreign}`, "endingBefore"],
  ] as const) {
    for (const path of ["/payments", "/me/payout/send", "/webhooks", "/events"]) {
      const r = await api(`${path}?${q}`, { key });
      assertEnvelope(r, "invalid_request", 400);
      assert.equal(r.body.error.param, param, `${path}?${q}`);
    }
  }
  // Offset paging still answers the offset envelope, with the cursors beside it.
  const page = await api("/payments?limit=1&offset=0", { key });
  assert.deepEqual(Object.keys(page.body.pagination).sort(), ["limit", "offset", "pages", "total"]);
  assert.equal(page.body.nextCursor, a);
});

test("the OpenAPI document describes the cursor parameters and answers of every list, and the events API", async () => {
  const doc = (await api("/openapi.json")).body;
  for (const path of ["/payments", "/transactions", "/me/payout/send", "/webhooks", "/webhooks/{id}/deliveries", "/webhooks/{id}/inbox", "/me/deposit-accounts", "/me/deposit-accounts/{id}/deposits", "/events"]) {
    const op = doc.paths[path].get;
    const names = op.parameters.map((p: { name: string }) => p.name);
    for (const n of ["limit", "offset", "startingAfter", "endingBefore"]) assert.ok(names.includes(n), `${path} ${n}`);
    const schema = JSON.stringify(op.responses["200"].content["application/json"].schema);
    assert.ok(schema.includes("hasMore") && schema.includes("nextCursor"), `${path} answers hasMore and cursors`);
  }
  assert.ok(doc.paths["/events/{id}"].get.responses["404"]);
});
