// The buyer pages of the hosted checkout over real HTTP: security headers with a per-response
// nonce, the buyer's language, a page for unknown, expired and used sessions, CSRF refusal and the
// status endpoint, and no development stylesheet route in a production build.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { API_URL, api } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { CPF, customer, newCheckoutMerchant, createSession, select } from "./checkout-fixtures.ts";

before(newCheckoutMerchant);
after(() => db().$disconnect());

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
