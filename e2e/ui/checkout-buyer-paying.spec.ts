// What buyers stumbled on in issue 13, paying, in Debian's Chromium on the phone project (what
// depends on the screen, @layout, on the tablet and desktop too): the price asked is the price
// paid, "pay another way" after a failure reaches a new session that completes, and provider pages
// (sandbox and a real provider's, production) turn into the result without a reload. Every page
// passes axe-core (no serious or critical violation) and is screenshotted.
import { test, expect } from "@playwright/test";
import { CPF, CURP, customer, mxBuyer, liveKey, newBuyerMerchant, api, sql, psp, checkPage, fitsWidth, money } from "./checkout-buyer-helpers";

test.beforeAll(newBuyerMerchant);

test.describe("the price asked is the price paid (pt-BR)", () => {
  test.use({ locale: "pt-BR" });
  test("a 150 BRL session shows R$ 150,00 on the selector, the PIX page and the result", { tag: "@layout" }, async ({ page }, info) => {
    const s = await api("/checkout/sessions", { amount: 150, currency: "BRL", country: "BR", customer, merchantOrderId: `price-${info.project.name}` });
    expect(s.status, JSON.stringify(s.body)).toBe(200);
    const asked = money("pt-BR", "BRL", 150);
    await page.goto(`/checkout/${s.body.sessionId}`);
    await expect(page.getByTestId("amount")).toHaveText(asked);
    await expect(page.locator('label[for="method-sbx_pix"]')).toContainText(asked);
    await fitsWidth(page);
    await checkPage(page, info, "price-selector");

    // Brazil's sandbox offers PIX, boleto and card (issue 24): the buyer picks one.
    await page.locator('label[for="method-sbx_pix"]').click();
    await page.getByLabel("Número do documento").fill(CPF);
    await page.getByRole("button", { name: "Continuar para o pagamento" }).click();
    await expect(page).toHaveURL(/\/pay\/sandbox\/tx_/);
    await expect(page.getByTestId("amount")).toHaveText(asked);
    const txId = /\/pay\/sandbox\/(tx_[0-9A-Za-z]{24})/.exec(page.url())![1]!;
    const p = (await api(`/payments/${txId}`)).body;
    expect(p.amountLocal).toBe(150);
    expect(p.amount).toBe(27.22); // the USD credit carries the 2 % markup
    await page.getByRole("button", { name: "Simular pago" }).click();
    // The test button ends where a payment completed from outside does: the result page.
    await expect(page).toHaveURL(new RegExp(`/c/${txId}/result`));
    await expect(page.getByRole("heading", { level: 1, name: "Pagamento recebido" })).toBeVisible();
    await expect(page.locator("dd").filter({ hasText: asked })).toBeVisible();
    await checkPage(page, info, "price-result");
  });
});

test("after a failure, 'pay another way' reaches a new session that completes", { tag: "@buyer" }, async ({ page }, info) => {
  const order = `again-${info.project.name}-${Date.now()}`;
  const s = await api("/checkout/sessions", { amount: 499, currency: "MXN", country: "MX", customer, merchantOrderId: order });
  expect(s.status, JSON.stringify(s.body)).toBe(200);
  await page.goto(`/checkout/${s.body.sessionId}?locale=en`);
  await page.locator('label[for="method-sbx_spei"]').click();
  await page.getByLabel("Document number").fill(CURP);
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page).toHaveURL(/\/pay\/sandbox\/tx_/);
  const first = /\/pay\/sandbox\/(tx_[0-9A-Za-z]{24})/.exec(page.url())![1]!;
  await page.getByRole("button", { name: "Simulate failed" }).click();
  await expect(page.getByTestId("payment-status")).toHaveText("Failed");
  await checkPage(page, info, "failed");

  await page.getByRole("button", { name: "Pay another way" }).click();
  await expect(page).toHaveURL(/\/checkout\/cs_/);
  expect(page.url()).not.toContain(s.body.sessionId);
  await expect(page.getByTestId("amount")).toHaveText(money("en-US", "MXN", 499));
  // The document typed for the failed payment is still there.
  await expect(page.getByLabel("Document number")).toHaveValue(CURP);
  await checkPage(page, info, "successor");
  await page.locator('label[for="method-sbx_cash"]').click();
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page).toHaveURL(/\/pay\/sandbox\/tx_/);
  await page.getByRole("button", { name: "Simulate paid" }).click();
  await expect(page.getByTestId("payment-status")).toHaveText("Paid");

  const rows = (await api(`/payments?merchantOrderId=${order}`)).body.data as Array<{ id: string; status: string; amountLocal: number }>;
  expect(rows.map((r) => r.status).sort()).toEqual(["completed", "failed"]);
  expect(rows.find((r) => r.status === "failed")!.id).toBe(first);
  expect(rows.every((r) => r.amountLocal === 499)).toBe(true);
  // The first link now leads to the successor, which says its payment is paid (issue 41).
  await page.goto(`/checkout/${s.body.sessionId}?locale=en`);
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
});

