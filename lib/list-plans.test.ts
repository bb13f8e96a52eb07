// Scoped lists for an owner the statistics never saw: a merchant (or webhook subscription) that
// signed up, or was too small to be sampled, at the last ANALYZE, and has grown since. The planner
// puts it at one row. Every list pages in (created_at DESC, id DESC) order (lib/platform/paging/pagination.ts).
// While the lists' indexes ended at created_at, one row made a full sort look cheaper than walking
// the index and sorting ties; and an index led by the same owner but narrower (events' object
// index) looked cheaper still. Either way every page read all of the owner's rows and sorted them
// (migration list_order_indexes). Here: a crowd analysed, then a new owner with 12,000 rows.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { db, sql } from "@/lib/platform/db";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { listEvents } from "@/lib/events/list-events";
import { seal } from "@/lib/platform/crypto/secret-box";
import { assertNoSort } from "@/lib/test-fixtures/plans";

after(() => db().$disconnect());

/** The page statement planned for its values (a custom plan, as a driver's first runs get): no sort, and a walk that stops at the page. */
async function assertWalksPage(statement: string) {
  const [explained] = await sql<{ "QUERY PLAN": unknown }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement}`);
  const plan = JSON.stringify(explained!["QUERY PLAN"]);
  assertNoSort(plan, `no sort of the owner's rows: ${plan}`);
  const scan = /"Node Type":"Index Scan".*?"Actual Rows":(\d+)/.exec(plan);
  assert.ok(scan && Number(scan[1]) <= 51, `the index walk stops at the page: ${plan}`);
}

/** `n` events of a merchant in the last hour, one millisecond apart, three to an object (sequences 1-3); fanned out already, so no job touches them. */
async function addEvents(merchantId: string, n: number, tag: string) {
  await sql(
    `INSERT INTO events (id, merchant_id, environment, type, payload, object_id, sequence, fanned_out_at, created_at)
     SELECT 'evt_' || $3 || lpad(g::text, 8, '0'), $1, 'sandbox', 'payment.failed',
            jsonb_build_object('id', 'evt_' || $3 || lpad(g::text, 8, '0'), 'type', 'payment.failed'),
            'tx_' || $3 || lpad((g / 3)::text, 8, '0'), g % 3 + 1, now(), now() - interval '1 hour' + g * interval '1 millisecond'
       FROM generate_series(1, $2::int) AS g`,
    [merchantId, n, tag],
  );
}

test("GET /events: a merchant the statistics never saw pages its newest events without reading them all", async () => {
  const crowd = await createMerchant({ name: "Events before ANALYZE" });
  await addEvents(crowd.merchantId, 40_000, `c${crowd.merchantId.slice(-6)}_`);
  await sql("ANALYZE events");
  const m = await createMerchant({ name: "Events after ANALYZE" });
  await addEvents(m.merchantId, 12_000, `n${m.merchantId.slice(-6)}_`);

  const since = new Date(Date.now() - 30 * 86_400_000).toISOString();
  await assertWalksPage(`SELECT id, created_at, payload FROM events WHERE merchant_id = '${m.merchantId}' AND environment = 'sandbox' AND created_at >= '${since}' ORDER BY created_at DESC, id DESC LIMIT 50`);

  // An object's newest event (the next sequence, lib/platform/outbox/emit.ts; a buyer's result page): one
  // probe of the object index, never the merchant's events filtered and sorted.
  const object = `tx_n${m.merchantId.slice(-6)}_${String(2_000).padStart(8, "0")}`;
  const [byObject] = await sql<{ "QUERY PLAN": unknown }>(
    `EXPLAIN (ANALYZE, FORMAT JSON) SELECT id, sequence FROM events WHERE merchant_id = '${m.merchantId}' AND environment = 'sandbox' AND object_id = '${object}' ORDER BY sequence DESC LIMIT 1`,
  );
  const objectPlan = JSON.stringify(byObject!["QUERY PLAN"]);
  assert.match(objectPlan, /"Index Name":"events_object_id_merchant_id_environment_sequence_idx"/, objectPlan);
  assertNoSort(objectPlan, objectPlan);

  const page = (await listEvents({ merchant: { id: m.merchantId }, environment: "sandbox" }, { limit: 50 })) as unknown as { data: Array<{ id: string }> };
  const newest = await sql<{ id: string }>(`SELECT id FROM events WHERE merchant_id = $1 ORDER BY created_at DESC, id DESC LIMIT 50`, [m.merchantId]);
  assert.deepEqual(page.data.map((e) => e.id), newest.map((r) => r.id), "the newest 50, in order");
});

