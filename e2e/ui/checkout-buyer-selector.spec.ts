// What buyers stumbled on in issue 13, on the method selector, in Debian's Chromium on the phone
// project (@layout also on the tablet and desktop): a bad CURP keeps its value and the focus and
// says the format (with and without script), a Brazilian document opens a number pad, the sandbox
// selector's test rails in the buyer's language, and a post without a method without script. Every
// page passes axe-core (no serious or critical violation) and is screenshotted.
import { test, expect } from "@playwright/test";
import { CURP, customer, newBuyerMerchant, api, checkPage, fitsWidth, money, phone } from "./checkout-buyer-helpers";

test.beforeAll(newBuyerMerchant);

test.describe("a bad CURP (es-MX)", () => {
  test.use({ locale: "es-MX" });
  test("keeps the value, focuses the field, shows the format next to it; the URL does not say missing_required_fields", { tag: "@buyer" }, async ({ page }, info) => {
    const s = await api("/checkout/sessions", { amount: 30, country: "MX", customer });
    await page.goto(`/checkout/${s.body.sessionId}`);
    const field = page.getByLabel("Número de documento");
    await expect(field).toHaveAttribute("required", "");
    await expect(page.locator('label[for="documentId"]')).toContainText("obligatorio");
    await page.locator('label[for="method-sbx_spei"]').click();
    await expect(page.getByTestId("document-format")).toContainText("CURP: 18 caracteres");
    await expect(field).toHaveAttribute("inputmode", "text");
    await field.fill("PEPJ800101HDFRRN0");
    await page.getByRole("button", { name: "Continuar al pago" }).click();
    await expect(page.locator("#documentId-error")).toContainText("CURP: 18 caracteres");
    await expect(field).toHaveValue("PEPJ800101HDFRRN0");
    await expect(field).toBeFocused();
    await expect(field).toBeInViewport();
    await expect(field).toHaveAttribute("aria-invalid", "true");
    expect(page.url()).not.toContain("missing_required_fields");
    expect(page.url()).toContain("error=document_invalid");
    expect(page.url()).not.toContain("PEPJ800101");
    await expect(page.locator("#method-sbx_spei")).toBeChecked();
    await checkPage(page, info, "curp-error");
    await field.fill(CURP);
    await page.getByRole("button", { name: "Continuar al pago" }).click();
    await expect(page).toHaveURL(/\/pay\/sandbox\/tx_/);
  });

  test("a Brazilian document opens a number pad", { tag: "@buyer" }, async ({ page }) => {
    const s = await api("/checkout/sessions", { amount: 30, country: "BR", customer });
    await page.goto(`/checkout/${s.body.sessionId}`);
    await expect(page.getByLabel("Número de documento")).toHaveAttribute("inputmode", "numeric");
  });
});

