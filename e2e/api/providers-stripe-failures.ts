// Stripe when things go wrong, end to end over HTTP through the Stripe simulator: a hard decline
// (Stripe's decline_code, one attempt, 402), a soft one that cascades to another provider, a
// timeout whose charge Stripe did make (the row stays pending; reconciliation finds it by our
// reference even while Stripe's search lags), forged and stale notices (401), the notice
// signed by the `stripe` library's own test helper (accepted), and a notice whose payment Stripe
// denies (nothing changes).
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import Stripe from "stripe";
import { api, assertEnvelope, behave, newMerchant, waitFor } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { settleDueBalances } from "@/lib/settlements/settle-balances";
import { completions, control, email, payin, row, simGet, startStripeWorld, statusOf, stopStripeWorld, STRIPE_NOTICE_SECRET, STRIPE_SECRET, type StripeWorld } from "./providers-stripe-setup.ts";

let w: StripeWorld;
let key: string;
let merchantId: string;
before(async () => {
  w = await startStripeWorld();
  const m = await newMerchant();
  key = m.production.secretKey;
  merchantId = m.merchantId;
});
after(async () => {
  await stopStripeWorld(w);
  await db().$disconnect();
});

const pay = (body: unknown) => api("/payments", { key, body, base: w.server.url });
const stripe = new Stripe("sk_test_header_helper_only");
const postNotice = (raw: string, header?: string) => api("/providers/stripe/notifications", { base: w.server.url, raw, headers: { "content-type": "application/json", ...(header ? { "stripe-signature": header } : {}) } });
const eventFor = (pi: string, id = `evt_test_${Math.random().toString(36).slice(2, 10)}`) => JSON.stringify({ id, object: "event", api_version: "2026-10-28.endive", created: Math.floor(Date.now() / 1000), livemode: false, pending_webhooks: 1, type: "payment_intent.succeeded", data: { object: { id: pi, object: "payment_intent" } } });

describe("declines", () => {
  test("a hard decline (decline_code insufficient_funds): one attempt, 402 with the decline code, the payment failed", async () => {
    const e = email();
    await control(w.sim.url, "/behaviour", { mode: "decline", declineCode: "insufficient_funds", forEmail: e, times: 1 });
    const r = await pay(payin("1001", e));
    assertEnvelope(r, "insufficient_funds", 402);
    assert.equal(r.body.error.decline_code, "insufficient_funds");
    const attempts = r.body.error.details.attempts;
    assert.deepEqual(attempts.map((a: any) => [a.provider, a.outcome, a.reason, a.declineCode, a.decision]), [["stripe", "declined", "insufficient_funds", "insufficient_funds", "stop"]]);
    const id = r.body.error.details.transactionId;
    assert.equal(await statusOf(key, w.server.url, id), "failed");
  });

  test("a Stripe-only decline code (lost_card) is mapped by Stripe's own row, hard", async () => {
    const e = email();
    await control(w.sim.url, "/behaviour", { mode: "decline", declineCode: "lost_card", forEmail: e, times: 1 });
    const r = await pay(payin("1004", e));
    assert.equal(r.status, 402, r.text);
    assert.equal(r.body.error.decline_code, "card_blocked");
    assert.equal(r.body.error.details.attempts.length, 1);
  });

  test("a soft decline (processing_error) cascades: the next provider of the rail takes the charge", async () => {
    const e = email();
    await control(w.sim.url, "/behaviour", { mode: "decline", declineCode: "processing_error", forEmail: e, times: 1 });
    const r = await pay(payin("1001", e));
    assert.equal(r.status, 200, r.text);
    const got = await api(`/payments/${r.body.transactionId}`, { key, base: w.server.url });
    assert.deepEqual(got.body.attempts.map((a: any) => [a.provider, a.outcome, a.reason]), [["stripe", "declined", "processing_error"], ["pagosur", "accepted", null]]);
    assert.equal(got.body.provider, "pagosur");
  });

  test("a 500 and an unreadable answer from Stripe are unavailable: the cascade moves on", async () => {
    for (const mode of ["error", "garbage"]) {
      const e = email();
      await control(w.sim.url, "/behaviour", { mode, forEmail: e, times: 1 });
      const r = await pay(payin("1006", e));
      assert.equal(r.status, 200, r.text);
      const got = await api(`/payments/${r.body.transactionId}`, { key, base: w.server.url });
      assert.deepEqual(got.body.attempts.map((a: any) => [a.provider, a.outcome]).slice(0, 1), [["stripe", "unavailable"]], mode);
      assert.notEqual(got.body.provider, "stripe");
    }
  });
});

