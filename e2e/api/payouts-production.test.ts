// Payouts in production over real HTTP (decisions.md Payouts): dispatch through the simulated
// providers with signed PAID / REJECTED / REFUNDED webhooks (forged ones refused), and the
// simulated driver when no provider is configured.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { api, assertEnvelope, extraServer, newMerchant, waitFor } from "./helpers.ts";
import { signedNotice } from "./provider-notices.ts";
import { db } from "@/lib/platform/db";
import { dispatchStalePayouts } from "@/lib/payouts/dispatch-payout";
import { email, speiRecipient, send, balanceOf, simulate, pagosur, productionPayin, seedRates } from "./payouts-fixtures.ts";

after(() => db().$disconnect());
before(seedRates);

describe("production: providers, signed webhooks, the simulated driver", () => {
  test("transfer, swap and send through the provider; PAID completes; REJECTED twice reverses once; a provider refusal is 422 payout_dispatch_failed with the debit reversed", async () => {
    const m = await newMerchant({ tier: "premium" });
    const key = m.production.secretKey;
    // 3640 MXN = 200 USD pay-in; premium SPEI fees 2.4% + 0.30 + 0.6% + 0.10 = 6.40: 193.60 available.
    await productionPayin(m, "364000");
    assert.equal((await api("/me/payout/transfer", { key, body: { amountUsd: 150 } })).status, 200);
    const quote = await api("/me/payout/swap?currency=MXN&amountUsd=150", { key });
    assert.equal(quote.status, 200, quote.text);
    const swapped = await api("/me/payout/swap", { key, body: { quoteId: quote.body.quoteId } });
    assert.equal(swapped.status, 200, swapped.text);
    const mxn = swapped.body.balances.find((b: any) => b.currency === "MXN").available;
    assert.equal(mxn, 2716.35); // (150 - 0.75) × 18.20

    // Dispatched to the first configured provider of the rail, which answers processing.
    const paid = await send(key, { methodId: "po_mx_spei", amount: 1000, recipient: speiRecipient() });
    assert.equal(paid.status, 200, paid.text);
    assert.equal(paid.body.payout.status, "processing");
    assert.equal(paid.body.payout.provider, "pagosur");
    assert.match(paid.body.payout.providerRef, /^pagosur_po_/);
    const ok = await pagosur(`/_control/payouts/${paid.body.payout.providerRef}/PAID`, {});
    assert.deepEqual(ok.statuses, [200]);
    assert.equal((await api(`/me/payout/send/${paid.body.payout.id}`, { key })).body.payout.status, "completed");
    assert.deepEqual(await balanceOf(key, "MXN"), { currency: "MXN", available: 1716.35, pending: 0, reserved: 0 });

    const rejected = await send(key, { methodId: "po_mx_spei", amount: 700, recipient: speiRecipient() });
    assert.equal(rejected.status, 200, rejected.text);
    assert.deepEqual(await balanceOf(key, "MXN"), { currency: "MXN", available: 1016.35, pending: 0, reserved: 700 });
    const twice = await pagosur(`/_control/payouts/${rejected.body.payout.id}/REJECTED`, { reason: "account_closed", duplicate: true });
    assert.deepEqual(twice.statuses, [200, 200]);
    const failed = (await api(`/me/payout/send/${rejected.body.payout.id}`, { key })).body.payout;
    assert.deepEqual([failed.status, failed.failureReason], ["failed", "rejected: account_closed"]);
    assert.deepEqual(await balanceOf(key, "MXN"), { currency: "MXN", available: 1716.35, pending: 0, reserved: 0 });
    // A late REFUNDED for the same payout changes nothing either.
    await pagosur(`/_control/payouts/${rejected.body.payout.id}/REFUNDED`, {});
    assert.equal(await db().ledgerPosting.count({ where: { merchantId: m.merchantId, kind: "payout_reversed" } }), 1);
    assert.equal(await db().event.count({ where: { merchantId: m.merchantId, environment: "production", type: "payout.failed" } }), 1);
    assert.equal(await db().event.count({ where: { merchantId: m.merchantId, environment: "production", type: "payout.completed" } }), 1);

    // REFUNDED of a processing payout fails it too.
    const refunded = await send(key, { methodId: "po_mx_spei", amount: 16.35, recipient: speiRecipient() });
    await pagosur(`/_control/payouts/${refunded.body.payout.id}/REFUNDED`, {});
    assert.equal((await api(`/me/payout/send/${refunded.body.payout.id}`, { key })).body.payout.status, "failed");

    // The provider refuses: the payout fails and its debit is back before the answer.
    const who = email();
    await pagosur("/_control/behaviour", { mode: "decline", forEmail: who, times: 1 });
    const declined = await send(key, { methodId: "po_mx_spei", amount: 500, recipient: speiRecipient({ email: who }) });
    assertEnvelope(declined, "payout_dispatch_failed", 422);
    assert.equal(declined.body.error.details.failureReason, "beneficiary_account_invalid");
    const row = await db().payout.findUniqueOrThrow({ where: { id: declined.body.error.details.payoutId } });
    assert.equal(row.status, "failed");
    // No usable answer (5xx, garbage, timeout) is unknown, not a refusal: the payout stays
    // processing with its money held; the status job finds the provider never got it and hands
    // it over again under the same reference. Here the provider then rejects each one.
    for (const mode of ["error", "garbage", "timeout"]) {
      const w = email();
      await pagosur("/_control/behaviour", { mode, forEmail: w, times: 1 });
      const r = await send(key, { methodId: "po_mx_spei", amount: 500, recipient: speiRecipient({ email: w }) });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.payout.status, "processing", mode);
      await waitFor(async () => (await db().payout.findUniqueOrThrow({ where: { id: r.body.payout.id } })).providerRef, `the status job re-sends the ${mode} payout`, 15_000);
      await pagosur(`/_control/payouts/${r.body.payout.id}/REJECTED`, { reason: "account_closed" });
      assert.equal((await api(`/me/payout/send/${r.body.payout.id}`, { key })).body.payout.status, "failed");
    }
    assert.deepEqual(await balanceOf(key, "MXN"), { currency: "MXN", available: 1716.35, pending: 0, reserved: 0 });
    assert.equal(await db().ledgerPosting.count({ where: { merchantId: m.merchantId, kind: "payout_reversed" } }), 6);
    assertEnvelope(await simulate(key, paid.body.payout.id, "failed"), "simulate_sandbox_only", 400);

    // A payout committed but never handed over (as if the process died between commit and the
    // call) is dispatched by the sweep; the provider de-duplicates on our id.
    const lost = await send(key, { methodId: "po_mx_spei", amount: 100, recipient: speiRecipient() });
    assert.equal(lost.status, 200, lost.text);
    await db().payout.update({ where: { id: lost.body.payout.id }, data: { dispatchedAt: null, providerRef: null, checkAfter: null, createdAt: new Date(Date.now() - 60_000) } });
    assert.ok((await dispatchStalePayouts({ graceMs: 30_000 })) >= 1);
    const swept = await db().payout.findUniqueOrThrow({ where: { id: lost.body.payout.id } });
    assert.equal(swept.status, "processing");
    assert.ok(swept.dispatchedAt);
    assert.equal(swept.providerRef, lost.body.payout.providerRef, "the provider answered with the payout it already had");
  });

  test("payout webhooks: unsigned or forged are 401; an unknown payout is acknowledged", async () => {
    const body = JSON.stringify({ noticeId: "ntc_x", payoutId: "pagosur_po_nope", status: "PAID" });
    assertEnvelope(await api("/providers/pagosur/payouts", { raw: body, headers: { "content-type": "application/json" } }), "invalid_signature", 401);
    assertEnvelope(await api("/providers/pagosur/payouts", { raw: body, headers: { "content-type": "application/json", "x-provider-signature": createHmac("sha256", "forged").update(body).digest("hex") } }), "invalid_signature", 401);
    assertEnvelope(await api("/providers/nobody/payouts", { raw: body, headers: { "content-type": "application/json", "x-provider-signature": "00" } }), "invalid_signature", 401);
    const ack = await api("/providers/pagosur/payouts", { raw: body, headers: signedNotice("pagosur", body) });
    assert.equal(ack.status, 200, ack.text);
    assert.deepEqual(ack.body, { received: true, applied: false });
    const bad = JSON.stringify({ noticeId: "ntc_y", payoutId: "x", status: "MAYBE" });
    assertEnvelope(await api("/providers/pagosur/payouts", { raw: bad, headers: signedNotice("pagosur", bad) }), "invalid_request", 400);
  });

  test("without a configured provider, the simulated driver completes a production payout at once", async () => {
    const m = await newMerchant({ tier: "premium" });
    await productionPayin(m, "182000"); // 100 USD, 96.60 after fees
    const key = m.production.secretKey;
    assert.equal((await api("/me/payout/transfer", { key, body: { amountUsd: 50 } })).status, 200);
    const q = await api("/me/payout/swap?currency=MXN&amountUsd=50", { key });
    assert.equal((await api("/me/payout/swap", { key, body: { quoteId: q.body.quoteId } })).status, 200);
    const bare = await extraServer({ PROVIDER_PAGOSUR_URL: "", PROVIDER_ANDESPAY_URL: "", PROVIDER_RAPIDPAY_URL: "" });
    try {
      const r = await send(key, { methodId: "po_mx_spei", amount: 100, recipient: speiRecipient() }, {});
      assert.equal(r.status, 200, r.text);
      const viaBare = await api("/me/payout/send", { base: bare.url, key, body: { methodId: "po_mx_spei", amount: 200, recipient: speiRecipient() } });
      assert.equal(viaBare.status, 200, viaBare.text);
      assert.deepEqual([viaBare.body.payout.status, viaBare.body.payout.provider], ["completed", "simulated"]);
      assert.ok(viaBare.body.payout.completedAt);
      assert.match(viaBare.body.payout.providerRef, /^sim_/);
      assert.equal(await db().event.count({ where: { merchantId: m.merchantId, environment: "production", type: "payout.completed" } }), 1);
      // The one dispatched through pagosur on the main server is still processing.
      assert.equal(r.body.payout.provider, "pagosur");
      assert.deepEqual(await balanceOf(key, "MXN"), { currency: "MXN", available: 605.45, pending: 0, reserved: 100 });
    } finally {
      await bare.stop();
    }
  });
});
