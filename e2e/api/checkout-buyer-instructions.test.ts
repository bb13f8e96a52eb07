// The buyer's printable instructions over real HTTP (issue 13): the rail's deadline, one
// reference, the CLABE on one line, and vouchers that download as PDF.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { API_URL, api } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { CPF, CURP, sk, newShopMerchant, createSession, simulate, page, has } from "./checkout-buyer-fixtures.ts";

before(newShopMerchant);
after(() => db().$disconnect());

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

    // Card payments have nothing to print; a paid voucher neither: the link answers the payment's
    // result page, in the buyer's language (issue 41), never a bare 404.
    const card = (await createSession({ amount: 40, paymentMethodId: "sbx_card", ...buyer })).body;
    const cardPdf = await fetch(`${API_URL}/c/${card.transactionId}/instructions.pdf`, { redirect: "manual" });
    assert.equal(cardPdf.status, 303);
    assert.equal(new URL(cardPdf.headers.get("location") ?? "", API_URL).pathname, `/c/${card.transactionId}/result`);
    await simulate(oxxo.transactionId, "paid");
    const paid = await fetch(`${API_URL}/c/${oxxo.transactionId}/instructions.pdf?locale=es`);
    assert.equal(paid.status, 200);
    has(paid.headers.get("content-type") ?? "", /^text\/html/);
    has(await paid.text(), /Pago recibido/);
  });
});
