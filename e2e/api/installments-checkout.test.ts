// The hosted card step's installment choice without JavaScript (issue 42): the selector page
// renders a plain select per card rail with a plan, worded in the buyer's language; the form post
// carries the count to the payment, and a count the plan does not offer comes back to the page
// with the message, nothing created.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { api } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { CPF, CURP, customer, m, sk, newShopMerchant, createSession, formPost, page, has } from "./checkout-buyer-fixtures.ts";

before(newShopMerchant);
after(() => db().$disconnect());

describe("the card step's installments as a plain form", () => {
  test("pt-BR: R$ 150,00 offers à vista and 2x to 12x sem juros; 12x posted is the payment's plan", async () => {
    const s = (await createSession({ amount: 150, currency: "BRL", country: "BR", customer })).body;
    const html = (await page(`/checkout/${s.sessionId}?locale=pt-BR`)).replace(/\u00a0/g, " ");
    has(html, /<select[^>]*name="installments-sbx_br_card"/);
    has(html, /<option value="1"[^>]*>À vista: R\$ 150,00<\/option>/);
    has(html, /<option value="12"[^>]*>12x de R\$ 12,50 sem juros<\/option>/);
    has(html, /<option value="7"[^>]*>7x de R\$ 21,42 sem juros<\/option>/);
    assert.equal((html.match(/<select/g) ?? []).length, 1, "one select: the one card rail");
    const posted = await formPost(`/checkout/${s.sessionId}/select?locale=pt-BR`, { paymentMethodId: "sbx_br_card", "installments-sbx_br_card": "12", documentId: CPF });
    assert.equal(posted.status, 303);
    const txId = /\/c\/(tx_[0-9A-Za-z]+)/.exec(posted.headers.get("location") ?? "")?.[1];
    assert.ok(txId, posted.headers.get("location") ?? "no location");
    const p = (await api(`/payments/${txId}`, { key: sk() })).body;
    assert.deepEqual([p.installments.count, p.installments.amount, p.installments.paidBy], [12, 12.5, "merchant"]);
  });

  test("es-MX: 6 meses sin intereses de $250.00 offered; 18 (not in the plan) comes back with the message, nothing created", async () => {
    const s = (await createSession({ amount: 1500, currency: "MXN", country: "MX", customer })).body;
    const html = (await page(`/checkout/${s.sessionId}?locale=es-MX`)).replace(/\u00a0/g, " ");
    has(html, /<option value="6"[^>]*>6 meses sin intereses de \$250\.00<\/option>/);
    has(html, /<option value="1"[^>]*>De contado: \$1,500\.00<\/option>/);
    const before = await db().transaction.count({ where: { merchantId: m.merchantId } });
    const bad = await formPost(`/checkout/${s.sessionId}/select?locale=es-MX`, { paymentMethodId: "sbx_mx_card", "installments-sbx_mx_card": "18", documentId: CURP });
    assert.equal(bad.status, 303);
    const loc = new URL(bad.headers.get("location")!);
    assert.equal(loc.searchParams.get("error"), "installments_unavailable");
    has(await page(`${loc.pathname}${loc.search}`), /Este número de meses no está disponible para este monto/);
    assert.equal(await db().transaction.count({ where: { merchantId: m.merchantId } }), before);
    // Paying by SPEI, the card's select is not read.
    const spei = await formPost(`/checkout/${s.sessionId}/select?locale=es-MX`, { paymentMethodId: "sbx_spei", "installments-sbx_mx_card": "6", documentId: CURP });
    assert.equal(spei.status, 303);
    const txId = /\/c\/(tx_[0-9A-Za-z]+)/.exec(spei.headers.get("location") ?? "")?.[1];
    assert.equal((await api(`/payments/${txId}`, { key: sk() })).body.installments, undefined);
  });
});
