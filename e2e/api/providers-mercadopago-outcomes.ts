// Mercado Pago's refusals, lost answers and notices end to end over HTTP (its simulator,
// scripts/psp/mercadopago/): a payment rejected at creation is a decline classified by MP's
// status_detail (hard: one attempt, 402; soft: the cascade moves on to the suite's simulated
// providers); an answer MP never gave leaves the row pending until reconciliation finds the
// payment by our reference; a notice is verified in MP's x-signature scheme before anything of it
// is read, applied once, and only ever as MP's API says the payment is.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { api, assertEnvelope, behave, waitFor } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { signatureHeader } from "@/lib/providers/mercadopago/notices";
import { MP_NOTICE_SECRET, buyer, completed, mp, mpPayments, pay, paymentOf, pix, env } from "./providers-mercadopago-setup.ts";

/** Registered by e2e/api/providers-mercadopago.test.ts, which starts the one simulator and server they share. */
export function outcomeTests() {
  const row = (tx: string) => db().transaction.findUniqueOrThrow({ where: { id: tx } });

  describe("declines at creation", () => {
    test("hard: MP rejects with cc_rejected_high_risk -> one attempt, 402 suspected_fraud, the payment failed", async () => {
      const e = buyer("hard");
      await mp(env, "/_control/behaviour", { mode: "decline", reason: "cc_rejected_high_risk", forEmail: e, times: 1 });
      const r = await api("/payments", { key: env.key, body: pix(e), base: env.server.url });
      assertEnvelope(r, "card_declined", 402);
      assert.equal(r.body.error.decline_code, "suspected_fraud");
      const attempts = r.body.error.details.attempts;
      assert.deepEqual(attempts.map((a: any) => [a.provider, a.outcome, a.reason, a.declineCode, a.decision]), [["mercadopago", "declined", "cc_rejected_high_risk", "suspected_fraud", "stop"]]);
      assert.equal((await paymentOf(env, r.body.error.details.transactionId)).status, "failed");
    });

    test("soft: MP rejects with cc_rejected_other_reason -> the next provider of the rail takes it", async () => {
      const e = buyer("soft");
      await mp(env, "/_control/behaviour", { mode: "decline", reason: "cc_rejected_other_reason", forEmail: e, times: 1 });
      const p = await pay(env, pix(e));
      const got = await paymentOf(env, p.transactionId);
      assert.deepEqual(got.attempts.map((a: any) => [a.provider, a.outcome, a.declineCode, a.decision]), [["mercadopago", "declined", "do_not_honor", "retry_next"], ["pagosur", "accepted", null, null]]);
      assert.equal(got.status, "pending");
    });

    test("MP's 5xx and garbage are unavailable, never declines: the cascade moves on", async () => {
      for (const mode of ["error", "garbage"]) {
        const e = buyer(mode);
        await mp(env, "/_control/behaviour", { mode, forEmail: e, times: 1 });
        const got = await paymentOf(env, (await pay(env, pix(e))).transactionId);
        assert.deepEqual(got.attempts.map((a: any) => [a.provider, a.outcome]), [["mercadopago", "unavailable"], ["pagosur", "accepted"]], mode);
      }
    });
  });

  describe("an answer MP never gave", () => {
    test("MP made the PIX payment but its answer timed out, the others never answered: pending, and reconciliation finds it by our reference and completes it once", async () => {
      const e = buyer("lost");
      await mp(env, "/_control/behaviour", { mode: "succeed_then_timeout", forEmail: e, times: 1 });
      await behave("pagosur", "timeout", e);
      await behave("rapidpay", "timeout", e);
      const r = await api("/payments", { key: env.key, body: pix(e), base: env.server.url });
      assertEnvelope(r, "cascade_exhausted", 422);
      assert.equal(r.body.error.details.reason, "providers_unavailable");
      const tx = (await db().transaction.findFirstOrThrow({ where: { merchantId: env.merchantId, userEmail: e } })).id;
      assert.deepEqual([(await row(tx)).status, (await row(tx)).providerRef], ["pending", null]);
      const [held] = await mpPayments(env, tx);
      assert.ok(held, "MP holds a payment under our reference");
      await mp(env, `/_control/payments/${held!.payment.id}/approve`, { notify: false });
      await waitFor(async () => (await row(tx)).status === "completed", "completion by reconciliation", 30_000);
      const done = await row(tx);
      assert.deepEqual([done.provider, done.providerRef], ["mercadopago", String(held!.payment.id)]);
      assert.equal(await db().ledgerPosting.count({ where: { transactionId: tx, kind: "payment_completed" } }), 1);
    });
  });

  describe("notices", () => {
    // Reconciliation (every second here) asks MP too: the tests below count effects (one posting,
    // one event, the notice recorded once), which hold whichever of the two got there first.
    const noticeUrl = () => `${env.server.url}/api/v1/providers/mercadopago/notifications`;
    async function pendingPix() {
      const p = await pay(env, pix(buyer("notice")));
      return { tx: p.transactionId, paymentId: (await row(p.transactionId)).providerRef! };
    }
    /**
     * A notice as MP sends one, signed with `secret` at `ts` (unix seconds). A re-delivery of the
     * same notification (same `notificationId`) carries its first signature: the same x-request-id
     * and ts, the signed parts our noticeId is made of.
     */
    const firstTs = new Map<number, string>();
    function notice(paymentId: string, opts: { secret?: string; ts?: number; signature?: string | null; notificationId?: number } = {}) {
      const notificationId = opts.notificationId ?? Math.floor(Math.random() * 1e12);
      const requestId = `req-${notificationId}`;
      if (!firstTs.has(notificationId)) firstTs.set(notificationId, String(opts.ts ?? Math.floor(Date.now() / 1000)));
      const ts = opts.ts !== undefined ? String(opts.ts) : firstTs.get(notificationId)!;
      const headers: Record<string, string> = { "content-type": "application/json", "x-request-id": requestId };
      if (opts.signature !== null) headers["x-signature"] = opts.signature ?? signatureHeader(opts.secret ?? MP_NOTICE_SECRET, paymentId, requestId, ts);
      const body = JSON.stringify({ id: notificationId, live_mode: false, type: "payment", date_created: new Date().toISOString(), user_id: 1, api_version: "v1", action: "payment.updated", data: { id: paymentId } });
      return fetch(`${noticeUrl()}?data.id=${paymentId}&type=payment`, { method: "POST", headers, body });
    }
    const recorded = (notificationId: number) => db().providerNotice.count({ where: { provider: "mercadopago", noticeId: { endsWith: `_req-${notificationId}` } } });

    test("forged, unsigned, re-aimed or stale: 401 invalid_signature before anything is read, nothing recorded", async () => {
      const { tx, paymentId } = await pendingPix();
      const id = () => Math.floor(Math.random() * 1e12);
      const cases = [
        ["another secret", id(), { secret: "not-the-webhook-secret-0123456789" }],
        ["no x-signature", id(), { signature: null }],
        ["a signature over another payment id", id(), { signature: signatureHeader(MP_NOTICE_SECRET, "1", randomUUID(), String(Math.floor(Date.now() / 1000))) }],
        ["signed an hour ago", id(), { ts: Math.floor(Date.now() / 1000) - 3600 }],
      ] as const;
      for (const [what, notificationId, opts] of cases) {
        const res = await notice(paymentId, { ...opts, notificationId });
        assert.equal(res.status, 401, what);
        const body = (await res.json()) as any;
        assert.equal(body.error.code, "invalid_signature", what);
        if (what === "signed an hour ago") assert.equal(body.error.details.reason, "timestamp_out_of_tolerance");
        assert.equal(await recorded(notificationId), 0, what);
      }
      assert.equal((await row(tx)).status, "pending");
    });

    test("MP's own webhook, delivered twice: both acknowledged, the payment completed once", async () => {
      const { tx, paymentId } = await pendingPix();
      const moved = await mp(env, `/_control/payments/${paymentId}/approve`, { duplicate: true });
      assert.deepEqual(moved.statuses, [200, 200]);
      await completed(env, tx);
      assert.equal(await db().ledgerPosting.count({ where: { transactionId: tx, kind: "payment_completed" } }), 1);
      assert.equal(await db().event.count({ where: { type: "payment.completed", payload: { path: ["data", "object", "id"], equals: tx } } }), 1);
    });

    test("a re-delivered notification (same id) is recorded once and applies nothing the second time", async () => {
      const { tx, paymentId } = await pendingPix();
      await mp(env, `/_control/payments/${paymentId}/approve`, { notify: false });
      const notificationId = Math.floor(Math.random() * 1e12);
      const first = await notice(paymentId, { notificationId });
      const second = await notice(paymentId, { notificationId });
      assert.deepEqual([first.status, second.status], [200, 200]);
      assert.equal(((await second.json()) as any).applied, false);
      assert.equal(await recorded(notificationId), 1);
      await completed(env, tx);
      assert.equal(await db().ledgerPosting.count({ where: { transactionId: tx, kind: "payment_completed" } }), 1);
    });

    test("a notice never applies more than MP's API says: pending at MP, then a payment MP denies (404)", async () => {
      const { tx, paymentId } = await pendingPix();
      const still = await mp(env, `/_control/payments/${paymentId}/notify`, {});
      assert.deepEqual(still.statuses, [200]);
      assert.equal((await row(tx)).status, "pending");
      // MP answers it has no such payment from now on; its webhook (signed, genuine) claims approved.
      await mp(env, `/_control/payments/${paymentId}/deny`, {});
      await mp(env, `/_control/payments/${paymentId}/approve`, { notify: false });
      const denied = await mp(env, `/_control/payments/${paymentId}/notify`, {});
      assert.deepEqual(denied.statuses, [200]);
      assert.equal((await row(tx)).status, "pending");
      assert.equal(await db().ledgerPosting.count({ where: { transactionId: tx, kind: "payment_completed" } }), 0);
    });

    test("MP's API failing during the read-back: 503 and nothing recorded (MP delivers again); the re-delivery applies it", async () => {
      const { tx, paymentId } = await pendingPix();
      await mp(env, `/_control/payments/${paymentId}/outage`, { times: 1_000_000 });
      await mp(env, `/_control/payments/${paymentId}/approve`, { notify: false });
      const notificationId = Math.floor(Math.random() * 1e12);
      const down = await notice(paymentId, { notificationId });
      assert.equal(down.status, 503);
      assert.equal(await recorded(notificationId), 0);
      assert.equal((await row(tx)).status, "pending");
      await mp(env, `/_control/payments/${paymentId}/outage`, { times: 0 });
      const again = await notice(paymentId, { notificationId });
      assert.equal(again.status, 200);
      assert.equal(await recorded(notificationId), 1);
      await completed(env, tx);
    });
  });
}