for (const [method, buyer] of [["sbx_pix", { userName: "Ana Souza", userEmail: "ana@example.com", documentId: CPF }], ["sbx_spei", mxBuyer], ["sbx_cash", mxBuyer]] as const) {
  test(`the ${method} page turns paid on its own, without a reload`, { tag: "@buyer" }, async ({ page }, info) => {
    const one = await api("/checkout/sessions", { amount: 40, paymentMethodId: method, ...buyer });
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    await page.goto(`/c/${one.body.transactionId}?locale=en`);
    await expect(page.getByTestId("live-status")).toBeVisible();
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    expect((await api(`/payments/${one.body.transactionId}/simulate`, { action: "paid" })).status).toBe(200);
    await expect(page).toHaveURL(new RegExp(`/c/${one.body.transactionId}/result`), { timeout: 15_000 });
    await expect(page.getByRole("heading", { level: 1, name: "Payment received" })).toBeVisible();
    await expect(page.getByTestId("payment-status")).toHaveText("Paid");
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    if (method === "sbx_spei") await checkPage(page, info, "turned-paid");
  });
}

test("a real provider's instructions page (production) shows the asked price and the deadline, and turns paid on its own", { tag: "@buyer" }, async ({ page }, info) => {
  await sql("INSERT INTO fx_rates (quote, rate, source, updated_at) VALUES ('MXN', 18.20, 'test', now()) ON CONFLICT (quote) DO UPDATE SET updated_at = now()");
  const email = `buyer-${info.project.name}-${Date.now()}@example.com`;
  await psp("/_control/behaviour", { mode: "accept_instructions", forEmail: email });
  const r = await api("/payments", { amount: 499, currency: "MXN", paymentMethodId: "1003", userName: "Juan Pérez", userEmail: email, documentId: "GODE561231GR8" }, liveKey);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.amountLocal).toBe(499);
  expect(r.body.paymentFormUrl).toMatch(/\/pay\/pagosur\/tx_/);
  await page.goto(`${new URL(r.body.paymentFormUrl).pathname}?locale=es-MX`);
  await expect(page.getByTestId("amount")).toHaveText(money("es-MX", "MXN", 499));
  await expect(page.getByTestId("deadline")).toBeVisible();
  await expect(page.getByText("Referencia", { exact: true })).toHaveCount(1);
  await expect(page.getByText("Modo de prueba: no se mueve dinero real.")).toHaveCount(0);
  await checkPage(page, info, "provider-instructions");
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  const [row] = await sql<{ provider_ref: string }>("SELECT provider_ref FROM transactions WHERE id = $1", [r.body.transactionId]);
  await psp(`/_control/charges/${row!.provider_ref}/paid`, {});
  await expect(page).toHaveURL(new RegExp(`/c/${r.body.transactionId}/result`), { timeout: 15_000 });
  await expect(page.getByRole("heading", { level: 1, name: "Pago recibido" })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
});
