// POST /checkout/sessions over real HTTP (4.5, 3.2): selector mode (trimmed customer fields,
// presentment currency, missing and invalid fields, keys, Idempotency-Key), the trusted
// X-Forwarded-For hop for the customer IP, a forged Host that must not move checkoutUrl, and
// one-shot mode.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { API_URL, api, assertEnvelope, extraServer } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { CPF, customer, sk, pk, newCheckoutMerchant, createSession, select } from "./checkout-fixtures.ts";

before(newCheckoutMerchant);
after(() => db().$disconnect());

describe("POST /checkout/sessions, selector mode", () => {
  test("mints a cs_ session for 24 h with trimmed customer fields, on APP_URL", async () => {
    const started = Date.now();
    const res = await createSession({ amount: 100, country: "BR", customer: { ...customer, firstName: "  Ana  ", email: " ana@example.com " }, merchantOrderId: "ord-1", returnUrl: "https://shop.example/done" });
    assert.equal(res.status, 200, res.text);
    const s = res.body;
    assert.match(s.sessionId, /^cs_[0-9A-Za-z]{24}$/);
    assert.equal(s.token, s.sessionId);
    assert.equal(s.checkoutUrl, `${API_URL}/checkout/${s.sessionId}`);
    assert.equal(s.paymentMethodId, null);
    assert.equal(s.status, "awaiting_method");
    assert.equal(s.amount, 100);
    assert.equal(s.currency, "USD");
    assert.equal(s.country, "BRA");
    assert.deepEqual(s.customer, customer);
    assert.equal(s.merchantOrderId, "ord-1");
    assert.equal(s.returnUrl, "https://shop.example/done");
    assert.equal(s.completedTxId, null);
    const ttl = Date.parse(s.expiresAt) - started;
    assert.ok(ttl > 24 * 3600_000 - 60_000 && ttl <= 24 * 3600_000 + 60_000, `ttl ${ttl}`);
  });

  test("a presentment currency is converted to USD once; the response keeps USD with inputCurrency/inputAmount", async () => {
    const res = await createSession({ amount: 540, currency: "BRL", country: "BRA", customer });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.currency, "USD");
    assert.equal(res.body.inputCurrency, "BRL");
    assert.equal(res.body.inputAmount, 540);
    assert.ok(res.body.amount > 90 && res.body.amount < 100, `USD ${res.body.amount} (5.40 BRL/USD less the FX markup)`);
    assertEnvelope(await createSession({ amount: 10, currency: "XYZ", customer }), "unsupported_currency", 400);
  });

  test("an absent customer lists every missing field, with issues and a help URL", async () => {
    const res = await createSession({ amount: 10 });
    assertEnvelope(res, "invalid_request", 400);
    const d = res.body.error.details;
    assert.deepEqual(d.missingFields, ["customer.firstName", "customer.lastName", "customer.email", "customer.phone"]);
    assert.ok(d.issues.every((i: any) => typeof i.path === "string" && typeof i.message === "string"));
    assert.match(d.helpUrl, /^http/);
  });

  test("fields are trimmed before validation: blank, too long and malformed values are invalid_request", async () => {
    const cases: Array<[unknown, string]> = [
      [{ ...customer, firstName: "   " }, "customer.firstName"],
      [{ ...customer, lastName: "x".repeat(61) }, "customer.lastName"],
      [{ ...customer, email: "not-an-email" }, "customer.email"],
      [{ ...customer, email: `${"a".repeat(250)}@example.com` }, "customer.email"],
      [{ ...customer, phone: "call me" }, "customer.phone"],
      [{ ...customer, phone: "1".repeat(41) }, "customer.phone"],
      [{ ...customer, documentId: "9".repeat(41) }, "customer.documentId"],
    ];
    for (const [c, path] of cases) {
      const res = await createSession({ amount: 10, customer: c });
      assertEnvelope(res, "invalid_request", 400);
      assert.ok(res.body.error.details.issues.some((i: any) => i.path === path), `${path}: ${res.text}`);
      assert.deepEqual(res.body.error.details.missingFields, []);
    }
    // Exactly 60 characters after trimming is fine.
    assert.equal((await createSession({ amount: 10, customer: { ...customer, firstName: ` ${"x".repeat(60)} ` } })).status, 200);
    for (const body of [{ amount: "10", customer }, { amount: -1, customer }, { amount: 10, customer, country: "ZZ" }, { amount: 10, customer, returnUrl: "javascript:alert(1)" }]) {
      assertEnvelope(await createSession(body), "invalid_request", 400);
    }
  });

  test("a session no method could pay is refused up front", async () => {
    const none = await createSession({ amount: 10, country: "AR", customer });
    assertEnvelope(none, "cascade_exhausted", 422);
    assert.equal(none.body.error.details.reason, "no_provider_for_method_region");
    assertEnvelope(await createSession({ amount: 0.5, country: "BR", customer }), "amount_out_of_limits", 422);
    assertEnvelope(await createSession({ amount: 100_001, customer }), "amount_out_of_limits", 422);
  });

  test("needs a secret key; an Idempotency-Key replays the same session", async () => {
    assertEnvelope(await api("/checkout/sessions", { body: { amount: 10, customer } }), "missing_credentials", 401);
    const byPk = await createSession({ amount: 10, customer }, {}, pk);
    assert.ok([401, 403].includes(byPk.status), byPk.text);
    const key = `idem-${Math.random()}`;
    const a = await createSession({ amount: 10, customer }, { "idempotency-key": key });
    const b = await createSession({ amount: 10, customer }, { "idempotency-key": key });
    assert.equal(b.headers.get("idempotent-replayed"), "true");
    assert.equal(a.body.sessionId, b.body.sessionId);
  });
});

