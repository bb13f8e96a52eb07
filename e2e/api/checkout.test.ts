// Hosted checkout over real HTTP (4.5, 3.2): both modes of POST /checkout/sessions, the token
// endpoints, single use under concurrency, the trusted X-Forwarded-For hop, a forged Host that
// must not move checkoutUrl, and the buyer pages' security headers.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { API_URL, api, assertEnvelope, extraServer, newMerchant } from "./helpers.ts";
import { db } from "@/lib/platform/db";

const CPF = "52998224725";
const customer = { firstName: "Ana", lastName: "Souza", email: "ana@example.com", phone: "+55 11 98765-4321" };
let sk = "";
let pk = "";

before(async () => {
  const m = await newMerchant({ name: "Loja Azul" });
  sk = m.sandbox.secretKey;
  pk = m.sandbox.publishableKey;
});
after(() => db().$disconnect());

const createSession = (body: unknown, headers: Record<string, string> = {}, key = sk) => api("/checkout/sessions", { key, body, headers });
const select = (token: string, body: unknown, headers: Record<string, string> = {}) => api(`/checkout/sessions/${token}/select`, { body, headers });

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

describe("buyer pages over HTTP", () => {
  test("security headers with a per-response nonce that the page's scripts carry", async () => {
    const s = (await createSession({ amount: 10, customer })).body;
    const res = await fetch(`${API_URL}/checkout/${s.sessionId}`);
    assert.equal(res.status, 200);
    const csp = res.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    assert.ok(nonce, csp);
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.match(csp, /object-src 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline/);
    assert.equal(res.headers.get("x-frame-options"), "DENY");
    assert.equal(res.headers.get("x-content-type-options"), "nosniff");
    // No referrer (with its token) to other origins; our own form posts keep their real Origin.
    assert.equal(res.headers.get("referrer-policy"), "same-origin");
    assert.match(res.headers.get("cache-control") ?? "", /no-store/);
    const html = await res.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    assert.ok(scripts.length > 0);
    for (const tag of scripts) assert.ok(tag.includes(`nonce="${nonce}"`), `script without the nonce: ${tag}`);
    const second = await fetch(`${API_URL}/checkout/${s.sessionId}`);
    assert.notEqual(/'nonce-([^']+)'/.exec(second.headers.get("content-security-policy") ?? "")?.[1], nonce);
  });

  test("the page speaks the buyer's language: Accept-Language, overridden by ?locale=", async () => {
    const s = (await createSession({ amount: 100, country: "BR", customer })).body;
    const pt = await (await fetch(`${API_URL}/checkout/${s.sessionId}`, { headers: { "accept-language": "pt-BR,pt;q=0.9,en;q=0.5" } })).text();
    assert.match(pt, /<html lang="pt-BR"/);
    assert.match(pt, /Escolha como pagar/);
    assert.match(pt, /R\$\s540,00/);
    const es = await (await fetch(`${API_URL}/checkout/${s.sessionId}?locale=es-MX`, { headers: { "accept-language": "pt-BR" } })).text();
    assert.match(es, /<html lang="es"/);
    assert.match(es, /Elige cómo pagar/);
    const en = await (await fetch(`${API_URL}/checkout/${s.sessionId}`, { headers: { "accept-language": "de-DE" } })).text();
    assert.match(en, /Choose how to pay/);
  });

  test("unknown, expired and used sessions each get their own page, not an error", async () => {
    const unknown = await fetch(`${API_URL}/checkout/cs_${"B".repeat(24)}`);
    assert.equal(unknown.status, 200);
    assert.match(await unknown.text(), /Checkout not found/);
    const expired = (await createSession({ amount: 10, customer })).body;
    await db().checkoutSession.update({ where: { id: expired.sessionId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    assert.match(await (await fetch(`${API_URL}/checkout/${expired.sessionId}`)).text(), /This checkout has expired/);
    const used = (await createSession({ amount: 10, customer: { ...customer, documentId: CPF } })).body;
    const tx = (await select(used.sessionId, { paymentMethodId: "sbx_card" })).body.transactionId;
    const page = await (await fetch(`${API_URL}/checkout/${used.sessionId}`)).text();
    assert.match(page, /You already chose how to pay/);
    assert.ok(page.includes(`/c/${tx}/result`));
  });

  test("the form post refuses other sites (CSRF) and the status endpoint tells nothing but the status", async () => {
    const s = (await createSession({ amount: 10, customer: { ...customer, documentId: CPF } })).body;
    const cross = await fetch(`${API_URL}/checkout/${s.sessionId}/select`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "cross-site" }, body: "paymentMethodId=sbx_card", redirect: "manual" });
    assert.equal(cross.status, 403);
    assert.equal((await api(`/checkout/sessions/${s.sessionId}`)).body.status, "awaiting_method");
    // Without Sec-Fetch-Site (older browsers), an opaque origin is another site, not ours.
    const opaque = await fetch(`${API_URL}/checkout/${s.sessionId}/select`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin: "null" }, body: "paymentMethodId=sbx_card", redirect: "manual" });
    assert.equal(opaque.status, 403);
    assert.equal((await api(`/checkout/sessions/${s.sessionId}`)).body.status, "awaiting_method");
    const ours = await fetch(`${API_URL}/checkout/${s.sessionId}/select`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin: new URL(API_URL).origin }, body: "paymentMethodId=nope", redirect: "manual" });
    assert.equal(ours.status, 303, "our own origin, without Sec-Fetch-Site, is let through");
    const same = await fetch(`${API_URL}/checkout/${s.sessionId}/select`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" }, body: "paymentMethodId=sbx_card", redirect: "manual" });
    assert.equal(same.status, 303);
    const txId = (await api(`/checkout/sessions/${s.sessionId}`)).body.completedTxId;
    assert.ok(same.headers.get("location")?.startsWith(`${API_URL}/c/${txId}`));
    const status = await (await fetch(`${API_URL}/c/${txId}/status`)).json();
    assert.deepEqual(status, { status: "pending" });
    assert.equal((await fetch(`${API_URL}/c/tx_${"C".repeat(24)}/status`)).status, 404);
  });
});

test("the development-only buyer stylesheet route compiles nothing in a production build: 404", async () => {
  const res = await fetch(new URL("/checkout-assets/buyer.css", API_URL));
  assert.equal(res.status, 404);
  assert.ok(!(res.headers.get("content-type") ?? "").includes("text/css"));
});
