// The buyer's side of the hosted checkout over real HTTP (issue 13): the price rule through
// sessions, pages and the ledger (decisions.md, Money), successor sessions after a failure
// (decisions.md, Hosted checkout: after a failure), the selector form's document round trip,
// the printable instructions, and the sandbox selector's test rails in the buyer's language.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { API_URL, api, assertEnvelope, newMerchant } from "./helpers.ts";
import { db } from "@/lib/platform/db";

const CPF = "52998224725";
const CURP = "PEPJ800101HDFRRN09";
const customer = { firstName: "Ana", lastName: "Souza", email: "ana@example.com", phone: "+55 11 98765-4321" };

type Merchant = Awaited<ReturnType<typeof newMerchant>>;
let m: Merchant;
const sk = () => m.sandbox.secretKey;

before(async () => {
  m = await newMerchant({ name: "Loja Azul" });
});
after(() => db().$disconnect());

const createSession = (body: Record<string, unknown>, key = sk()) => api("/checkout/sessions", { key, body });
const select = (token: string, body: unknown) => api(`/checkout/sessions/${token}/select`, { body });
const simulate = (txId: string, action: string, key = sk()) => api(`/payments/${txId}/simulate`, { key, body: { action } });
/** A same-origin form post of a buyer page, answered 303 (never followed). */
const formPost = (path: string, form: Record<string, string> = {}, headers: Record<string, string> = {}) =>
  fetch(`${API_URL}${path}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin", ...headers }, body: new URLSearchParams(form).toString(), redirect: "manual" });
const page = async (path: string, headers: Record<string, string> = {}) => (await fetch(`${API_URL}${path}`, { headers })).text();
// Page HTML is long: a failure names the pattern and a short excerpt, not the whole page.
const excerpt = (text: string, re: RegExp) => {
  const i = text.search(re);
  return i < 0 ? text.slice(0, 200) : text.slice(Math.max(0, i - 100), i + 200);
};
function has(text: string, re: RegExp, what?: string) {
  assert.ok(re.test(text), `${what ?? ""} expected ${re} in …${text.length > 400 ? text.replace(/<script[\s\S]*$/, "").slice(-300) : text}`);
}
function hasNot(text: string, re: RegExp, what?: string) {
  assert.ok(!re.test(text), `${what ?? ""} unexpected ${re}: …${excerpt(text, re)}`);
}
const tokenOf = (location: string | null) => /\/checkout\/(cs_[0-9A-Za-z]{24})/.exec(location ?? "")?.[1];

/** The USD credit less the markup: input ÷ rate × 0.98, half-up at the cent (as the API computes it, in integers). */
const credit = (inputMinor: bigint, rateHundredths: bigint) => {
  const num = inputMinor * 98n;
  const den = rateHundredths;
  return Number((num * 2n + den) / (2n * den)) / 100;
};

describe("the price rule through the hosted checkout (decisions.md, Money)", () => {
  test("150 BRL asked: the page, the payment and the buyer pages say 150 BRL; the USD credit carries the 2 % markup; the ledger agrees", async () => {
    const merchant = await newMerchant();
    const s = await createSession({ amount: 150, currency: "BRL", country: "BR", customer, merchantOrderId: "price-brl" }, merchant.sandbox.secretKey);
    assert.equal(s.status, 200, s.text);
    // The session's USD amount is the credit: 150 ÷ 5.40 × 0.98 = 27.22 (the mid rate would give 27.78).
    assert.equal(s.body.amount, credit(15_000n, 540n));
    assert.equal(s.body.amount, 27.22);
    const selector = await page(`/checkout/${s.body.sessionId}`, { "accept-language": "pt-BR" });
    has(selector, /data-testid="amount"[^>]*>R\$\s150,00</);
    hasNot(selector, /146,99/);
    hasNot(selector, /27,22|Aprox/, "the merchant's USD credit is not the buyer's business");
    // Without a country (methods in several currencies) the headline is still the asked amount.
    const anywhere = (await createSession({ amount: 150, currency: "BRL", customer }, merchant.sandbox.secretKey)).body;
    has(await page(`/checkout/${anywhere.sessionId}`, { "accept-language": "pt-BR" }), /data-testid="amount"[^>]*>R\$\s150,00</);

    const sel = await select(s.body.sessionId, { paymentMethodId: "sbx_pix", customer: { documentId: CPF } });
    assert.equal(sel.status, 200, sel.text);
    const txId = sel.body.transactionId;
    const p = (await api(`/payments/${txId}`, { key: merchant.sandbox.secretKey })).body;
    assert.equal(p.amountLocal, 150);
    assert.equal(p.currencyLocal, "BRL");
    assert.equal(p.inputAmount, 150);
    assert.equal(p.inputCurrency, "BRL");
    assert.equal(p.amount, 27.22);
    const provider = await page(`/pay/sandbox/${txId}?locale=pt-BR`);
    has(provider, /R\$\s150,00/);

    assert.equal((await simulate(txId, "paid", merchant.sandbox.secretKey)).status, 200);
    const bal = (await api("/me/balance", { key: merchant.sandbox.secretKey })).body;
    assert.deepEqual(bal.ledgerWarnings, []);
    assert.equal(bal.feeSummary.grossVolume, 27.22);
    // The completion posting credits exactly the USD credit, no more: 2722 cents leave provider clearing.
    const legs = await db().ledgerEntry.findMany({ where: { posting: { transactionId: txId } } });
    assert.ok(legs.length > 0);
    for (const cur of new Set(legs.map((l) => l.currency))) assert.equal(legs.filter((l) => l.currency === cur).reduce((a, l) => a + l.amount, 0n), 0n);
    assert.deepEqual(new Set(legs.map((l) => l.currency)), new Set(["USD"]));
    assert.equal(legs.filter((l) => l.account === "provider_clearing").reduce((a, l) => a + l.amount, 0n), -2722n);
    const result = await page(`/c/${txId}/result?locale=pt-BR`);
    has(result, /R\$\s150,00/);
  });

  test("499 MXN on SPEI and OXXO, 60,000 COP on PSE, a one-shot 150 BRL PIX: each buyer pays exactly the asked amount", async () => {
    const mxn = await createSession({ amount: 499, currency: "MXN", country: "MX", customer: { ...customer, documentId: CURP } });
    assert.equal(mxn.status, 200, mxn.text);
    const spei = await select(mxn.body.sessionId, { paymentMethodId: "sbx_spei" });
    assert.equal(spei.status, 200, spei.text);
    const speiTx = (await api(`/payments/${spei.body.transactionId}`, { key: sk() })).body;
    assert.equal(speiTx.amountLocal, 499);
    assert.equal(speiTx.amount, credit(49_900n, 1820n)); // 26.87, not 27.42
    const html = await page(`/checkout/${(await createSession({ amount: 499, currency: "MXN", country: "MX", customer })).body.sessionId}?locale=es-MX`);
    assert.equal((html.match(/\$499\.00/g) ?? []).length >= 3, true, "the headline and both MX test methods show $499.00");
    hasNot(html, /489\.03/);

    const cop = await createSession({ amount: 60_000, currency: "COP", country: "CO", customer: { ...customer, documentId: "1234567890" } });
    assert.equal(cop.status, 200, cop.text);
    const pse = await select(cop.body.sessionId, { paymentMethodId: "sbx_pse" });
    assert.equal(pse.status, 200, pse.text);
    assert.equal((await api(`/payments/${pse.body.transactionId}`, { key: sk() })).body.amountLocal, 60_000);

    const one = await createSession({ amount: 150, currency: "BRL", paymentMethodId: "sbx_pix", userName: "Ana Souza", userEmail: "ana@example.com", documentId: CPF });
    assert.equal(one.status, 200, one.text);
    assert.equal(one.body.amountLocal, 150);
    assert.equal(one.body.inputAmount, 150);
    assert.equal(one.body.amount, 27.22);
  });

  test("a USD session is converted for the buyer at the mid rate (no markup), and credited as asked", async () => {
    const s = await createSession({ amount: 100, country: "MX", customer: { ...customer, documentId: CURP } });
    const sel = await select(s.body.sessionId, { paymentMethodId: "sbx_spei" });
    const p = (await api(`/payments/${sel.body.transactionId}`, { key: sk() })).body;
    assert.equal(p.amount, 100);
    assert.equal(p.amountLocal, 1820);
  });
});

describe("successor sessions (decisions.md, Hosted checkout: after a failure)", () => {
  test("after a failure, 'pay another way' makes one successor with the same order, amount and customer; it completes; both directions are shown", async () => {
    const merchant = await newMerchant();
    const key = merchant.sandbox.secretKey;
    const order = `retry-${Date.now()}`;
    const first = (await createSession({ amount: 150, currency: "BRL", country: "BR", customer, merchantOrderId: order }, key)).body;
    const tx1 = (await select(first.sessionId, { paymentMethodId: "sbx_pix", customer: { documentId: CPF } })).body.transactionId;

    // Still pending: nothing to retry; the form leads back to the result page.
    const early = await formPost(`/c/${tx1}/retry`);
    assert.equal(early.status, 303);
    has(early.headers.get("location") ?? "", new RegExp(`/c/${tx1}/result`));
    assert.equal((await api(`/checkout/sessions/${first.sessionId}`)).body.nextSessionId, null);

    assert.equal((await simulate(tx1, "failed", key)).status, 200);
    const resultPage = await page(`/c/${tx1}/result`);
    has(resultPage, /Pay another way/);
    assert.ok(resultPage.includes(`action="/c/${tx1}/retry?locale=en"`));

    // Two tabs, double clicks: one successor.
    const clicks = await Promise.all(Array.from({ length: 5 }, () => formPost(`/c/${tx1}/retry?locale=pt-BR`)));
    const tokens = new Set(clicks.map((r) => (assert.equal(r.status, 303), tokenOf(r.headers.get("location")))));
    assert.equal(tokens.size, 1, [...tokens].join(", "));
    const nextToken = [...tokens][0]!;
    assert.ok(nextToken && nextToken !== first.sessionId);
    has(clicks[0]!.headers.get("location")!, /locale=pt-BR/);
    assert.equal(await db().checkoutSession.count({ where: { previousSessionId: first.sessionId } }), 1);

    const before = (await api(`/checkout/sessions/${first.sessionId}`)).body;
    const next = (await api(`/checkout/sessions/${nextToken}`)).body;
    assert.equal(before.nextSessionId, nextToken);
    assert.equal(before.previousSessionId, null);
    assert.equal(next.previousSessionId, first.sessionId);
    assert.equal(next.nextSessionId, null);
    assert.equal(next.status, "awaiting_method");
    assert.equal(next.merchantOrderId, order);
    assert.equal(next.amount, first.amount);
    assert.equal(next.inputAmount, 150);
    assert.equal(next.inputCurrency, "BRL");
    assert.deepEqual(next.customer, first.customer);
    assert.equal(next.country, "BRA");
    assert.equal(next.expiresAt, first.expiresAt); // the retry does not extend the merchant's checkout
    assert.equal(next.allowRetry, true);

    // The first link now leads to the successor; the result page links to it too.
    const old = await fetch(`${API_URL}/checkout/${first.sessionId}?locale=en`, { redirect: "manual" });
    assert.ok([303, 307, 308].includes(old.status), `status ${old.status}`);
    assert.equal(tokenOf(old.headers.get("location")), nextToken);
    assert.ok((await page(`/c/${tx1}/result`)).includes(`/checkout/${nextToken}`));

    // The successor completes (with another method, at the same price).
    const sel2 = await select(nextToken, { paymentMethodId: "sbx_pix", customer: { documentId: CPF } });
    assert.equal(sel2.status, 200, sel2.text);
    const tx2 = sel2.body.transactionId;
    assert.equal((await simulate(tx2, "paid", key)).status, 200);
    const list = (await api(`/payments?merchantOrderId=${order}`, { key })).body;
    const rows = list.data ?? list.items ?? list.payments;
    assert.deepEqual(rows.map((r: any) => [r.id, r.status, r.amountLocal]).sort(), [[tx1, "failed", 150], [tx2, "completed", 150]].sort());
    const events = (await api(`/events?objectId=${tx1}`, { key })).body;
    assert.ok((events.data ?? events.items).some((e: any) => e.type === "payment.failed"));
    const events2 = (await api(`/events?objectId=${tx2}`, { key })).body;
    assert.ok((events2.data ?? events2.items).some((e: any) => e.type === "payment.completed"));
    // A paid successor offers nothing more.
    hasNot(await page(`/c/${tx2}/result`), /Pay another way/);
  });

  test("an expired payment may be retried; allowRetry false, a one-shot payment and a session past its 24 h may not", async () => {
    const s = (await createSession({ amount: 20, country: "MX", customer: { ...customer, documentId: CURP } })).body;
    const tx = (await select(s.sessionId, { paymentMethodId: "sbx_cash", customer: { phone: "+52 55 1234 5678" } })).body.transactionId;
    assert.ok(tx);
    assert.equal((await simulate(tx, "expired")).status, 200);
    const used = await page(`/checkout/${s.sessionId}`);
    has(used, /Pay another way/);
    const ok = await formPost(`/c/${tx}/retry`);
    assert.ok(tokenOf(ok.headers.get("location")));

    const noRetry = (await createSession({ amount: 20, country: "BR", customer: { ...customer, documentId: CPF }, allowRetry: false, returnUrl: "https://shop.example/cart" })).body;
    assert.equal(noRetry.allowRetry, false);
    const tx2 = (await select(noRetry.sessionId, { paymentMethodId: "sbx_pix" })).body.transactionId;
    await simulate(tx2, "failed");
    const refused = await formPost(`/c/${tx2}/retry`);
    has(refused.headers.get("location") ?? "", new RegExp(`/c/${tx2}/result`));
    const result = await page(`/c/${tx2}/result`);
    hasNot(result, /Pay another way/);
    assert.ok(result.includes('href="https://shop.example/cart"'), "the way back to the store");
    assertEnvelope(await createSession({ amount: 20, customer, allowRetry: "no" }), "invalid_request", 400);

    const one = (await createSession({ amount: 20, paymentMethodId: "sbx_card", userName: "Ana Souza", userEmail: "ana@example.com", documentId: CPF })).body;
    await simulate(one.transactionId, "failed");
    has((await formPost(`/c/${one.transactionId}/retry`)).headers.get("location") ?? "", /\/result/);
    has(await page(`/c/${one.transactionId}/result`), /go back to the store/);

    const late = (await createSession({ amount: 20, country: "BR", customer: { ...customer, documentId: CPF } })).body;
    const tx3 = (await select(late.sessionId, { paymentMethodId: "sbx_pix" })).body.transactionId;
    await simulate(tx3, "failed");
    await db().checkoutSession.update({ where: { id: late.sessionId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    has((await formPost(`/c/${tx3}/retry`)).headers.get("location") ?? "", /\/result/);
    assert.equal(await db().checkoutSession.count({ where: { previousSessionId: late.sessionId } }), 0);

    const cross = await formPost(`/c/${tx}/retry`, {}, { "sec-fetch-site": "cross-site" });
    assert.equal(cross.status, 403);
  });
});

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

describe("instructions: deadlines, one reference, the CLABE on one line, a PDF to keep", () => {
  test("the OXXO voucher, the SPEI details and the boleto show the rail's deadline; vouchers download as PDF", async () => {
    const buyer = { userName: "Juan Pérez", userEmail: "juan@example.com", userPhone: "+52 55 1234 5678", documentId: CURP };
    const oxxo = (await createSession({ amount: 40, paymentMethodId: "sbx_cash", merchantOrderId: "voucher-1", ...buyer })).body;
    const tx = (await api(`/payments/${oxxo.transactionId}`, { key: sk() })).body;
    // OXXO vouchers live for 3 days (decisions.md, Pay-ins).
    assert.ok(Math.abs(Date.parse(tx.expiresAt) - Date.now() - 3 * 86_400_000) < 120_000, tx.expiresAt);
    const html = await page(`/pay/sandbox/${oxxo.transactionId}?locale=es-MX`);
    has(html, /data-testid="deadline"/);
    has(html, /Paga antes del/);
    assert.ok(html.includes(`/c/${oxxo.transactionId}/instructions.pdf?locale=es`));
    const pdf = await fetch(`${API_URL}/c/${oxxo.transactionId}/instructions.pdf?locale=es`);
    assert.equal(pdf.status, 200);
    assert.equal(pdf.headers.get("content-type"), "application/pdf");
    has(pdf.headers.get("content-disposition") ?? "", /attachment; filename="voucher-1\.pdf"/);
    const bytes = Buffer.from(await pdf.arrayBuffer());
    assert.equal(bytes.subarray(0, 5).toString(), "%PDF-");
    assert.ok(bytes.length > 2000);

    const boleto = (await createSession({ amount: 40, paymentMethodId: "1002", userName: "Ana Souza", userEmail: "ana@example.com", documentId: CPF })).body;
    assert.equal(boleto.status, "pending");
    const bhtml = await page(`/pay/sandbox/${boleto.transactionId}?locale=pt-BR`);
    has(bhtml, /Vencimento/);
    assert.equal((await fetch(`${API_URL}/c/${boleto.transactionId}/instructions.pdf`)).status, 200);

    const spei = (await createSession({ amount: 40, paymentMethodId: "sbx_spei", ...buyer })).body;
    const shtml = await page(`/pay/sandbox/${spei.transactionId}?locale=es-MX`);
    assert.equal((shtml.match(/>Referencia</g) ?? []).length, 1, "one Referencia");
    has(shtml, /id="clabe"[^>]*class="[^"]*whitespace-nowrap/);

    // Card payments have nothing to print; a paid voucher neither.
    const card = (await createSession({ amount: 40, paymentMethodId: "sbx_card", ...buyer })).body;
    assert.equal((await fetch(`${API_URL}/c/${card.transactionId}/instructions.pdf`)).status, 404);
    await simulate(oxxo.transactionId, "paid");
    assert.equal((await fetch(`${API_URL}/c/${oxxo.transactionId}/instructions.pdf`)).status, 404);
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

  test("the Brazilian selector offers PIX, boleto and card (test rails only); the Mexican one is unchanged; the catalog lists them", async () => {
    const br = (await createSession({ amount: 150, currency: "BRL", country: "BR", customer })).body;
    const html = await page(`/checkout/${br.sessionId}?locale=pt-BR`);
    const ids = [...html.matchAll(/<input[^>]*id="method-([^"]+)"/g)].map((x) => x[1]).sort();
    assert.deepEqual(ids, ["sbx_boleto", "sbx_br_card", "sbx_pix"]);
    has(html, /Boleto bancário/);
    has(html, /Cartão Visa \/ Mastercard/);
    const mx = (await createSession({ amount: 30, country: "MX", customer })).body;
    const mxIds = [...(await page(`/checkout/${mx.sessionId}?locale=es-MX`)).matchAll(/<input[^>]*id="method-([^"]+)"/g)].map((x) => x[1]).sort();
    assert.deepEqual(mxIds, ["sbx_cash", "sbx_spei"]);
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
    assert.ok(rules.some((r) => r.startsWith("Efectivo en OXXO: El número de tu documento")), rules.join(" | "));
  });
});
