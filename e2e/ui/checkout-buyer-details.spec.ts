// Issue 24, point 7, in Debian's Chromium: the buyer details. 'Simular pago' ends on the paid page,
// 'the store was notified' only once a notice was delivered, the es-MX document hint per method and
// the OXXO reference's groups whole, page titles in the buyer's language. On the phone project the
// page is the 390 × 844 screen the issue was tried on. Every page passes axe-core (no serious or
// critical violation) and is screenshotted.
import { test, expect } from "@playwright/test";
import { CPF, CURP, customer, mxBuyer, newBuyerMerchant, api, checkPage, fitsWidth, phone, newMerchantKey, expectGroupsWhole } from "./checkout-buyer-helpers";

test.beforeAll(newBuyerMerchant);

test.describe("buyer details (issue 24, point 7)", () => {
  test("'Simular pago' ends on the same paid page as a payment completed from outside", { tag: "@buyer" }, async ({ page }, info) => {
    await phone(page, info);
    const buyer = { userName: "Ana Souza", userEmail: "ana@example.com", documentId: CPF };
    const a = await api("/checkout/sessions", { amount: 40, paymentMethodId: "sbx_pix", ...buyer });
    const b = await api("/checkout/sessions", { amount: 40, paymentMethodId: "sbx_pix", ...buyer });
    await page.goto(`/c/${a.body.transactionId}?locale=pt-BR`);
    await page.getByRole("button", { name: "Simular pago" }).click();
    await expect(page).toHaveURL(new RegExp(`/c/${a.body.transactionId}/result\\?locale=pt-BR$`));
    const byButton = await page.locator("main").innerText();
    await checkPage(page, info, "paid-by-button");

    await page.goto(`/c/${b.body.transactionId}?locale=pt-BR`);
    await expect(page.getByTestId("live-status")).toBeVisible();
    expect((await api(`/payments/${b.body.transactionId}/simulate`, { action: "paid" })).status).toBe(200);
    await expect(page).toHaveURL(new RegExp(`/c/${b.body.transactionId}/result\\?locale=pt-BR$`), { timeout: 15_000 });
    await expect(page.getByRole("heading", { level: 1, name: "Pagamento recebido" })).toBeVisible();
    // The same page: only the order (the transaction id) differs.
    expect((await page.locator("main").innerText()).replace(b.body.transactionId, "ID")).toBe(byButton.replace(a.body.transactionId, "ID"));
  });

  test("'the store was notified' only once a notice of the payment was delivered", { tag: "@buyer" }, async ({ page }, info) => {
    await phone(page, info);
    const buyer = { userName: "Ana Souza", userEmail: "ana@example.com", documentId: CPF };
    // No webhook: nothing can have told the store.
    const quiet = await api("/checkout/sessions", { amount: 40, paymentMethodId: "sbx_pix", ...buyer });
    expect((await api(`/payments/${quiet.body.transactionId}/simulate`, { action: "paid" })).status).toBe(200);
    await page.goto(`/c/${quiet.body.transactionId}/result?locale=pt-BR`);
    await expect(page.getByTestId("result-body")).toHaveText("Obrigado. Seu pagamento está confirmado.");
    await expect(page.getByText("A loja já foi avisada")).toHaveCount(0);
    await checkPage(page, info, "paid-not-notified");

    // A merchant with a (managed) webhook: said once the delivery succeeded.
    const key2 = await newMerchantKey("Loja Avisada");
    const sub = await api("/webhooks", { events: ["payment.completed"] }, key2);
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    const told = await api("/checkout/sessions", { amount: 40, paymentMethodId: "sbx_pix", ...buyer }, key2);
    expect((await api(`/payments/${told.body.transactionId}/simulate`, { action: "paid" }, key2)).status).toBe(200);
    await expect.poll(async () => (await api(`/webhooks/${sub.body.id}/deliveries`, undefined, key2)).body.data?.[0]?.status, { timeout: 15_000 }).toBe("succeeded");
    await page.goto(`/c/${told.body.transactionId}/result?locale=pt-BR`);
    await expect(page.getByTestId("result-body")).toHaveText("Obrigado. A loja já foi avisada.");
    await checkPage(page, info, "paid-notified");
  });

  test("the es-MX document hint names each method's rule; the OXXO reference keeps its groups whole", { tag: "@layout" }, async ({ page }, info) => {
    await phone(page, info);
    const s = await api("/checkout/sessions", { amount: 30, country: "MX", customer });
    await page.goto(`/checkout/${s.body.sessionId}?locale=es-MX`);
    const rules = page.getByTestId("document-rule");
    await expect(rules).toHaveCount(2);
    await expect(rules.filter({ hasText: "SPEI" })).toContainText("CURP: 18 caracteres");
    // OXXO takes any document of 4 characters or more; in Mexico the hint names them (issue 41).
    await expect(rules.filter({ hasText: "Efectivo en OXXO" })).toContainText("CURP (18 caracteres), RFC (12 o 13 caracteres) o el número de tu credencial del INE");
    await checkPage(page, info, "mx-document-hint");
    await page.locator('label[for="method-sbx_cash"]').click();
    await expect(page.getByTestId("document-format")).toHaveText(/^Tu CURP \(18 caracteres\), RFC \(12 o 13 caracteres\) o el número de tu credencial del INE, al menos 4 caracteres\./);
    await page.locator('label[for="method-sbx_spei"]').click();
    await expect(page.getByTestId("document-format")).toHaveText(/^CURP: 18 caracteres/);

    const oxxo = await api("/checkout/sessions", { amount: 40, paymentMethodId: "sbx_cash", ...mxBuyer });
    await page.goto(`/c/${oxxo.body.transactionId}?locale=es-MX`);
    await expectGroupsWhole(page, "field-oxxoReference", 4);
    await fitsWidth(page);
    await checkPage(page, info, "oxxo-groups");
  });

  for (const [locale, message, button] of [
    ["es-MX", "Elige un medio de pago.", "Continuar al pago"],
    ["pt-BR", "Escolha um meio de pagamento.", "Continuar para o pagamento"],
    ["en", "Choose a payment method.", "Continue to payment"],
  ] as const) {
    test(`submitting without a method focuses the method list with a message in ${locale}`, { tag: "@buyer" }, async ({ page }, info) => {
      await phone(page, info);
      const s = await api("/checkout/sessions", { amount: 30, country: "MX", customer });
      await page.goto(`/checkout/${s.body.sessionId}?locale=${locale}`);
      await page.locator("#documentId").fill(CURP);
      await page.getByRole("button", { name: button }).click();
      await expect(page.locator("#method-error")).toHaveText(message);
      await expect(page.locator("#method-sbx_spei")).toBeFocused();
      expect(page.url()).not.toContain("error="); // answered in the page, before any post
      await checkPage(page, info, `no-method-${locale}`);
      await page.locator('label[for="method-sbx_spei"]').click();
      await expect(page.locator("#method-error")).toHaveText("");
    });
  }

  test("page titles are in the buyer's language; 'Pagamento seguro' is said once", { tag: "@buyer" }, async ({ page }) => {
    const s = await api("/checkout/sessions", { amount: 30, country: "BR", customer });
    const one = await api("/checkout/sessions", { amount: 40, paymentMethodId: "sbx_pix", userName: "Ana Souza", userEmail: "ana@example.com", documentId: CPF });
    const titles = { es: ["Pago", "Tu pago", "Estado del pago"], "pt-BR": ["Pagamento", "Seu pagamento", "Status do pagamento"], en: ["Checkout", "Your payment", "Payment status"] } as const;
    for (const [locale, [checkout, payment, result]] of Object.entries(titles)) {
      await page.goto(`/checkout/${s.body.sessionId}?locale=${locale}`);
      await expect(page).toHaveTitle(checkout);
      await page.goto(`/pay/sandbox/${one.body.transactionId}?locale=${locale}`);
      await expect(page).toHaveTitle(payment);
      await page.goto(`/c/${one.body.transactionId}/result?locale=${locale}`);
      await expect(page).toHaveTitle(result);
    }
    // A page without a merchant (an unknown link): the header says "Pagamento seguro" once.
    await page.goto(`/checkout/cs_${"Z".repeat(24)}?locale=pt-BR`);
    await expect(page.getByText("Pagamento seguro", { exact: true })).toHaveCount(1);
  });
});
