// The checkout token endpoints over real HTTP (4.5): GET /checkout/sessions/{token} and select,
// single use under concurrency, a rejected pick that leaves the session open, validation, and a
// suspended merchant's session.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { API_URL, api, assertEnvelope, newMerchant } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { CPF, customer, newCheckoutMerchant, createSession, select } from "./checkout-fixtures.ts";

before(newCheckoutMerchant);
after(() => db().$disconnect());

describe("GET /checkout/sessions/{token} and select", () => {
  test("the token alone reads its session; unknown, malformed and expired tokens are 404", async () => {
    const s = (await createSession({ amount: 10, customer })).body;
    const got = await api(`/checkout/sessions/${s.sessionId}`);
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(got.body, s);
    assertEnvelope(await api(`/checkout/sessions/cs_${"A".repeat(24)}`), "checkout_session_not_found", 404);
    assertEnvelope(await api(`/checkout/sessions/not-a-token`), "checkout_session_not_found", 404);
    await db().checkoutSession.update({ where: { id: s.sessionId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    assertEnvelope(await api(`/checkout/sessions/${s.sessionId}`), "checkout_session_not_found", 404);
    assertEnvelope(await select(s.sessionId, { paymentMethodId: "sbx_card" }), "checkout_session_not_found", 404);
  });

  test("select creates the one transaction, locks the session to it, and a second select is 409", async () => {
    const s = (await createSession({ amount: 20, country: "BR", customer: { ...customer, documentId: CPF }, merchantOrderId: "sel-1", returnUrl: "https://shop.example/back" }, { "x-forwarded-for": "203.0.113.30" })).body;
    const res = await select(s.sessionId, { paymentMethodId: "sbx_pix" });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.sessionId, s.sessionId);
    assert.equal(res.body.status, "pending");
    assert.match(res.body.transactionId, /^tx_/);
    assert.equal(res.body.checkoutUrl, `${API_URL}/c/${res.body.transactionId}?returnUrl=${encodeURIComponent("https://shop.example/back")}`);

    const after = (await api(`/checkout/sessions/${s.sessionId}`)).body;
    assert.equal(after.status, "completed");
    assert.equal(after.completedTxId, res.body.transactionId);
    assert.equal(after.paymentMethodId, "sbx_pix");

    const again = await select(s.sessionId, { paymentMethodId: "sbx_card" });
    assertEnvelope(again, "checkout_session_already_completed", 409);
    assert.equal(again.body.error.details.existingTxId, res.body.transactionId);

    const tx = await db().transaction.findUniqueOrThrow({ where: { id: res.body.transactionId } });
    assert.equal(tx.userIp, "203.0.113.30"); // the session's customer IP is forwarded as userIp
    assert.equal(tx.amountUsd, 2000n);
    assert.equal(tx.merchantOrderId, "sel-1");
    assert.equal(tx.hostedCheckout, true);
    // The document reached the provider and is not kept on the session.
    assert.equal((await db().checkoutSession.findUniqueOrThrow({ where: { id: s.sessionId } })).documentId, null);

    const redirect = await fetch(`${API_URL}/c/${res.body.transactionId}`, { redirect: "manual" });
    assert.equal(redirect.status, 307);
    assert.equal(redirect.headers.get("location"), tx.paymentFormUrl);
  });

  test("concurrent selects of one session create exactly one transaction", async () => {
    const s = (await createSession({ amount: 15, customer: { ...customer, documentId: CPF }, merchantOrderId: `race-${Date.now()}` })).body;
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => select(s.sessionId, { paymentMethodId: i % 2 ? "sbx_card" : "sbx_pix" })));
    const ok = results.filter((r) => r.status === 200);
    assert.equal(ok.length, 1, results.map((r) => `${r.status} ${r.body?.error?.code ?? ""}`).join(", "));
    const txId = ok[0]!.body.transactionId;
    for (const r of results.filter((r) => r.status !== 200)) {
      assertEnvelope(r, "checkout_session_already_completed", 409);
      assert.equal(r.body.error.details.existingTxId, txId);
    }
    assert.equal(await db().transaction.count({ where: { merchantOrderId: s.merchantOrderId } }), 1);
  });

  test("a rejected pick leaves the session open: a missing document, then the corrected pick", async () => {
    const s = (await createSession({ amount: 15, country: "BR", customer })).body;
    const missing = await select(s.sessionId, { paymentMethodId: "sbx_pix" });
    assertEnvelope(missing, "missing_required_fields", 422);
    assert.deepEqual(missing.body.error.details.missingFields.map((f: any) => f.key), ["documentId"]);
    const malformed = await select(s.sessionId, { paymentMethodId: "sbx_pix", customer: { documentId: "12345678900" } });
    assertEnvelope(malformed, "missing_required_fields", 422);
    assertEnvelope(await select(s.sessionId, { paymentMethodId: "1003" }), "unsupported_country", 400);
    assertEnvelope(await select(s.sessionId, { paymentMethodId: "nope" }), "cascade_exhausted", 422);
    assert.equal((await api(`/checkout/sessions/${s.sessionId}`)).body.status, "awaiting_method");
    const ok = await select(s.sessionId, { paymentMethodId: "sbx_pix", customer: { documentId: CPF, fullName: "Ana Maria Souza", email: "maria@example.com" } });
    assert.equal(ok.status, 200, ok.text);
    const tx = await db().transaction.findUniqueOrThrow({ where: { id: ok.body.transactionId } });
    assert.equal(tx.userName, "Ana Maria Souza");
    assert.equal(tx.userEmail, "maria@example.com");
  });

  test("select validates its body like every endpoint", async () => {
    const s = (await createSession({ amount: 15, customer })).body;
    assertEnvelope(await select(s.sessionId, {}), "missing_field", 400);
    assertEnvelope(await select(s.sessionId, { paymentMethodId: "sbx_card", customer: { email: "nope" } }), "invalid_request", 400);
    assertEnvelope(await api(`/checkout/sessions/${s.sessionId}/select`, { method: "GET" }), "method_not_allowed", 405);
  });

  test("a suspended merchant's session cannot create a payment", async () => {
    const m = await newMerchant();
    const s = (await createSession({ amount: 15, customer: { ...customer, documentId: CPF } }, {}, m.sandbox.secretKey)).body;
    await db().merchant.update({ where: { id: m.merchantId }, data: { status: "suspended" } });
    assertEnvelope(await select(s.sessionId, { paymentMethodId: "sbx_card" }), "merchant_suspended", 403);
  });
});
