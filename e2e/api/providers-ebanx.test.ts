// EBANX end to end over HTTP: a second app server configured as an operator configures EBANX
// (PROVIDER_EBANX_INTEGRATION_KEY, the notification certificate as PROVIDER_EBANX_NOTICE_CERTIFICATE,
// PROVIDER_EBANX_URL at the EBANX simulator of scripts/psp/ebanx/), first in each rail's cascade.
// Pay-ins on every rail EBANX serves, its RSA-SHA1-signed notices read back by hash, a refund, a
// hard and a soft decline, a lost answer settled by reconciliation, forged / duplicate / denied notices.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { api, assertEnvelope, behave, newMerchant, waitFor } from "./helpers.ts";
import { control, env, inspect, startEbanx, stopEbanx } from "./providers-ebanx-env.ts";
import { payoutSuite } from "./providers-ebanx-payouts.ts";
import { setRate } from "@/lib/money/rates";
import { db } from "@/lib/platform/db";

let key: string;
let hookId: string;
const email = () => `ebanx-${randomUUID().slice(0, 8)}@example.com`;
const row = (id: string) => db().transaction.findUniqueOrThrow({ where: { id } });
const completedEvents = (id: string) => db().event.count({ where: { type: "payment.completed", payload: { path: ["data", "object", "id"], equals: id } } });

// Each rail's buyer fields (lib/rails/rails.ts `requires`, valid documents).
const BODIES: Record<string, Record<string, unknown>> = {
  "1001": { userName: "João da Silva", documentId: "853.513.468-93" },
  "1002": { userName: "João da Silva", documentId: "853.513.468-93" },
  "1003": { userName: "Juan Pérez", documentId: "GODE561231GR8" },
  "1004": { userName: "Juan Pérez", documentId: "GODE561231GR8", userPhone: "+525512345678" },
  "1005": { userName: "Andrea Restrepo", documentId: "1020304050" },
  "1006": {},
  "1007": {},
};
const pay = (railId: string, buyer: string, extra: Record<string, unknown> = {}) => api("/payments", { key, base: env.server.url, body: { amount: 25, paymentMethodId: railId, userEmail: buyer, ...BODIES[railId], ...extra } });

before(async () => {
  for (const [quote, rate] of [["BRL", "5.40"], ["MXN", "18.20"], ["COP", "4100"]] as const) await setRate(quote, rate, "test");
  await startEbanx();
  key = (await newMerchant({ tier: "premium" })).production.secretKey;
  // The merchant's webhook: a managed inbox (production refuses loopback URLs), signed deliveries stored as received.
  const hook = await api("/webhooks", { key, base: env.server.url, body: { events: ["payment.completed"] } });
  assert.equal(hook.status, 200, hook.text);
  hookId = hook.body.id;
});
after(async () => {
  await stopEbanx();
  await db().$disconnect();
});

describe("pay-ins on every rail EBANX serves", () => {
  for (const railId of ["1001", "1002", "1003", "1004", "1005", "1006", "1007"]) {
    test(`${railId}: EBANX takes it first, the buyer gets its instructions or page, the signed notice completes it once`, async () => {
      const r = await pay(railId, email());
      assert.equal(r.status, 200, r.text);
      const tx = await row(r.body.transactionId);
      assert.equal(tx.provider, "ebanx");
      const payment = await inspect(`payments/${tx.providerRef}`);
      assert.equal(payment.merchant_payment_code, tx.id);
      // The amount EBANX was asked for is ours, to the cent.
      assert.equal(Number(payment.amount_ext).toFixed(2), (Number(tx.amountLocal) / 100).toFixed(2));
      if (["1005", "1006", "1007"].includes(railId)) assert.ok(r.body.paymentFormUrl.startsWith(`${env.sim.url}/checkout?hash=${tx.providerRef}`), r.text);
      else {
        const want = { "1001": ["pixCode", payment.pix?.qr_code_value], "1002": ["line", payment.boleto_barcode], "1003": ["clabe", payment.clabe_account], "1004": ["barcode", payment.oxxo_barcode] }[railId]!;
        assert.equal((tx.instructions as any)[want[0]], want[1]);
      }
      const paid = await control(`payments/${tx.providerRef}/pay`, { duplicate: true });
      assert.deepEqual(paid.statuses, [200, 200]);
      assert.equal((await row(tx.id)).status, "completed");
      assert.equal(await completedEvents(tx.id), 1);
      await waitFor(async () => {
        const inbox = await api(`/webhooks/${hookId}/inbox?limit=100`, { key, base: env.server.url });
        return inbox.body.data?.some((x: any) => x.event === "payment.completed" && x.payload.data.object.id === tx.id);
      }, "the merchant's webhook received payment.completed", 20_000);
    });
  }
});

