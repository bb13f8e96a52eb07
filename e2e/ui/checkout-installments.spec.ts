// Issue 42 in Debian's Chromium, on the phone (390 × 844): the hosted card step offers the shop's
// installment plan in the buyer's language and currency as a plain select of the form post
// ("12x de R$ 12,50 sem juros", "6 meses sin intereses de $250.00"); the buyer picks it, pays with
// the sandbox button and lands on the result page, which names the plan; the payment carries the plan, and the
// dashboard's payment page shows it. Every page passes axe-core and is screenshotted.
import { test, expect } from "@playwright/test";
import { CPF, CURP, customer, api, checkPage, fitsWidth, money, phone } from "./checkout-buyer-helpers";
import { checkPage as checkDashboardPage, newMerchant, signIn, type TestMerchant } from "./dashboard-helpers";

let m: TestMerchant;
test.beforeAll(async () => {
  m = await newMerchant("installments");
});

const nbsp = (s: string) => s.replace(/\u00a0/g, " ");

for (const c of [
  { locale: "pt-BR", amount: 150, currency: "BRL", country: "BR", method: "sbx_br_card", count: 12, document: CPF, option: `12x de ${money("pt-BR", "BRL", 12.5)} sem juros`, atOnce: `À vista: ${money("pt-BR", "BRL", 150)}`, label: "Parcelamento no", cont: "Continuar para o pagamento", paid: "Simular pago", done: "Pagamento recebido" },
  { locale: "es-MX", amount: 1500, currency: "MXN", country: "MX", method: "sbx_mx_card", count: 6, document: CURP, option: `6 meses sin intereses de ${money("es-MX", "MXN", 250)}`, atOnce: `De contado: ${money("es-MX", "MXN", 1500)}`, label: "Meses con", cont: "Continuar al pago", paid: "Simular pagado", done: "Pago recibido" },
] as const) {
  test.describe(`${c.locale}: ${c.count} installments on the card step`, () => {
    test.use({ locale: c.locale });

    test(`the card step offers the plan; ${c.count} installments are chosen, paid and shown on the result page and the dashboard`, { tag: "@buyer" }, async ({ page }, info) => {
      await phone(page, info);
      const s = await api("/checkout/sessions", { amount: c.amount, currency: c.currency, country: c.country, customer }, m.sandbox.secretKey);
      expect(s.status, JSON.stringify(s.body)).toBe(200);
      await page.goto(`/checkout/${s.body.sessionId}?locale=${c.locale}`);
      const select = page.locator(`select[name="installments-${c.method}"]`);
      // The choice shows once its card is chosen (another method's buyer tabs past nothing).
      await expect(select).toBeHidden();
      await page.locator(`label[for="method-${c.method}"]`).click();
      await expect(page.getByLabel(new RegExp(c.label))).toBeVisible();
      const options = (await select.locator("option").allTextContents()).map(nbsp);
      expect(options[0]).toBe(nbsp(c.atOnce));
      expect(options).toContain(nbsp(c.option));
      await fitsWidth(page);
      await checkPage(page, info, `installments-${c.locale}`);

      await select.selectOption(String(c.count));
      await page.getByLabel(c.locale === "pt-BR" ? "Número do documento" : "Número de documento").fill(c.document);
      await page.getByRole("button", { name: c.cont }).click();
      await expect(page).toHaveURL(/\/pay\/sandbox\/tx_/);
      const txId = /\/pay\/sandbox\/(tx_[0-9A-Za-z]{24})/.exec(page.url())![1]!;
      const p = (await api(`/payments/${txId}`, undefined, m.sandbox.secretKey)).body;
      expect([p.paymentMethodId, p.amountLocal, p.installments.count, p.installments.paidBy]).toEqual([c.method, c.amount, c.count, "merchant"]);
      await page.getByRole("button", { name: c.paid }).click();
      await expect(page).toHaveURL(new RegExp(`/c/${txId}/result`));
      await expect(page.getByRole("heading", { level: 1, name: c.done })).toBeVisible();
      // The plan the buyer chose, in the same words as on the card step.
      expect(nbsp(await page.getByTestId("result-installments").innerText())).toBe(nbsp(c.option));
      await fitsWidth(page);
      await checkPage(page, info, `installments-${c.locale}-result`);

      // The dashboard's payment page shows the plan (signed in on the same phone-sized page).
      await page.setViewportSize({ width: 1366, height: 768 });
      await signIn(page, m.owner, { at: `/dashboard/payments/${txId}` });
      // The dashboard writes each currency as its shoppers do: "12 × R$ 12,50", "6 × $250.00 MXN".
      const each = c.currency === "BRL" ? `R$ ${"12,50"}` : "$250.00 MXN";
      expect(nbsp(await page.getByTestId("payment-installments").innerText())).toContain(`${c.count} × ${each}`);
      await checkDashboardPage(page, info, `payment-installments-${c.locale}`);
    });
  });
}