/** A subscription (disabled: no job delivers to it) with `n` deliveries in the last hour: delivered, but one in `failedEvery` failed. */
async function subscriptionWithDeliveries(merchantId: string, n: number, tag: string, failedEvery = n + 1): Promise<string> {
  const id = `whs_${tag}`;
  await sql(`INSERT INTO webhook_subscriptions (id, merchant_id, environment, url, events, status, secret_encrypted, updated_at) VALUES ($1, $2, 'sandbox', 'https://example.com/hook', '{}', 'disabled', $3, now())`, [id, merchantId, seal("whsec_test")]);
  await sql(
    `INSERT INTO webhook_deliveries (id, subscription_id, event_id, event, status, attempts, created_at, updated_at)
     SELECT 'whd_' || $3 || lpad(g::text, 8, '0'), $1, 'evt_' || $3 || lpad(g::text, 8, '0'), 'payment.failed',
            CASE WHEN g % $4 = 0 THEN 'failed' ELSE 'succeeded' END, 1, now() - interval '1 hour' + g * interval '1 millisecond', now()
       FROM generate_series(1, $2::int) AS g`,
    [id, n, tag, failedEvery],
  );
  return id;
}

test("a subscription's deliveries: one the statistics never saw pages its newest without reading them all", async () => {
  const m = await createMerchant({ name: "Deliveries" });
  await subscriptionWithDeliveries(m.merchantId, 40_000, `c${m.merchantId.slice(-6)}_`);
  await sql("ANALYZE webhook_deliveries");
  const fresh = await subscriptionWithDeliveries(m.merchantId, 12_000, `n${m.merchantId.slice(-6)}_`);
  await assertWalksPage(`SELECT * FROM webhook_deliveries WHERE subscription_id = '${fresh}' ORDER BY created_at DESC, id DESC LIMIT 50`);
});

