// GET /payments' kept items (lib/payments/list/kept-items.ts) against the test database: the JSON
// the API writes and the request log's redacted text, joined from kept parts, are exactly what
// serialising and redacting the answer object give; every item equals the payment read alone;
// a row changed by any writer (Prisma, or a raw UPDATE that leaves updated_at alone) is shown as
// it is now on the next read, on offset and cursor pages alike.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { db, genericPlanOf, sql } from "@/lib/platform/db";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { insertTransaction } from "@/lib/payments/store";
import { railById } from "@/lib/rails/rails";
import { newId } from "@/lib/platform/ids";
import { listPayments, listPaymentsAnswer } from "@/lib/payments/list-payments";
import { getPayment } from "@/lib/payments/get-payment";
import { paymentsPageStatement } from "@/lib/payments/list/pages";
import { copyTransactions } from "@/lib/test-fixtures/copy-transactions";
import { sharedReadStats } from "@/lib/platform/shared-reads";
import { jsonOf } from "@/lib/platform/contract/json-text";
import { redactedAnswerJson } from "@/lib/platform/contract/redact-answer";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import { assertNoSort } from "@/lib/test-fixtures/plans";

after(() => db().$disconnect());

async function merchantWithPayments(n: number, name = "List keeper") {
  const m = await createMerchant({ name });
  const rail = railById("1004")!;
  const templateId = newId("transaction");
  const at = new Date(Date.now() - 60_000);
  // Failed, with a deadline a day away: no job (expiry, status checks, settlement) touches these
  // rows while the tests read them, nor pays for thousands of them in a suite sharing the database.
  const expiresAt = new Date(Date.now() + 86_400_000);
  await db().$transaction((tx) =>
    insertTransaction(
      {
        id: templateId, merchantId: m.merchantId, shopId: m.shopId, environment: "sandbox", status: "failed", amountUsd: 2500n, amountLocal: 45500n, currencyLocal: "MXN",
        inputCurrency: null, inputAmount: null, paymentMethodId: rail.paymentMethodId, method: rail.method, railName: rail.name, country: rail.countryIso3,
        feePlatform: 90n, feeProvider: 63n, feeNetwork: 50n, reserveAmount: 0n, settlementDelay: rail.settlementDelay, provider: "pagosur", providerRef: null,
        paymentFormUrl: null, instructions: null, hostedCheckout: true, returnUrl: "https://shop.example/back", merchantOrderId: "order-template", qrOrderId: null, tag1: "a", tag2: null, tag3: null,
        userName: "Ana Ruiz", userEmail: "ana@example.com", userPhone: "+525512345678", userIp: null, expiresAt, createdAt: at,
        attempts: [{ provider: "pagosur", outcome: "success", reason: null, durationMs: 12 }],
        settlementStatus: "pending", settleAt: null, refundedLocal: 0n, pendingDebited: 0n, reserveReleaseAt: null, reserveReleasedAt: null, completedAt: null,
      },
      "18.2",
      tx,
    ),
  );
  const ids = Array.from({ length: n - 1 }, () => newId("transaction"));
  // Each copy a millisecond apart, so the list's order is known.
  await copyTransactions(
    templateId,
    { id: "n.id", created_at: "now() - (n.i * interval '1 millisecond')", merchant_order_id: "n.id" },
    "unnest($2::text[]) WITH ORDINALITY AS n(id, i)",
    [ids],
  );
  const auth = { merchant: { id: m.merchantId }, environment: "sandbox" } as unknown as AuthContext;
  return { auth, ids, templateId, shopId: m.shopId };
}

/** The answer as the API writes it, checked against serialising and redacting its object. */
async function listed(auth: AuthContext, query: Record<string, unknown>) {
  const answer = await listPaymentsAnswer(auth, query as never);
  const written = Buffer.from(jsonOf(answer) as Uint8Array).toString("utf8");
  assert.equal(written, JSON.stringify(answer), "the written JSON is the object's JSON");
  const plain = JSON.parse(written);
  assert.equal(redactedAnswerJson(answer), redactedAnswerJson(plain), "the logged text is the object's redaction");
  return plain as { data: Array<{ id: string; status: string }>; hasMore: boolean; nextCursor: string | null };
}