describe("a timeout whose charge Stripe made", () => {
  test("stays pending with every answer lost; reconciliation finds the PaymentIntent by our reference (search lagging: the consistent list) and settles it once", async () => {
    const e = email();
    // Stripe makes the PaymentIntent and the answer never comes; the other PIX providers time out too.
    await control(w.sim.url, "/behaviour", { mode: "succeed_then_timeout", forEmail: e, times: 1 });
    for (const p of ["pagosur", "rapidpay"] as const) await behave(p, "timeout", e);
    // Search is eventually consistent (https://docs.stripe.com/search): here it does not see the new PaymentIntent at all.
    await control(w.sim.url, "/search-lag", { ms: 600_000 });
    try {
      const r = await pay(payin("1001", e));
      assertEnvelope(r, "cascade_exhausted", 422);
      assert.equal(r.body.error.details.reason, "providers_unavailable");
      const t = await db().transaction.findFirstOrThrow({ where: { merchantId, userEmail: e } });
      assert.deepEqual([t.status, t.providerRef], ["pending", null]);
      const found = await waitFor(async () => (await row(t.id)).providerRef, "the charge found by reference", 30_000);
      assert.match(found, /^pi_/);
      assert.equal((await row(t.id)).provider, "stripe");
      assert.equal((await row(t.id)).status, "pending", "found pending at Stripe: still pending");
      // The buyer pays; the event is lost: the status job reads it back.
      await control(w.sim.url, `/charges/${found}/pay`, { notify: false });
      await waitFor(async () => (await row(t.id)).status === "completed", "completion by reconciliation", 30_000);
      assert.equal(await completions(t.id), 1);
    } finally {
      await control(w.sim.url, "/search-lag", { ms: 0 });
    }
  });
});

describe("notices", () => {
  test("signed by the stripe library's generateTestHeaderString with our whsec_: accepted; a wrong secret, an old timestamp or no header: 401", async () => {
    const r = await pay(payin("1001", email()));
    const tx = r.body.transactionId;
    const pi = (await row(tx)).providerRef!;
    const wrong = eventFor(pi);
    assertEnvelope(await postNotice(wrong, stripe.webhooks.generateTestHeaderString({ payload: wrong, secret: "whsec_not_the_secret_000" })), "invalid_signature", 401);
    const stale = await postNotice(wrong, stripe.webhooks.generateTestHeaderString({ payload: wrong, secret: STRIPE_NOTICE_SECRET, timestamp: Math.floor(Date.now() / 1000) - 600 }));
    assertEnvelope(stale, "invalid_signature", 401);
    assert.equal(stale.body.error.details.reason, "timestamp_out_of_tolerance");
    assertEnvelope(await postNotice(wrong), "invalid_signature", 401);
    // The simulator's own delivery with a wrong secret is refused the same way.
    const forged = await control(w.sim.url, "/events", { type: "payment_intent.succeeded", object: { id: pi, object: "payment_intent" }, secret: "whsec_forged_forged_00" });
    assert.deepEqual(forged.deliveries.map((d: any) => d.httpStatus), [401]);
    assert.equal(await statusOf(key, w.server.url, tx), "pending");
    // Signed right, the notice is only a pointer: the charge is read back, and it is still pending.
    const good = eventFor(pi);
    const ok = await postNotice(good, stripe.webhooks.generateTestHeaderString({ payload: good, secret: STRIPE_NOTICE_SECRET }));
    assert.equal(ok.status, 200, ok.text);
    assert.equal(await statusOf(key, w.server.url, tx), "pending", "a notice claiming success changes nothing while Stripe says requires_action");
    await control(w.sim.url, `/charges/${pi}/pay`, { notify: false });
    const again = eventFor(pi);
    assert.equal((await postNotice(again, stripe.webhooks.generateTestHeaderString({ payload: again, secret: STRIPE_NOTICE_SECRET }))).status, 200);
    assert.equal(await statusOf(key, w.server.url, tx), "completed");
  });

  test("a signed notice for a charge Stripe denies knowing changes nothing", async () => {
    const r = await pay(payin("1001", email()));
    const tx = r.body.transactionId;
    const pi = (await row(tx)).providerRef!;
    await control(w.sim.url, `/charges/${pi}/deny`);
    await control(w.sim.url, `/charges/${pi}/pay`);
    const deliveries = (await simGet(w.sim.url, `/charges/${pi}`)).deliveries;
    assert.deepEqual(deliveries.map((d: any) => d.httpStatus), [200], "acknowledged");
    assert.equal(await statusOf(key, w.server.url, tx), "pending");
    assert.equal(await completions(tx), 0);
  });
});

