// Money leaves at most once (decisions.md), payouts over real HTTP against the simulated PSPs: a
// payout the provider MADE but whose answer timed out or came back 5xx answers processing, a retry
// with the same Idempotency-Key returns the same payout, the status job learns the outcome by our
// reference, the beneficiary is paid once and the merchant debited once; a refused payout is 422
// payout_dispatch_failed with the debit reversed; REFUNDED after PAID returns the money once.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { api, assertEnvelope, waitFor } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import type { CreatedMerchant } from "@/lib/merchants/create-merchant";
import { email, freshClabe, speiRecipient, psp, behave, timesPaid, ledger, postings, payoutEvents, seedRates, fundedMerchant } from "./provider-outcomes-fixtures.ts";

after(() => db().$disconnect());
before(seedRates);

describe("payouts whose answer is lost", () => {
  let m: CreatedMerchant;
  before(async () => {
    m = await fundedMerchant();
  });

  for (const mode of ["succeed_then_timeout", "succeed_then_error"] as const) {
    test(`${mode}: processing, the same payout on retry, completed by the status job, paid once, debited once`, async () => {
      const key = m.production.secretKey;
      const who = email();
      const account = freshClabe();
      await behave("pagosur", mode, who);
      const availableBefore = await ledger(m.merchantId, "payout_available", "MXN");
      const sentBefore = await ledger(m.merchantId, "payouts_sent", "MXN");
      const headers = { "idempotency-key": `k-${randomUUID()}` };
      const body = { methodId: "po_mx_spei", amount: 250, recipient: speiRecipient(account, who) };

      const first = await api("/me/payout/send", { key, body, headers });
      assert.equal(first.status, 200, first.text);
      assert.equal(first.body.payout.status, "processing");
      assert.equal(await timesPaid(account), 1, "the provider did pay");
      const retry = await api("/me/payout/send", { key, body, headers });
      assert.equal(retry.status, 200, retry.text);
      assert.equal(retry.body.payout.id, first.body.payout.id, "a retry with the same key is the same payout");

      const done = await waitFor(async () => {
        const p = (await api(`/me/payout/send/${first.body.payout.id}`, { key })).body.payout;
        return p.status !== "processing" && p;
      }, "the status job to learn the outcome", 20_000);
      assert.equal(done.status, "completed");
      assert.match(done.providerRef, /^pagosur_po_/);
      assert.equal(await timesPaid(account), 1, "the beneficiary was paid once");
      assert.equal(await db().payout.count({ where: { merchantId: m.merchantId, recipient: { path: ["account"], equals: account } } }), 1);
      assert.equal(availableBefore - (await ledger(m.merchantId, "payout_available", "MXN")), 25_000n, "the merchant was debited once");
      assert.equal((await ledger(m.merchantId, "payouts_sent", "MXN")) - sentBefore, 25_000n);
      assert.equal(await ledger(m.merchantId, "payout_in_flight", "MXN"), 0n);
      assert.equal(await payoutEvents(first.body.payout.id, "payout.completed"), 1);
      assert.equal(await payoutEvents(first.body.payout.id, "payout.failed"), 0);
    });
  }

  test("an explicit refusal: 422 payout_dispatch_failed, the debit reversed, nobody paid", async () => {
    const key = m.production.secretKey;
    const who = email();
    const account = freshClabe();
    await behave("pagosur", "decline", who);
    const before = await ledger(m.merchantId, "payout_available", "MXN");
    const r = await api("/me/payout/send", { key, body: { methodId: "po_mx_spei", amount: 120, recipient: speiRecipient(account, who) }, headers: { "idempotency-key": `k-${randomUUID()}` } });
    assertEnvelope(r, "payout_dispatch_failed", 422);
    assert.equal(r.body.error.details.failureReason, "beneficiary_account_invalid");
    assert.equal((await db().payout.findUniqueOrThrow({ where: { id: r.body.error.details.payoutId } })).status, "failed");
    assert.equal(await ledger(m.merchantId, "payout_available", "MXN"), before, "the debit is back");
    assert.equal(await ledger(m.merchantId, "payout_in_flight", "MXN"), 0n);
    assert.equal(await timesPaid(account), 0);
  });

  test("REFUNDED after PAID: credited back once (a twice-delivered and a repeated REFUNDED), payout.failed returned", async () => {
    const key = m.production.secretKey;
    const account = freshClabe();
    const before = await ledger(m.merchantId, "payout_available", "MXN");
    const returnedBefore = await postings(m.merchantId, "payout_returned");
    const sent = await api("/me/payout/send", { key, body: { methodId: "po_mx_spei", amount: 80, recipient: speiRecipient(account, email()) } });
    assert.equal(sent.status, 200, sent.text);
    const id = sent.body.payout.id;
    assert.deepEqual((await psp("pagosur", `/_control/payouts/${id}/PAID`, {})).statuses, [200]);
    assert.equal((await api(`/me/payout/send/${id}`, { key })).body.payout.status, "completed");
    assert.equal(await ledger(m.merchantId, "payout_available", "MXN"), before - 8_000n);

    const twice = await psp("pagosur", `/_control/payouts/${id}/REFUNDED`, { duplicate: true });
    assert.deepEqual(twice.statuses, [200, 200]);
    const again = await psp("pagosur", `/_control/payouts/${id}/REFUNDED`, {});
    assert.deepEqual(again.statuses, [200]);
    const p = (await api(`/me/payout/send/${id}`, { key })).body.payout;
    assert.deepEqual([p.status, p.failureReason], ["failed", "returned"]);
    assert.equal(await ledger(m.merchantId, "payout_available", "MXN"), before, "the money is back, once");
    assert.equal((await postings(m.merchantId, "payout_returned")) - returnedBefore, 1);
    assert.equal(await payoutEvents(id, "payout.failed"), 1);
    assert.equal(await payoutEvents(id, "payout.completed"), 1);
  });
});
