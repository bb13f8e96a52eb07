// The checkout's method selector over real HTTP (issue 13, issue 24): the document field's round
// trip, the sandbox selector's test rails in the buyer's language, the kept rendering
// (server/buyer-page.tsx memoKey), and Brazil's test rails with the buyer details kept across
// 'pay another way'.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { api } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { CPF, CURP, customer, m, sk, newShopMerchant, createSession, select, formPost, page, has, hasNot, tokenOf } from "./checkout-buyer-fixtures.ts";

before(newShopMerchant);
after(() => db().$disconnect());

describe("the selector form's document field", () => {
  test("a bad CURP comes back as document_invalid (not missing_required_fields), with the value, the format and the focus; an empty one as document_missing", async () => {
    const s = (await createSession({ amount: 30, country: "MX", customer })).body;
    const bad = await formPost(`/checkout/${s.sessionId}/select?locale=es-MX`, { paymentMethodId: "sbx_spei", documentId: "PEPJ800101" });
    assert.equal(bad.status, 303);
    const loc = new URL(bad.headers.get("location")!);
    assert.equal(loc.searchParams.get("error"), "document_invalid");
    assert.equal(loc.searchParams.get("field"), "documentId");
    assert.equal(loc.searchParams.get("method"), "sbx_spei");
    assert.equal(loc.hash, "#documentId");
    hasNot(loc.toString(), /missing_required_fields|PEPJ800101/);
    const cookie = bad.headers.get("set-cookie") ?? "";
    has(cookie, /^checkout_document=PEPJ800101;/);
    has(cookie, new RegExp(`Path=/checkout/${s.sessionId}`));
    has(cookie, /HttpOnly/);

    const html = await page(`${loc.pathname}${loc.search}`, { cookie: cookie.split(";")[0]! });
    const input = /<input[^>]*id="documentId"[^>]*>/.exec(html)?.[0] ?? "";
    has(input, /value="PEPJ800101"/);
    has(input, /autofocus/);
    has(input, /aria-invalid="true"/);
    has(input, /required/);
    has(input, /inputMode="text"|inputmode="text"/);
    has(html, /id="documentId-error"[^>]*>[^<]*CURP: 18 caracteres/);

    const empty = await formPost(`/checkout/${s.sessionId}/select`, { paymentMethodId: "sbx_spei", documentId: "" });
    assert.equal(new URL(empty.headers.get("location")!).searchParams.get("error"), "document_missing");
    has(await page(new URL(empty.headers.get("location")!).pathname + new URL(empty.headers.get("location")!).search), /Enter your document number to continue/);

    // A Brazilian session asks for a CPF on a number pad.
    const br = (await createSession({ amount: 30, country: "BR", customer })).body;
    const brInput = /<input[^>]*id="documentId"[^>]*>/.exec(await page(`/checkout/${br.sessionId}`))?.[0] ?? "";
    has(brInput, /inputMode="numeric"|inputmode="numeric"/);

    // The corrected pick goes through and clears the kept value.
    const good = await formPost(`/checkout/${s.sessionId}/select`, { paymentMethodId: "sbx_spei", documentId: CURP });
    has(good.headers.get("location") ?? "", /\/c\/tx_/);
    has(good.headers.get("set-cookie") ?? "", /^checkout_document=;.*Max-Age=0/);
  });
});
describe("the sandbox selector", () => {
  test("offers the test rails only (production ids stay reachable through the API), named in the buyer's language", async () => {
    const mx = (await createSession({ amount: 30, country: "MX", customer: { ...customer, documentId: CURP } })).body;
    const html = await page(`/checkout/${mx.sessionId}?locale=es-MX`);
    has(html, /id="method-sbx_spei"/);
    has(html, /id="method-sbx_cash"/);
    hasNot(html, /id="method-1003"|id="method-1004"|id="method-1007"/);
    hasNot(html, /\(test\)/);
    has(html, /Efectivo en OXXO/);
    has(html, />Efectivo</); // the cash icon's label
    const all = await page(`/checkout/${(await createSession({ amount: 30, customer })).body.sessionId}?locale=pt-BR`);
    has(all, /Cartão Visa \/ Mastercard/);
    hasNot(all, /Card \(test\)|>Card</);
    // A country without a test rail still gets its (sandbox-routed) production rails.
    const pe = await page(`/checkout/${(await createSession({ amount: 30, country: "PE", customer })).body.sessionId}`);
    has(pe, /id="method-1008"/);
    // Through the API a production id still works in the sandbox.
    const sel = await select(mx.sessionId, { paymentMethodId: "1003" });
    assert.equal(sel.status, 200, sel.text);
  });
});