test("kept items: the written and logged JSON equal the object's; items equal the payment read alone; changes show", async () => {
  const { auth, ids } = await merchantWithPayments(60);
  const cold = await listed(auth, { limit: 50 });
  assert.equal(cold.data.length, 50);
  assert.deepEqual(cold.data.map((d) => d.id), ids.slice(0, 50));
  const warm = await listed(auth, { limit: 50 });
  assert.deepEqual(warm, cold, "a second read from kept items answers the same");
  for (const id of [ids[0]!, ids[25]!, ids[49]!]) {
    assert.deepEqual(cold.data.find((d) => d.id === id), JSON.parse(JSON.stringify(await getPayment(auth, id))), `item ${id} equals GET /payments/${id}`);
  }
  // The dashboard's object form is the same list.
  assert.deepEqual(JSON.parse(JSON.stringify(await listPayments(auth, { limit: 50 } as never))), cold);

  // A raw update (no updated_at) and a Prisma update: each shows on the next read.
  await sql(`UPDATE transactions SET status = 'expired' WHERE id = $1`, [ids[3]]);
  await db().transaction.update({ where: { id: ids[7]! }, data: { tag2: "changed" } });
  const after1 = await listed(auth, { limit: 50 });
  assert.equal(after1.data[3]!.status, "expired");
  assert.equal((after1.data[7] as unknown as { tag2: string }).tag2, "changed");
  assert.deepEqual(after1.data[3], JSON.parse(JSON.stringify(await getPayment(auth, ids[3]!))));
  // Back to what it was: still a new row version, so not the first kept item.
  await sql(`UPDATE transactions SET status = 'failed' WHERE id = $1`, [ids[3]]);
  assert.equal((await listed(auth, { limit: 50 })).data[3]!.status, "failed");

  // Cursor pages, both ways, read kept items too.
  const older = await listed(auth, { limit: 20, startingAfter: ids[9] });
  assert.deepEqual(older.data.map((d) => d.id), ids.slice(10, 30));
  await sql(`UPDATE transactions SET status = 'expired' WHERE id = $1`, [ids[12]]);
  assert.equal((await listed(auth, { limit: 20, startingAfter: ids[9] })).data[2]!.status, "expired");
  const newer = await listed(auth, { limit: 5, endingBefore: ids[9] });
  assert.deepEqual(newer.data.map((d) => d.id), ids.slice(4, 9));
});

test("kept items are scoped: another merchant's list never shows them", async () => {
  const a = await merchantWithPayments(3);
  await listed(a.auth, { limit: 50 });
  const b = await merchantWithPayments(2);
  const seen = await listed(b.auth, { limit: 50 });
  assert.deepEqual(seen.data.map((d) => d.id).filter((id) => a.ids.includes(id)), []);
  await assert.rejects(listed(b.auth, { limit: 5, startingAfter: a.ids[0] }), /No payment/);
});

// A shop-bound key's first page, planned from statistics taken while the merchant was small: the
// planner multiplied the merchant's and the shop's selectivities as if independent (every shop
// belongs to one merchant), expected a row or two, and read every payment of the merchant through
// another (merchant, environment, …) index to sort them: 7-21 ms at 12,000 payments, growing with
// the merchant until the next ANALYZE (bench: the list 0.04x ping). Migration
// transactions_list_planning declares the dependency and analyses the table more often.
test("a shop's first page reads the newest payments in order even when the statistics predate them", async () => {
  // The statistics see a table where this merchant is small beside another (as every merchant is
  // beside the whole table in production: the estimate is its rows squared over the table's).
  const crowd = await merchantWithPayments(2, "Crowd");
  await copyTransactions(crowd.templateId, { id: "'tx_C' || lpad(g.i::text, 23, '0') || substr(md5($3), 1, 4)" }, "generate_series(1, $2::int) AS g(i)", [60_000, crowd.templateId]);
  const { auth, templateId, shopId } = await merchantWithPayments(200, "Grows after ANALYZE");
  await sql("ANALYZE transactions");
  await copyTransactions(templateId, { id: "'tx_G' || lpad(g.i::text, 23, '0') || substr(md5($3), 1, 4)", created_at: "now() + g.i * interval '1 millisecond'" }, "generate_series(1, $2::int) AS g(i)", [
    12_000,
    templateId,
  ]);
  const shopAuth = { ...auth, shop: { id: shopId } } as unknown as AuthContext;
  for (const planOf of [customPlanOf, genericPlanOf]) {
    const st = paymentsPageStatement(shopAuth, { limit: 50 } as never);
    const plan = JSON.stringify(await planOf(st.text, st.values));
    assert.ok(!plan.includes('"Node Type":"Sort"'), `no sort of the merchant's payments: ${plan}`);
    assert.match(plan, /transactions_merchant_id_environment_created_at_id_idx/);
  }
});

/** The plan PostgreSQL makes for these values (what a statement planned per call would run). */
async function customPlanOf(text: string, values: unknown[]) {
  return (await sql<{ "QUERY PLAN": unknown }>(`EXPLAIN (FORMAT JSON) ${text}`, values, { planEachTime: true }))[0]!["QUERY PLAN"];
}