describe("after payment", () => {
  test("a dispute (charge.dispute.created, naming the session's PaymentIntent) opens a chargeback on the card payment, once", async () => {
    const r = await pay(payin("1006", email()));
    const tx = r.body.transactionId;
    const cs = (await row(tx)).providerRef!;
    await control(w.sim.url, `/charges/${cs}/pay`);
    await waitFor(async () => (await statusOf(key, w.server.url, tx)) === "completed", "completion");
    await control(w.sim.url, `/charges/${cs}/dispute`, { duplicate: true });
    await waitFor(() => db().claim.findFirst({ where: { transactionId: tx, kind: "chargeback" } }), "a chargeback claim");
    await waitFor(async () => (await simGet(w.sim.url, `/charges/${cs}`)).deliveries.filter((d: any) => d.type === "charge.dispute.created" && d.httpStatus === 200).length === 2, "both deliveries answered");
    assert.equal(await db().claim.count({ where: { transactionId: tx, kind: "chargeback" } }), 1);
  });

  test("a refund Stripe made but whose answer was lost: the status job finds it by our claim id, and no second refund is made", async () => {
    const e = email();
    const r = await pay(payin("1001", e, 40));
    const tx = r.body.transactionId;
    const pi = (await row(tx)).providerRef!;
    await control(w.sim.url, `/charges/${pi}/pay`);
    await waitFor(async () => (await statusOf(key, w.server.url, tx)) === "completed", "completion");
    await settleDueBalances({ now: new Date(Date.now() + 3 * 86_400_000), merchantId: (await row(tx)).merchantId });
    await control(w.sim.url, "/behaviour", { mode: "succeed_then_timeout", forEmail: e, times: 1 });
    const refund = await api(`/payments/${tx}/refund`, { key, base: w.server.url, body: { amount: 50 } });
    assert.equal(refund.status, 200, refund.text);
    const claimId = refund.body.refundId;
    // The job's next turn asks by reference; a claim's status check is due minutes later, so bring it forward.
    await waitFor(async () => (await db().scheduledAction.updateMany({ where: { claimId, action: "provider_refund_status", state: "pending" }, data: { dueAt: new Date() } })).count > 0 || (await db().claim.findUniqueOrThrow({ where: { id: claimId } })).status !== "pending", "the refund's status check scheduled", 15_000);
    const claim = await waitFor(async () => {
      const c = await db().claim.findUniqueOrThrow({ where: { id: claimId } });
      return c.status !== "pending" && c;
    }, "the claim resolved by reference", 30_000);
    assert.equal(claim.status, "resolved");
    const refunds = await (await fetch(`${w.sim.url}/v1/refunds?limit=100`, { headers: { authorization: `Bearer ${STRIPE_SECRET}` } })).json();
    assert.equal(refunds.data.filter((x: any) => x.metadata.reference === claimId).length, 1, "one refund under our claim id");
  });
});