// ?status=failed (or pending) on a grown subscription: the few undelivered among 40,000 delivered.
// On the list's index alone the walk reads every delivery of the subscription to find them.
test("a subscription's deliveries of a rare status: read on their own index, not found among every delivered one", async () => {
  const m = await createMerchant({ name: "Deliveries by status" });
  const sub = await subscriptionWithDeliveries(m.merchantId, 40_000, `f${m.merchantId.slice(-6)}_`, 500);
  await sql("ANALYZE webhook_deliveries");
  const statement = `SELECT * FROM webhook_deliveries WHERE subscription_id = '${sub}' AND status = 'failed' ORDER BY created_at DESC, id DESC LIMIT 50`;
  const [explained] = await sql<{ "QUERY PLAN": unknown }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement}`);
  const plan = JSON.stringify(explained!["QUERY PLAN"]);
  assert.match(plan, /"Index Name":"webhook_deliveries_subscription_id_status_created_at_id_idx"/, plan);
  assertNoSort(plan, plan);
  assert.doesNotMatch(plan, /"Rows Removed by Filter":[1-9]/, `no delivered row read and dropped: ${plan}`);
  const rows = await sql<{ id: string; status: string }>(statement);
  assert.equal(rows.length, 50);
  assert.ok(rows.every((r) => r.status === "failed"));
  // Delivered at last: the row leaves the list of failed ones.
  await sql(`UPDATE webhook_deliveries SET status = 'succeeded' WHERE id = $1`, [rows[0]!.id]);
  assert.ok(!(await sql<{ id: string }>(statement)).some((r) => r.id === rows[0]!.id));
});

/** `n` payouts of a merchant in the last hour, one in `failedEvery` failed, one millisecond apart. */
async function addPayouts(merchantId: string, n: number, tag: string, failedEvery: number) {
  await sql(
    `INSERT INTO payouts (id, merchant_id, environment, method_id, method_name, rail, country, currency, amount, debited, status, provider, recipient, created_at, updated_at)
     SELECT 'po_' || $3 || lpad(g::text, 8, '0'), $1, 'sandbox', 'spei', 'SPEI', 'spei', 'MEX', 'MXN', 10000, true,
            (CASE WHEN g % $4 = 0 THEN 'failed' ELSE 'completed' END)::"PayoutStatus", 'sandbox', '{}', now() - interval '1 hour' + g * interval '1 millisecond', now()
       FROM generate_series(1, $2::int) AS g`,
    [merchantId, n, tag, failedEvery],
  );
}

// Here the merchant was sampled (200 payouts at ANALYZE), so it is estimated at a few hundred
// rows, not one; with a status the planner ANDed the list's index with the jobs' (status, …)
// indexes over all the merchant's rows and sorted what matched.
test("GET /me/payout/send?status=…: a merchant grown since the statistics pages its payouts of that status without reading them all", async () => {
  const crowd = await createMerchant({ name: "Payouts crowd" });
  await addPayouts(crowd.merchantId, 40_000, `c${crowd.merchantId.slice(-6)}_`, 15);
  const m = await createMerchant({ name: "Payouts, small at ANALYZE" });
  await addPayouts(m.merchantId, 200, `s${m.merchantId.slice(-6)}_`, 15);
  await sql("ANALYZE payouts");
  await addPayouts(m.merchantId, 12_000, `n${m.merchantId.slice(-6)}_`, 2);
  for (const status of ["failed", "completed"]) {
    await assertWalksPage(`SELECT * FROM payouts WHERE merchant_id = '${m.merchantId}' AND environment = 'sandbox' AND status = '${status}' ORDER BY created_at DESC, id DESC LIMIT 50`);
  }
});

// The settlement job's due payments (lib/settlements/settle-balances.ts) come from its queue index, which
// holds only completed payments not yet settled: not every payment ever made.
// (Sequential scans off: the suite's table may be nearly empty; what is checked is which index serves.)
test("the settlement job reads its queue, not the payments", async () => {
  const plan = await db().$transaction(async (tx) => {
    await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
    const [explained] = await tx.$queryRawUnsafe<Array<{ "QUERY PLAN": unknown }>>(
      `EXPLAIN (FORMAT JSON) SELECT id FROM transactions WHERE completed_at IS NOT NULL AND settlement_status = 'pending' AND settle_at <= now() ORDER BY settle_at ASC LIMIT 500`,
    );
    return JSON.stringify(explained!["QUERY PLAN"]);
  });
  assert.match(plan, /"Index Name":"transactions_settle_at_idx"/, plan);
  assert.doesNotMatch(plan, /"Node Type":"Sort"/, plan);
});

test("the checkout expiry job's purge reads the sessions expired 30 days ago, not the month's", async () => {
  const plan = await db().$transaction(async (tx) => {
    await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
    const [explained] = await tx.$queryRawUnsafe<Array<{ "QUERY PLAN": unknown }>>(`EXPLAIN (FORMAT JSON) DELETE FROM checkout_sessions WHERE expires_at < now() - interval '30 days'`);
    return JSON.stringify(explained!["QUERY PLAN"]);
  });
  // Not the (status, expires_at) index either: led by the status, its whole length would be read.
  assert.match(plan, /"Index Name":"checkout_sessions_expires_at_idx"/, `a range of the expiry index: ${plan}`);
});