describe("the selector's kept rendering (server/buyer-page.tsx memoKey)", () => {
  test("a second view writes the same page with its own nonce; a changed session, language or query is drawn anew", async () => {
    const s = (await createSession({ amount: 30, country: "BR", customer: { ...customer, documentId: CPF } })).body;
    const nonceOf = (html: string) => /nonce="([^"]+)"/.exec(html)?.[1];
    const first = await page(`/checkout/${s.sessionId}`, { "accept-language": "pt-BR" });
    const second = await page(`/checkout/${s.sessionId}`, { "accept-language": "pt-BR" });
    assert.notEqual(nonceOf(first), nonceOf(second), "each view its own nonce");
    assert.equal(second.replace(/nonce="[^"]+"/g, ""), first.replace(/nonce="[^"]+"/g, ""));
    // The session changes behind the page (any writer): the next view shows it.
    await db().checkoutSession.update({ where: { id: s.sessionId }, data: { email: "changed@example.com", firstName: "Beatriz" } });
    const changed = await page(`/checkout/${s.sessionId}`, { "accept-language": "pt-BR" });
    has(changed, /changed@example\.com/);
    has(changed, /Beatriz/);
    hasNot(changed, /ana@example\.com/);
    // Another language, and a rejected pick's query, are other pages.
    has(await page(`/checkout/${s.sessionId}?locale=en`), /lang="en"/);
    const rejected = await page(`/checkout/${s.sessionId}?error=choose_method`, { "accept-language": "pt-BR" });
    assert.notEqual(rejected.replace(/nonce="[^"]+"/g, ""), changed.replace(/nonce="[^"]+"/g, ""));
  });
});