test.describe("a bad CURP without JavaScript", () => {
  test.use({ javaScriptEnabled: false, locale: "es-MX" });
  test("the plain form keeps the value and focuses the field too", { tag: "@buyer" }, async ({ page }, info) => {
    const s = await api("/checkout/sessions", { amount: 30, country: "MX", customer });
    await page.goto(`/checkout/${s.body.sessionId}`);
    await page.locator('label[for="method-sbx_spei"]').click();
    const field = page.getByLabel("Número de documento");
    await field.fill("PEPJ800101");
    await page.getByRole("button", { name: "Continuar al pago" }).click();
    await expect(page.locator("#documentId-error")).toContainText("CURP: 18 caracteres");
    await expect(field).toHaveValue("PEPJ800101");
    await expect(field).toBeFocused();
    await page.screenshot({ path: `e2e/screenshots/checkout-buyer-curp-error-nojs-${info.project.name}.png`, fullPage: true });
  });
});
test("the sandbox selector shows the test rails only, named in the buyer's language", { tag: "@layout" }, async ({ page }, info) => {
  const s = await api("/checkout/sessions", { amount: 30, customer });
  await page.goto(`/checkout/${s.body.sessionId}?locale=es-MX`);
  const radios = page.locator('input[name="paymentMethodId"]');
  expect((await radios.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).sort()).toEqual(["sbx_boleto", "sbx_br_card", "sbx_card", "sbx_cash", "sbx_mx_card", "sbx_pix", "sbx_pse", "sbx_spei"]);
  await expect(page.getByText("(test)")).toHaveCount(0);
  await expect(page.locator('label[for="method-sbx_card"]')).toContainText("Tarjeta Visa / Mastercard");
  await expect(page.locator('label[for="method-sbx_cash"] [data-testid="rail-icon"]')).toContainText("Efectivo");
  await fitsWidth(page);
  await checkPage(page, info, "selector-es");
  await page.goto(`/checkout/${s.body.sessionId}?locale=pt-BR`);
  await expect(page.locator('label[for="method-sbx_card"]')).toContainText("Cartão Visa / Mastercard");
  await expect(page.locator('label[for="method-sbx_cash"] [data-testid="rail-icon"]')).toContainText("Dinheiro");
});
test.describe("without JavaScript: a post without a method", () => {
  test.use({ javaScriptEnabled: false, locale: "pt-BR" });
  test("comes back with the message in the page's language and the focus on the method list", { tag: "@buyer" }, async ({ page }, info) => {
    const s = await api("/checkout/sessions", { amount: 30, country: "BR", customer });
    // Chromium itself holds back a form without its required method; a browser that does not gets this page.
    await page.goto(`/checkout/${s.body.sessionId}?locale=pt-BR&error=choose_method&field=paymentMethodId`);
    await expect(page.locator("#method-error")).toHaveText("Escolha um meio de pagamento.");
    await expect(page.locator("#method-sbx_pix")).toBeFocused();
    await page.screenshot({ path: `e2e/screenshots/checkout-buyer-no-method-nojs-${info.project.name}.png`, fullPage: true });
  });
});

// Issue 41, point 6: a tester in Mexico pays by card in the sandbox, as Brazil's can.
test.describe("Mexico's test card (es-MX)", () => {
  test.use({ locale: "es-MX" });
  test("the Mexican selector offers SPEI, OXXO and a card in MXN; the card completes with 'Simular pagado' on the result page", { tag: "@buyer" }, async ({ page }, info) => {
    await phone(page, info);
    const s = await api("/checkout/sessions", { amount: 300, currency: "MXN", country: "MX", customer });
    expect(s.status, JSON.stringify(s.body)).toBe(200);
    await page.goto(`/checkout/${s.body.sessionId}`);
    const radios = page.locator('input[name="paymentMethodId"]');
    expect((await radios.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).sort()).toEqual(["sbx_cash", "sbx_mx_card", "sbx_spei"]);
    const card = page.locator('label[for="method-sbx_mx_card"]');
    await expect(card).toContainText("Tarjeta Visa / Mastercard");
    await expect(card).toContainText(money("es-MX", "MXN", 300));
    await fitsWidth(page);
    await checkPage(page, info, "mx-selector-card");

    await card.click();
    await page.getByLabel("Número de documento").fill(CURP);
    await page.getByRole("button", { name: "Continuar al pago" }).click();
    await expect(page).toHaveURL(/\/pay\/sandbox\/tx_/);
    const txId = /\/pay\/sandbox\/(tx_[0-9A-Za-z]{24})/.exec(page.url())![1]!;
    await expect(page.getByTestId("amount")).toHaveText(money("es-MX", "MXN", 300));
    await fitsWidth(page);
    await checkPage(page, info, "mx-card-sandbox");
    await page.getByRole("button", { name: "Simular pagado" }).click();
    await expect(page).toHaveURL(new RegExp(`/c/${txId}/result`));
    await expect(page.getByRole("heading", { level: 1, name: "Pago recibido" })).toBeVisible();
    await checkPage(page, info, "mx-card-paid");
    const p = (await api(`/payments/${txId}`)).body;
    expect([p.status, p.paymentMethodId, p.currencyLocal, p.amountLocal, p.paymentMethod]).toEqual(["completed", "sbx_mx_card", "MXN", 300, "card"]);
  });
});