// A merchant the last ANALYZE never saw (it signed up since, or was too few rows to be sampled)
// and that has grown: the statistics put it at one row, and a plan made for its id read all its
// payments through the narrowest (merchant, environment, …) index and sorted them, on every page
// (the bench's small merchant, 10,000 payments beside a million: the list at 0.04x ping). The
// page statements run one generic plan (lib/platform/db.ts, genericPlan), costed on the average merchant.
test("a merchant the statistics never saw pages its newest payments in order, merchant-wide and shop-bound, first page and cursor", async () => {
  const crowd = await merchantWithPayments(2, "Crowd before ANALYZE");
  await copyTransactions(crowd.templateId, { id: "'tx_D' || lpad(g.i::text, 23, '0') || substr(md5($3), 1, 4)" }, "generate_series(1, $2::int) AS g(i)", [40_000, crowd.templateId]);
  await sql("ANALYZE transactions");
  const { auth, ids, templateId, shopId } = await merchantWithPayments(2, "Signed up after ANALYZE");
  await copyTransactions(templateId, { id: "'tx_N' || lpad(g.i::text, 23, '0') || substr(md5($3), 1, 4)", created_at: "now() - interval '1 hour' + g.i * interval '1 millisecond'" }, "generate_series(1, $2::int) AS g(i)", [
    12_000,
    templateId,
  ]);
  const shopAuth = { ...auth, shop: { id: shopId } } as unknown as AuthContext;
  // A plan made for the new merchant's id sorts only where the ordered index is a level taller
  // than a narrower one (the bench's million rows); here the suite checks the plan that is served.
  for (const a of [auth, shopAuth]) {
    for (const query of [{ limit: 50 }, { limit: 50, startingAfter: ids[0] }, { limit: 50, status: "failed" }, { limit: 50, paymentMethodId: railById("1004")!.paymentMethodId }]) {
      const st = paymentsPageStatement(a, query as never);
      const plan = JSON.stringify(await genericPlanOf(st.text, st.values));
      // Not even an incremental sort of one instant's ties: the status index ends (created_at, id).
      assertNoSort(plan, `${JSON.stringify(query)}: no sort of the merchant's payments: ${plan}`);
    }
  }
  // What the API answers is still the newest payments, in order, read through the shared (generic) statements.
  const before = sharedReadStats().runs;
  const page = await listPayments(shopAuth, { limit: 50 } as never);
  assert.equal(sharedReadStats().runs - before, 2, "the page statement and its first total (the rollups' sum) went through sqlShared");
  const newest = await sql<{ id: string }>(`SELECT id FROM transactions WHERE merchant_id = $1 ORDER BY created_at DESC, id DESC LIMIT 50`, [auth.merchant.id]);
  assert.deepEqual(page.data.map((d) => d.id), newest.map((r) => r.id));
});

// With no statistics at all (a new deployment's first hours; here a temporary table with the
// payments table's indexes, which autovacuum never analyses) every merchant is estimated at one
// row, for a plan made for its values and the generic plan alike. Any index led by (merchant,
// environment) and narrower than the list's then looks cheaper: read the merchant's payments
// through it, sort them, keep 50. The search and order-id indexes hold only rows with a key
// (partial), and the settlement queue's index leads with its status, so the list's own index is
// the one left: the page is an ordered walk that stops at its limit.
test("with no statistics, the list's pages walk its own index, whatever else leads with the merchant", async () => {
  const { auth, templateId } = await merchantWithPayments(1, "No statistics");
  await db().$transaction(async (tx) => {
    await tx.$executeRawUnsafe(`CREATE TEMP TABLE transactions_fresh (LIKE transactions INCLUDING DEFAULTS INCLUDING INDEXES) ON COMMIT DROP`);
    await tx.$executeRawUnsafe(`INSERT INTO transactions_fresh SELECT * FROM transactions WHERE id = $1`, templateId);
    await tx.$executeRawUnsafe(
      `INSERT INTO transactions_fresh SELECT (jsonb_populate_record(f, jsonb_build_object('id', f.id || g, 'created_at', f.created_at - g * interval '1 minute'))).*
         FROM transactions_fresh f, generate_series(1, 299) g`,
    );
    // (Filtered pages are left to the test above: with no statistics at all even a status is
    // estimated at one row, which no real table has.)
    const [row] = await tx.$queryRawUnsafe<Array<{ id: string }>>(`SELECT id FROM transactions_fresh ORDER BY created_at DESC, id DESC OFFSET 100 LIMIT 1`);
    const middle = row!.id;
    for (const query of [{ limit: 50 }, { limit: 50, offset: 50 }, { limit: 50, startingAfter: middle }]) {
      const st = paymentsPageStatement(auth, query as never);
      let text = st.text.replace(/\btransactions\b/g, "transactions_fresh");
      st.values.forEach((v, i) => (text = text.replaceAll(new RegExp(`\\$${i + 1}(?!\\d)`, "g"), v === null ? "NULL" : typeof v === "number" ? String(v) : `'${String(v)}'`)));
      const [explained] = await tx.$queryRawUnsafe<Array<{ "QUERY PLAN": unknown }>>(`EXPLAIN (FORMAT JSON) ${text}`);
      const plan = JSON.stringify(explained!["QUERY PLAN"]);
      assertNoSort(plan, `${JSON.stringify(query)}: no sort of the merchant's payments: ${plan}`);
    }
  });
});
