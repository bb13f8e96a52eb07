// Mercado Pago end to end over HTTP (its simulator speaks MP's wire format, scripts/psp/mercadopago/):
// a pay-in on every rail MP serves (PIX, boleto, SPEI, OXXO through the Payments API; cards and
// PSE through a Checkout Pro preference), each completed by MP's signed webhook and read back
// from MP, with the merchant's payment.completed webhook received; and refunds, exact to the
// cent, once even when MP's answer is lost.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { api, waitFor } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { settleDueBalances } from "@/lib/settlements/settle-balances";
import { buyer, completed, mp, mpPayments, pay, pix, webhookReceived, env } from "./providers-mercadopago-setup.ts";

/** Registered by e2e/api/providers-mercadopago.test.ts, which starts the one simulator and server they share. */
export function payInTests() {
  const row = (tx: string) => db().transaction.findUniqueOrThrow({ where: { id: tx } });

  describe("pay-ins through the Payments API", () => {
    const rails = [
      { name: "PIX", body: (e: string) => pix(e), method: "pix", instructions: "pixCode" },
      { name: "boleto", body: (e: string) => ({ amount: 25, paymentMethodId: "1002", userName: "Maria Silva", userEmail: e, documentId: "19119119100" }), method: "bolbradesco", instructions: "line" },
      { name: "SPEI", body: (e: string) => ({ amount: 25, paymentMethodId: "1003", userName: "Juan Pérez", userEmail: e, documentId: "GODE561231GR8" }), method: "clabe", instructions: null },
      { name: "OXXO", body: (e: string) => ({ amount: 20, paymentMethodId: "1004", userName: "Ana Ruiz", userEmail: e, userPhone: "+525512345678", documentId: "GODE561231GR8" }), method: "oxxo", instructions: "reference" },
    ];
    for (const rail of rails) {
      test(`${rail.name}: MP's page and instructions, MP's signed webhook completes it once, the merchant's webhook says so`, async () => {
        const p = await pay(env, rail.body(buyer()));
        const tx = p.transactionId;
        const r = await row(tx);
        assert.equal(r.provider, "mercadopago");
        assert.match(r.providerRef!, /^\d+$/, "a payment id");
        assert.ok(p.paymentFormUrl.startsWith(`${env.sim.url}/payments/${r.providerRef}/ticket`), p.paymentFormUrl);
        assert.equal((await fetch(p.paymentFormUrl)).status, 200);
        // What MP received: our id as external_reference, our notice URL, the exact local amount as a decimal.
        const [held] = await mpPayments(env, tx);
        assert.equal(held!.payment.payment_method_id, rail.method);
        assert.equal(held!.payment.notification_url, `${env.server.url}/api/v1/providers/mercadopago/notifications?source_news=webhooks`);
        assert.equal(BigInt(Math.round(held!.payment.transaction_amount * 100)), r.amountLocal);
        if (rail.instructions) assert.ok((r.instructions as any)?.[rail.instructions] ?? (p as any).instructions?.[rail.instructions], `instructions.${rail.instructions}`);

        const moved = await mp(env, `/_control/payments/${r.providerRef}/approve`, { duplicate: true });
        assert.deepEqual(moved.statuses, [200, 200]);
        await completed(env, tx);
        await webhookReceived(env, tx);
        assert.equal(await db().ledgerPosting.count({ where: { transactionId: tx, kind: "payment_completed" } }), 1);
        assert.equal(await db().event.count({ where: { type: "payment.completed", payload: { path: ["data", "object", "id"], equals: tx } } }), 1);
      });
    }
  });

  describe("pay-ins through Checkout Pro", () => {
    const rails = [
      { name: "card BR", body: (e: string) => ({ amount: 30, paymentMethodId: "1006", userName: "Maria Silva", userEmail: e }), currency: "BRL" },
      { name: "card MX", body: (e: string) => ({ amount: 30, paymentMethodId: "1007", userName: "Juan Pérez", userEmail: e }), currency: "MXN" },
      { name: "PSE", body: (e: string) => ({ amount: 30, paymentMethodId: "1005", userName: "Camila Gómez", userEmail: e, documentId: "1234567890" }), currency: "COP" },
    ];
    for (const rail of rails) {
      test(`${rail.name}: the preference's init_point is the page; the payment made there completes it and becomes the providerRef`, async () => {
        const p = await pay(env, rail.body(buyer()));
        const tx = p.transactionId;
        const pending = await row(tx);
        assert.equal(pending.provider, "mercadopago");
        // A TEST- access token: MP's sandbox page.
        assert.ok(p.paymentFormUrl.startsWith(`${env.sim.url}/sandbox/checkout/v1/redirect?pref_id=${pending.providerRef}`), p.paymentFormUrl);
        assert.equal((await fetch(p.paymentFormUrl)).status, 200);
        const paid = await mp(env, `/_control/preferences/${pending.providerRef}/pay`, {});
        assert.deepEqual(paid.statuses, [200]);
        assert.equal(paid.payment.currency_id, rail.currency);
        await completed(env, tx);
        await webhookReceived(env, tx);
        assert.equal((await row(tx)).providerRef, String(paid.payment.id), "the paid payment is the charge now");
      });
    }

    test("a rejected card attempt on MP's page changes nothing; the buyer's second, approved one completes it", async () => {
      const p = await pay(env, { amount: 30, paymentMethodId: "1006", userEmail: buyer() });
      const pref = (await row(p.transactionId)).providerRef!;
      const rejected = await mp(env, `/_control/preferences/${pref}/pay`, { status: "rejected", detail: "cc_rejected_insufficient_amount" });
      assert.deepEqual(rejected.statuses, [200]);
      assert.equal((await row(p.transactionId)).status, "pending", "a card may still be paid: the attempt the cascade left behind says nothing");
      await mp(env, `/_control/preferences/${pref}/pay`, {});
      await completed(env, p.transactionId);
    });
  });

  describe("refunds", () => {
    async function paidPix() {
      const p = await pay(env, pix(buyer("refund")));
      const r = await row(p.transactionId);
      await mp(env, `/_control/payments/${r.providerRef}/approve`, {});
      await completed(env, p.transactionId);
      await settleDueBalances({ now: new Date(Date.now() + 3 * 86_400_000), merchantId: r.merchantId });
      return { tx: p.transactionId, paymentId: r.providerRef!, email: (await mpPayments(env, p.transactionId))[0]!.payment.payer.email as string };
    }
    const claimOf = (id: string) =>
      waitFor(async () => {
        const c = (await api(`/claims/${id}`, { key: env.key, base: env.server.url })).body.claim;
        return c.status !== "pending" && c;
      }, "MP's answer to the refund", 30_000);

    test("a partial refund reaches MP as the exact decimal, keyed by the claim, and is confirmed", async () => {
      const { tx, paymentId } = await paidPix();
      const refund = await api(`/payments/${tx}/refund`, { key: env.key, body: { amount: 50.25, reason: "requested_by_customer" }, base: env.server.url });
      assert.equal(refund.status, 200, refund.text);
      assert.equal((await claimOf(refund.body.refundId)).status, "resolved");
      const refunds = (await mp(env, `/_control/payments/${paymentId}`)).payment.refunds;
      assert.equal(refunds.length, 1);
      assert.equal(refunds[0].amount, 50.25);
    });

    test("MP made the refund but its answer was lost: the status job finds a refund it cannot attribute and never re-sends blindly; the claim waits for an operator", async () => {
      const { tx, paymentId, email } = await paidPix();
      await mp(env, "/_control/behaviour", { mode: "succeed_then_timeout", forEmail: email, times: 1 });
      const refund = await api(`/payments/${tx}/refund`, { key: env.key, body: { amount: 20, reason: "requested_by_customer" }, base: env.server.url });
      assert.equal(refund.status, 200, refund.text);
      // The status job has asked MP twice (GET /v1/payments/{id}/refunds lists a refund of no one's):
      // unknown each time, so nothing is sent again and the claim stays pending with its money frozen.
      await waitFor(async () => ((await db().scheduledAction.findFirst({ where: { claimId: refund.body.refundId, action: "provider_refund_status" } }))?.attempts ?? 0) >= 2, "the status job's second ask", 30_000);
      assert.equal((await api(`/claims/${refund.body.refundId}`, { key: env.key, base: env.server.url })).body.claim.status, "pending");
      const refunds = (await mp(env, `/_control/payments/${paymentId}`)).payment.refunds;
      assert.deepEqual(refunds.map((r: any) => r.amount), [20], "one refund at MP");
    });

    test("a full refund: MP's webhook of the refunded payment refunds nothing twice, and its re-delivery is acknowledged", async () => {
      const { tx, paymentId } = await paidPix();
      const refund = await api(`/payments/${tx}/refund`, { key: env.key, body: { reason: "requested_by_customer" }, base: env.server.url });
      assert.equal(refund.status, 200, refund.text);
      assert.equal((await claimOf(refund.body.refundId)).status, "resolved");
      // The approval's webhook, then the refund's.
      const seen = await waitFor(async () => {
        const d = (await mp(env, `/_control/payments/${paymentId}`)).deliveries;
        return d.length >= 2 && d[1];
      }, "MP's webhook of the refund answered");
      assert.equal(seen.status, "refunded");
      // One that arrives while our claim is still open is refused (lib/claims/transitions.ts refundInFull)
      // and MP delivers it again: the re-delivery is acknowledged and changes nothing.
      const again = await mp(env, `/_control/payments/${paymentId}/notify`, {});
      assert.deepEqual(again.statuses, [200]);
      assert.equal(await db().claim.count({ where: { transactionId: tx } }), 1, "no second refund of the remainder");
      const t = await row(tx);
      assert.equal(t.refundedLocal, t.amountLocal);
      assert.equal((await mp(env, `/_control/payments/${paymentId}`)).payment.refunds.length, 1);
    });

    test("MP refuses a refund of a payment it holds as not approved (400 with its cause): the claim is rejected", async () => {
      const { tx, paymentId } = await paidPix();
      // MP has it charged back: the refund is refused there.
      await mp(env, `/_control/payments/${paymentId}/charge_back`, { notify: false });
      const refund = await api(`/payments/${tx}/refund`, { key: env.key, body: { amount: 10 }, base: env.server.url });
      assert.equal(refund.status, 200, refund.text);
      assert.equal((await claimOf(refund.body.refundId)).status, "rejected");
    });
  });
}