describe("Brazil's sandbox test rails and the buyer details (issue 24)", () => {
  const cookieOf = (res: Response, name: string) => (res.headers.getSetCookie?.() ?? []).find((c) => c.startsWith(`${name}=`));

  test("the Brazilian selector offers PIX, boleto and card (test rails only); the Mexican one SPEI, OXXO and its test card (issue 42); the catalog lists them", async () => {
    const br = (await createSession({ amount: 150, currency: "BRL", country: "BR", customer })).body;
    const html = await page(`/checkout/${br.sessionId}?locale=pt-BR`);
    const ids = [...html.matchAll(/<input[^>]*id="method-([^"]+)"/g)].map((x) => x[1]).sort();
    assert.deepEqual(ids, ["sbx_boleto", "sbx_br_card", "sbx_pix"]);
    has(html, /Boleto bancário/);
    has(html, /Cartão Visa \/ Mastercard/);
    const mx = (await createSession({ amount: 30, country: "MX", customer })).body;
    const mxIds = [...(await page(`/checkout/${mx.sessionId}?locale=es-MX`)).matchAll(/<input[^>]*id="method-([^"]+)"/g)].map((x) => x[1]).sort();
    assert.deepEqual(mxIds, ["sbx_cash", "sbx_mx_card", "sbx_spei"]);
    const catalog = (await api("/payment-methods?country=BR", { key: sk() })).body;
    const sandboxIds = catalog.methods.filter((x: any) => x.paymentMethodId.startsWith("sbx_")).map((x: any) => x.paymentMethodId);
    assert.deepEqual(sandboxIds, ["sbx_pix", "sbx_boleto", "sbx_br_card"]);
    // Production never sees a test rail.
    const live = (await api("/payment-methods?country=BR", { key: m.production.secretKey })).body;
    assert.ok(live.methods.every((x: any) => !x.paymentMethodId.startsWith("sbx_")));
  });

  for (const method of ["sbx_pix", "sbx_boleto", "sbx_br_card"]) {
    test(`${method}: picked on the selector, paid with the sandbox button, which ends on the result page`, async () => {
      const s = (await createSession({ amount: 150, currency: "BRL", country: "BR", customer })).body;
      const picked = await formPost(`/checkout/${s.sessionId}/select?locale=pt-BR`, { paymentMethodId: method, documentId: CPF });
      assert.equal(picked.status, 303);
      const txId = /\/c\/(tx_[0-9A-Za-z]{24})/.exec(picked.headers.get("location") ?? "")?.[1];
      assert.ok(txId, picked.headers.get("location") ?? "");
      has(await page(`/pay/sandbox/${txId}?locale=pt-BR`), /Simular pago/);
      const paid = await formPost(`/pay/sandbox/${txId}/action?locale=pt-BR`, { action: "paid" });
      assert.equal(paid.status, 303);
      const to = new URL(paid.headers.get("location")!);
      assert.equal(`${to.pathname}${to.search}`, `/c/${txId}/result?locale=pt-BR`);
      const p = (await api(`/payments/${txId}`, { key: sk() })).body;
      assert.deepEqual([p.status, p.paymentMethodId, p.amountLocal, p.currencyLocal], ["completed", method, 150, "BRL"]);
      // No webhook registered: the page does not claim the store was told.
      const result = await page(`/c/${txId}/result?locale=pt-BR`);
      has(result, /Obrigado\. Seu pagamento está confirmado\./);
      hasNot(result, /A loja já foi avisada/);
    });
  }

  test("'pay another way' after a failed PIX keeps the typed document and reaches boleto", async () => {
    const s = (await createSession({ amount: 150, currency: "BRL", country: "BR", customer })).body;
    const picked = await formPost(`/checkout/${s.sessionId}/select?locale=pt-BR`, { paymentMethodId: "sbx_pix", documentId: CPF });
    const kept = cookieOf(picked, "checkout_document_kept") ?? "";
    has(kept, new RegExp(`^checkout_document_kept=${CPF};`));
    const txId = /\/c\/(tx_[0-9A-Za-z]{24})/.exec(picked.headers.get("location") ?? "")![1]!;
    has(kept, new RegExp(`Path=/c/${txId}/retry`));
    has(kept, /HttpOnly/);
    assert.equal((await formPost(`/pay/sandbox/${txId}/action`, { action: "failed" })).status, 303);
    // The page as shown (the scripts after it carry the same text again for React).
    const failed = (await page(`/c/${txId}/result?locale=pt-BR`)).replace(/<script[\s\S]*?<\/script>/g, "");
    assert.equal((failed.match(/nada foi cobrado/gi) ?? []).length, 1, "said once");

    const retry = await formPost(`/c/${txId}/retry?locale=pt-BR`, {}, { cookie: kept.split(";")[0]! });
    assert.equal(retry.status, 303);
    const next = tokenOf(retry.headers.get("location"));
    assert.ok(next && next !== s.sessionId);
    const handed = cookieOf(retry, "checkout_document") ?? "";
    has(handed, new RegExp(`^checkout_document=${CPF};`));
    has(handed, new RegExp(`Path=/checkout/${next}`));
    const html = await page(`/checkout/${next}?locale=pt-BR`, { cookie: handed.split(";")[0]! });
    has(/<input[^>]*id="documentId"[^>]*>/.exec(html)?.[0] ?? "", new RegExp(`value="${CPF}"`));
    const boleto = await formPost(`/checkout/${next}/select`, { paymentMethodId: "sbx_boleto", documentId: CPF });
    has(boleto.headers.get("location") ?? "", /\/c\/tx_/);
  });

  test("a post without a method comes back with the message in the page's language, the method list focused", async () => {
    const s = (await createSession({ amount: 30, country: "MX", customer })).body;
    const res = await formPost(`/checkout/${s.sessionId}/select?locale=es-MX`, { documentId: CURP });
    const loc = new URL(res.headers.get("location")!);
    assert.equal(loc.searchParams.get("error"), "choose_method");
    assert.equal(loc.searchParams.get("field"), "paymentMethodId");
    const html = await page(`${loc.pathname}${loc.search}`);
    has(html, /id="method-error"[^>]*>Elige un medio de pago\.</);
    has(/<input[^>]*id="method-sbx_spei"[^>]*>/.exec(html)?.[0] ?? "", /autofocus/i);
    hasNot(html, /id="form-error"/, "said once, next to the methods");
  });

  test("titles in the buyer's language; the es-MX document hint names each method's rule", async () => {
    const s = (await createSession({ amount: 30, country: "MX", customer })).body;
    has(await page(`/checkout/${s.sessionId}?locale=es`), /<title>Pago<\/title>/);
    has(await page(`/checkout/${s.sessionId}?locale=pt-BR`), /<title>Pagamento<\/title>/);
    has(await page(`/checkout/${s.sessionId}?locale=en`), /<title>Checkout<\/title>/);
    const html = await page(`/checkout/${s.sessionId}?locale=es-MX`);
    const rules = [...html.matchAll(/data-testid="document-rule"[^>]*>([\s\S]*?)<\/li>/g)].map((x) => x[1]!.replace(/<[^>]+>/g, "").replace(/<!-- -->/g, ""));
    assert.equal(rules.length, 2, rules.join(" | "));
    assert.ok(rules.some((r) => r.startsWith("SPEI: CURP")), rules.join(" | "));
    // OXXO and the Mexican test card (issue 42) share the rule, named together.
    assert.ok(rules.some((r) => r.startsWith("Efectivo en OXXO, Tarjeta Visa / Mastercard: Tu CURP (18 caracteres), RFC (12 o 13 caracteres) o el número de tu credencial del INE")), rules.join(" | "));
  });
});
