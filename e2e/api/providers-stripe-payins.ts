// Stripe end to end over HTTP: our server (configured for Stripe as an operator configures it)
// calls the Stripe simulator (scripts/psp/stripe, Stripe's own wire format) through the official
// `stripe` library, and the simulator's signed events come back to our notification URL.
// Pay-ins on every rail Stripe serves here (PIX and OXXO by instructions on our page; cards and
// boleto on Stripe's hosted Checkout page), a refund, duplicate and late notices.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { api, newMerchant, waitFor } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { settleDueBalances } from "@/lib/settlements/settle-balances";
import { completedEvents, completions, control, deliveriesAnswered, email, payin, row, simGet, startStripeWorld, statusOf, stopStripeWorld, type StripeWorld } from "./providers-stripe-setup.ts";

let w: StripeWorld;
let key: string;
before(async () => {
  w = await startStripeWorld();
  key = (await newMerchant()).production.secretKey;
});
after(async () => {
  await stopStripeWorld(w);
  await db().$disconnect();
});

const pay = (body: unknown) => api("/payments", { key, body, base: w.server.url });

describe("pay-ins by instructions: PIX and OXXO", () => {
  for (const [rail, field, pattern] of [["1001", "pixCode", /^000201/], ["1004", "barcode", /^\d{18}$/]] as const) {
    test(`${rail}: a confirmed PaymentIntent, its next_action on our page; the signed event completes it and payment.completed is emitted once`, async () => {
      const r = await pay(payin(rail, email()));
      assert.equal(r.status, 200, r.text);
      const tx = r.body.transactionId;
      assert.match(r.body.paymentFormUrl, new RegExp(`/pay/stripe/${tx}$`));
      const t = await row(tx);
      assert.equal(t.provider, "stripe");
      assert.match(t.providerRef!, /^pi_/);
      assert.match(String((t.instructions as Record<string, unknown>)[field]), pattern);
      // The PaymentIntent carries our id where chargeByReference looks for it, and the amount in minor units.
      const pi = (await simGet(w.sim.url, `/charges/${t.providerRef}`)).object;
      assert.deepEqual([pi.metadata.reference, pi.amount, pi.status], [tx, Number(t.amountLocal), "requires_action"]);
      const page = await fetch(r.body.paymentFormUrl);
      assert.equal(page.status, 200);
      assert.ok((await page.text()).includes(String((t.instructions as Record<string, unknown>)[field]).slice(0, 12)), "the page shows what the buyer pays with");
      await control(w.sim.url, `/charges/${t.providerRef}/pay`);
      await waitFor(async () => (await statusOf(key, w.server.url, tx)) === "completed", "completed by Stripe's event");
      assert.equal(await completions(tx), 1);
      await waitFor(async () => (await completedEvents(tx)) === 1, "payment.completed for the merchant's webhooks");
    });
  }
});

describe("pay-ins on Stripe's hosted Checkout page: cards (BR, MX) and boleto", () => {
  for (const rail of ["1006", "1007", "1002"]) {
    test(`${rail}: a Checkout Session whose url is the paymentFormUrl; paid there, completed once by its events`, async () => {
      const r = await pay(payin(rail, email()));
      assert.equal(r.status, 200, r.text);
      const tx = r.body.transactionId;
      const t = await row(tx);
      assert.match(t.providerRef!, /^cs_test_/);
      assert.equal(r.body.paymentFormUrl, `${w.sim.url}/c/pay/${t.providerRef}`);
      assert.equal((await fetch(r.body.paymentFormUrl)).status, 200);
      const cs = (await simGet(w.sim.url, `/charges/${t.providerRef}`)).object;
      assert.deepEqual([cs.client_reference_id, cs.amount_total, cs.success_url], [tx, Number(t.amountLocal), `${w.server.url}/c/${tx}/result`]);
      await control(w.sim.url, `/charges/${t.providerRef}/pay`);
      await waitFor(async () => (await statusOf(key, w.server.url, tx)) === "completed", "completed by the session's event");
      // Two events name this charge (the session's, its PaymentIntent's): both answered 200, applied once.
      await deliveriesAnswered(w.sim.url, t.providerRef!, 2);
      assert.equal(await completions(tx), 1);
      assert.equal(await completedEvents(tx), 1);
      assert.equal((await row(tx)).providerRef, t.providerRef, "the session stays the charge's name");
    });
  }
});