describe("customer IP and canonical URLs", () => {
  test("the customer IP is the hop our proxies wrote, never the client's own; then x-real-ip; none trusted: the peer", async () => {
    const res = await createSession({ amount: 10, customer }, { "x-forwarded-for": "6.6.6.6, 203.0.113.9" });
    assert.equal(res.body.customerIp, "203.0.113.9");
    const spoof = await createSession({ amount: 10, customer }, { "x-forwarded-for": "not-an-ip" });
    assert.equal(spoof.body.customerIp, null);
    // The harness trusts 127.0.0.1 (the test client plays the edge); here also a 10/8 inner proxy.
    const two = await extraServer({ ...(process.env as Record<string, string>), TRUSTED_PROXIES: "127.0.0.1/32, 10.0.0.0/8" });
    try {
      const viaTwo = await api("/checkout/sessions", { base: two.url, key: sk, body: { amount: 10, customer }, headers: { "x-forwarded-for": "6.6.6.6, 203.0.113.9, 10.0.0.2" } });
      assert.equal(viaTwo.body.customerIp, "203.0.113.9");
      // Every hop ours (Next writes the peer itself when none came): x-real-ip from the edge.
      const realIp = await api("/checkout/sessions", { base: two.url, key: sk, body: { amount: 10, customer }, headers: { "x-real-ip": "198.51.100.7" } });
      assert.equal(realIp.body.customerIp, "198.51.100.7");
    } finally {
      await two.stop();
    }
    // No trusted proxy (the default): forwarding headers are the client's own claim.
    const none = await extraServer({ ...(process.env as Record<string, string>), TRUSTED_PROXIES: "" });
    try {
      const res = await api("/checkout/sessions", { base: none.url, key: sk, body: { amount: 10, customer }, headers: { "x-forwarded-for": "203.0.113.9", "x-real-ip": "198.51.100.7" } });
      assert.equal(res.body.customerIp, "127.0.0.1");
    } finally {
      await none.stop();
    }
  });

  test("a forged Host or X-Forwarded-Host does not change checkoutUrl (selector and one-shot)", async () => {
    const forged = { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };
    const s = await createSession({ amount: 10, customer }, forged);
    assert.equal(s.status, 200, s.text);
    assert.equal(s.body.checkoutUrl, `${API_URL}/checkout/${s.body.sessionId}`);
    const one = await createSession({ amount: 10, paymentMethodId: "sbx_card", userName: "Ana Souza", userEmail: "ana@example.com", documentId: CPF }, forged);
    assert.equal(one.status, 200, one.text);
    assert.ok(one.body.checkoutUrl.startsWith(`${API_URL}/c/${one.body.transactionId}`), one.body.checkoutUrl);
    const sel = await select(s.body.sessionId, { paymentMethodId: "sbx_card", customer: { documentId: CPF } }, forged);
    assert.ok(sel.body.checkoutUrl.startsWith(`${API_URL}/c/`), sel.text);
  });
});

describe("one-shot mode", () => {
  test("paymentMethodId creates the pending transaction at once; checkoutUrl is /c/<txId> with returnUrl", async () => {
    const res = await createSession({ amount: 50, paymentMethodId: "sbx_pix", country: "BR", userName: "Ana Souza", userEmail: "ana@example.com", documentId: CPF, merchantOrderId: "one-1", returnUrl: "https://shop.example/r?x=1" }, { "x-forwarded-for": "203.0.113.20" });
    assert.equal(res.status, 200, res.text);
    const b = res.body;
    assert.equal(b.sessionId, b.transactionId);
    assert.match(b.transactionId, /^tx_/);
    assert.equal(b.status, "pending");
    assert.equal(b.paymentMethodId, "sbx_pix");
    assert.equal(b.currencyLocal, "BRL");
    assert.equal(b.amountLocal, 270);
    const url = new URL(b.checkoutUrl);
    assert.equal(`${url.origin}${url.pathname}`, `${API_URL}/c/${b.transactionId}`);
    assert.equal(url.searchParams.get("returnUrl"), "https://shop.example/r?x=1");
    const tx = await api(`/payments/${b.transactionId}`, { key: sk });
    assert.equal(tx.body.status, "pending");
    assert.equal((await db().transaction.findUniqueOrThrow({ where: { id: b.transactionId } })).userIp, "203.0.113.20");
    // No session row in one-shot mode (3.2).
    assert.equal(await db().checkoutSession.count({ where: { merchantOrderId: "one-1" } }), 0);
  });

  test("buyer data is required as in the hosted flow; `customer` may supply it", async () => {
    const missing = await createSession({ amount: 50, paymentMethodId: "sbx_pix" });
    assertEnvelope(missing, "missing_required_fields", 422);
    assert.deepEqual(missing.body.error.details.missingFields.map((f: any) => f.key).sort(), ["documentId", "userEmail", "userName"]);
    const viaCustomer = await createSession({ amount: 50, paymentMethodId: "sbx_pix", customer: { ...customer, documentId: CPF } });
    assert.equal(viaCustomer.status, 200, viaCustomer.text);
    assertEnvelope(await createSession({ amount: 50, paymentMethodId: "nope", customer: { ...customer, documentId: CPF } }), "cascade_exhausted", 422);
  });
});
