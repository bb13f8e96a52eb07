// Money leaves at most once (decisions.md), charges over real HTTP against the simulated PSPs: a
// charge that timed out at the first provider cascades to the next, and a late paid notice for the
// first attempt completes the same transaction, once; with every answer lost the row stays pending
// and reconciliation completes it once.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { api, assertEnvelope, newMerchant, waitFor } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { PSP, email, psp, behave, seedRates } from "./provider-outcomes-fixtures.ts";

after(() => db().$disconnect());
before(seedRates);

describe("charges: a timed-out attempt cascades; its late notice completes the same transaction once", () => {
  test("succeed_then_timeout at pagosur -> andespay takes it; pagosur's late paid notice completes it, andespay's later one changes nothing", async () => {
    const m = await newMerchant({ tier: "premium" });
    const key = m.production.secretKey;
    const buyer = email();
    await behave("pagosur", "succeed_then_timeout", buyer);
    const r = await api("/payments", { key, body: { amount: 25, paymentMethodId: "1003", userName: "Juan Pérez", userEmail: buyer, documentId: "GODE561231GR8" } });
    assert.equal(r.status, 200, r.text);
    const tx = r.body.transactionId;
    assert.ok(r.body.paymentFormUrl.startsWith(`${PSP.andespay}/checkout/`), r.body.paymentFormUrl);
    const got = (await api(`/payments/${tx}`, { key })).body;
    assert.deepEqual(got.attempts.map((a: any) => [a.provider, a.outcome, a.reason]), [["pagosur", "unavailable", "timeout"], ["andespay", "accepted", null]]);
    // The charge pagosur made under our reference, though its answer never came.
    const late = await psp("pagosur", `/_control/charges/${tx}`);
    assert.equal(late.reference, tx);
    await psp("pagosur", `/_control/charges/${tx}/paid`, { duplicate: true });
    await waitFor(async () => (await api(`/payments/${tx}`, { key })).body.status === "completed", "completion by the late notice");
    await waitFor(async () => (await psp("pagosur", `/_control/charges/${tx}`)).deliveries.filter((d: any) => d.httpStatus === 200).length === 2, "both deliveries answered");
    // The paid charge is the route now: refunds and chargebacks go to pagosur, which holds the money.
    const routed = await db().transaction.findUniqueOrThrow({ where: { id: tx } });
    assert.deepEqual([routed.provider, routed.providerRef], ["pagosur", late.id]);
    const andespayCharge = (await psp("andespay", `/_control/charges/${tx}`)).id as string;
    await psp("andespay", `/_control/charges/${andespayCharge}/paid`, {});
    await waitFor(async () => (await psp("andespay", `/_control/charges/${andespayCharge}`)).deliveries.some((d: any) => d.httpStatus === 200), "andespay's notice answered");
    assert.equal(await db().ledgerPosting.count({ where: { transactionId: tx, kind: "payment_completed" } }), 1);
    assert.equal(await db().event.count({ where: { type: "payment.completed", payload: { path: ["data", "object", "id"], equals: tx } } }), 1);
    assert.equal(await db().transaction.count({ where: { merchantId: m.merchantId } }), 1);
  });
});

describe("charges: every answer lost", () => {
  test("no provider answered: 422 cascade_exhausted, the row stays pending; reconciliation finds the charge by our reference and completes it once", async () => {
    const m = await newMerchant({ tier: "premium" });
    const key = m.production.secretKey;
    const buyer = email();
    for (const p of ["pagosur", "andespay", "rapidpay"] as const) await behave(p, "succeed_then_timeout", buyer);
    const r = await api("/payments", { key, body: { amount: 25, paymentMethodId: "1003", userName: "Juan Pérez", userEmail: buyer, documentId: "GODE561231GR8" } });
    assertEnvelope(r, "cascade_exhausted", 422);
    assert.equal(r.body.error.details.reason, "providers_unavailable");
    // Every provider may hold a charge: the row is kept, pending, with its attempts.
    const row = await db().transaction.findFirstOrThrow({ where: { merchantId: m.merchantId } });
    assert.deepEqual([row.status, row.providerRef], ["pending", null]);
    assert.equal((row.attempts as any[]).length, 3);
    // The buyer paid at pagosur after all; its notice is lost too.
    await psp("pagosur", `/_control/charges/${row.id}/paid`, { notify: false });
    await waitFor(async () => (await db().transaction.findUniqueOrThrow({ where: { id: row.id } })).status === "completed", "completion by reconciliation by reference", 30_000);
    const done = await db().transaction.findUniqueOrThrow({ where: { id: row.id } });
    assert.equal(done.provider, "pagosur");
    assert.match(done.providerRef!, /^pagosur_ch_/);
    assert.equal(await db().ledgerPosting.count({ where: { transactionId: row.id, kind: "payment_completed" } }), 1);
  });
});