describe("declines", () => {
  test("an explicit refusal EBANX's table calls hard (BP-DR-23, invalid document) stops at one attempt: 402 with decline_code", async () => {
    const buyer = email();
    await control("behaviour", { forEmail: buyer, mode: "decline", code: "BP-DR-23", message: "Field payment.document is invalid" });
    const r = await pay("1003", buyer);
    assertEnvelope(r, "card_declined", 402);
    assert.equal(r.body.error.decline_code, "invalid_document");
    const tx = await db().transaction.findFirstOrThrow({ where: { userEmail: buyer } });
    assert.deepEqual((tx.attempts as any[]).map((a) => [a.provider, a.outcome]), [["ebanx", "declined"]]);
  });

  test("a soft refusal (BP-CH-1, the payment type is not active) cascades to the next provider", async () => {
    const buyer = email();
    await control("behaviour", { forEmail: buyer, mode: "decline", code: "BP-CH-1", message: "Payment type group is not active: spei" });
    const r = await pay("1003", buyer);
    assert.equal(r.status, 200, r.text);
    const got = await api(`/payments/${r.body.transactionId}`, { key, base: env.server.url });
    assert.deepEqual(got.body.attempts.slice(0, 2).map((a: any) => [a.provider, a.outcome]), [["ebanx", "declined"], ["pagosur", "accepted"]]);
  });

  test("a 5xx and a garbage answer are unavailable, never declines: the cascade moves on", async () => {
    for (const mode of ["error", "garbage"]) {
      const buyer = email();
      await control("behaviour", { forEmail: buyer, mode });
      const r = await pay("1003", buyer);
      assert.equal(r.status, 200, r.text);
      const got = await api(`/payments/${r.body.transactionId}`, { key, base: env.server.url });
      assert.deepEqual(got.body.attempts[0].provider, "ebanx", mode);
      assert.deepEqual(got.body.attempts[0].outcome, "unavailable", mode);
    }
  });
});

describe("a lost answer", () => {
  test("EBANX made the payment but its answer timed out: the row stays pending; reconciliation finds it by our merchant_payment_code", async () => {
    const buyer = email();
    await control("behaviour", { forEmail: buyer, mode: "succeed_then_timeout" });
    for (const p of ["andespay", "rapidpay"] as const) await behave(p, "timeout", buyer);
    const r = await pay("1005", buyer);
    assertEnvelope(r, "cascade_exhausted", 422);
    const tx = await db().transaction.findFirstOrThrow({ where: { userEmail: buyer } });
    assert.deepEqual([tx.status, tx.providerRef], ["pending", null]);
    // The buyer paid at EBANX; the notice is lost too.
    await control(`payments/${tx.id}/pay`, { notify: false });
    await waitFor(async () => (await row(tx.id)).status === "completed", "completion by reconciliation by reference", 40_000);
    const done = await row(tx.id);
    assert.equal(done.provider, "ebanx");
    assert.equal(await completedEvents(tx.id), 1);
  });
});

describe("notices", () => {
  async function pendingPix() {
    const r = await pay("1001", email());
    assert.equal(r.status, 200, r.text);
    return row(r.body.transactionId);
  }

  test("forged (another key's signature) and unsigned notices are refused with 401 and change nothing", async () => {
    const tx = await pendingPix();
    await control(`payments/${tx.providerRef}/pay`, { notify: false });
    for (const how of [{ forge: true }, { unsigned: true }]) {
      const n = await control("notices", { hashes: [tx.providerRef], ...how });
      assert.equal(n.status, 401, JSON.stringify(how));
    }
    assert.equal((await row(tx.id)).status, "pending");
  });

  test("a notice whose payment EBANX denies knowing changes nothing", async () => {
    const tx = await pendingPix();
    await control(`payments/${tx.providerRef}/deny`);
    const n = await control("notices", { hashes: [tx.providerRef] });
    assert.equal(n.status, 200, n.body);
    assert.equal((await row(tx.id)).status, "pending");
  });

  test("a notice while the payment is still pending changes nothing; the later one for CO completes it", async () => {
    const tx = await pendingPix();
    assert.equal((await control("notices", { hashes: [tx.providerRef] })).status, 200);
    assert.equal((await row(tx.id)).status, "pending");
    await control(`payments/${tx.providerRef}/pay`);
    assert.equal((await row(tx.id)).status, "completed");
  });
});

describe("refunds", () => {
  test("a refund goes to /ws/refund under our claim id, for the whole amount; the claim waits while EBANX holds it requested and is resolved once confirmed", async () => {
    const r = await pay("1001", email(), { amount: 40 });
    const tx = await row(r.body.transactionId);
    await control(`payments/${tx.providerRef}/pay`);
    // Let the payment settle so the balance can cover a refund.
    const { settleDueBalances } = await import("@/lib/settlements/settle-balances");
    await settleDueBalances({ now: new Date(Date.now() + 3 * 86_400_000), merchantId: tx.merchantId });
    const refund = await api(`/payments/${tx.id}/refund`, { key, base: env.server.url, body: { amount: 100, reason: "requested_by_customer" } });
    assert.equal(refund.status, 200, refund.text);
    // EBANX queues a refund (RE, still cancellable): the claim stays pending until EBANX confirms it.
    await waitFor(async () => ((await inspect(`payments/${tx.providerRef}`)).refunds ?? []).length === 1, "the refund at EBANX", 30_000);
    assert.equal((await api(`/claims/${refund.body.refundId}`, { key, base: env.server.url })).body.claim.status, "pending");
    await control(`payments/${tx.providerRef}/refund-confirm`);
    const claim = await waitFor(async () => {
      const c = (await api(`/claims/${refund.body.refundId}`, { key, base: env.server.url })).body.claim;
      return c.status !== "pending" && c;
    }, "EBANX's answer", 30_000);
    assert.equal(claim.status, "resolved", JSON.stringify(claim));
    const payment = await inspect(`payments/${tx.providerRef}`);
    const asked = await db().claim.findUniqueOrThrow({ where: { id: refund.body.refundId } });
    assert.deepEqual(payment.refunds.map((x: any) => [x.merchant_refund_code, x.amount_ext]), [[refund.body.refundId, (Number(asked.amountLocal) / 100).toFixed(2)]]);
  });
});

payoutSuite();