describe("notices", () => {
  test("a duplicated event (the same evt_ id twice) is applied once and recorded once", async () => {
    const r = await pay(payin("1001", email()));
    const tx = r.body.transactionId;
    const pi = (await row(tx)).providerRef!;
    await control(w.sim.url, `/charges/${pi}/pay`, { duplicate: true });
    await waitFor(async () => (await statusOf(key, w.server.url, tx)) === "completed", "completion");
    await deliveriesAnswered(w.sim.url, pi, 2);
    assert.equal(await completions(tx), 1);
    assert.equal(await completedEvents(tx), 1);
    assert.equal(await db().providerNotice.count({ where: { provider: "stripe", noticeId: { in: (await simGet(w.sim.url, `/charges/${pi}`)).deliveries.map((d: any) => d.eventId) } } }), 1);
  });

  test("a read-back Stripe does not answer is 503 and records nothing; Stripe's redelivery of the same event applies it", async () => {
    const tx = (await pay(payin("1001", email()))).body.transactionId;
    const pi = (await row(tx)).providerRef!;
    await control(w.sim.url, `/charges/${pi}/fail-reads`, { times: 1 });
    await control(w.sim.url, `/charges/${pi}/pay`);
    const first = (await simGet(w.sim.url, `/charges/${pi}`)).deliveries;
    assert.deepEqual(first.map((d: any) => d.httpStatus), [503]);
    assert.equal(await statusOf(key, w.server.url, tx), "pending");
    assert.equal(await db().providerNotice.count({ where: { provider: "stripe", noticeId: first[0].eventId } }), 0);
    const again = await control(w.sim.url, `/events/${first[0].eventId}/redeliver`);
    assert.deepEqual(again.deliveries.map((d: any) => d.httpStatus), [503, 200]);
    assert.equal(await statusOf(key, w.server.url, tx), "completed");
    assert.equal(await completions(tx), 1);
  });

  test("an expired voucher fails the payment as expired; a payment failure fails it", async () => {
    const expired = (await pay(payin("1004", email()))).body.transactionId;
    await control(w.sim.url, `/charges/${(await row(expired)).providerRef}/expire`);
    await waitFor(async () => (await statusOf(key, w.server.url, expired)) === "expired", "expired by payment_intent.payment_failed (attempt expired)");
    const failed = (await pay(payin("1001", email()))).body.transactionId;
    await control(w.sim.url, `/charges/${(await row(failed)).providerRef}/fail`);
    await waitFor(async () => (await statusOf(key, w.server.url, failed)) === "failed", "failed by payment_intent.payment_failed");
  });
});

describe("refunds through Stripe", () => {
  test("a refund of a paid PIX charge: POST /v1/refunds with our claim id as Idempotency-Key and metadata; the claim resolves", async () => {
    const r = await pay(payin("1001", email(), 40));
    const tx = r.body.transactionId;
    const pi = (await row(tx)).providerRef!;
    await control(w.sim.url, `/charges/${pi}/pay`);
    await waitFor(async () => (await statusOf(key, w.server.url, tx)) === "completed", "completion");
    await settleDueBalances({ now: new Date(Date.now() + 3 * 86_400_000), merchantId: (await row(tx)).merchantId });
    const refund = await api(`/payments/${tx}/refund`, { key, base: w.server.url, body: { amount: 100, reason: "requested_by_customer" } });
    assert.equal(refund.status, 200, refund.text);
    const claimId = refund.body.refundId;
    const claim = await waitFor(async () => {
      const c = (await api(`/claims/${claimId}`, { key, base: w.server.url })).body.claim;
      return c.status !== "pending" && c;
    }, "Stripe's answer", 30_000);
    assert.equal(claim.status, "resolved", JSON.stringify(claim));
    const charge = (await simGet(w.sim.url, `/charges/${pi}`)).object;
    assert.equal(charge.status, "succeeded");
    const refunds = await (await fetch(`${w.sim.url}/v1/refunds?limit=100`, { headers: { authorization: "Bearer sk_test_simulated0123456789" } })).json();
    const ours = refunds.data.filter((x: any) => x.metadata.reference === claimId);
    assert.equal(ours.length, 1, "one refund, under our claim id");
    assert.deepEqual([ours[0].payment_intent, ours[0].amount, ours[0].status], [pi, 10000, "succeeded"]);
  });
});
