// Issue 24, point 3, in Debian's Chromium: Brazil's sandbox offers its test rails for PIX, boleto
// and card, so "pay another way" after a failure reaches another method (the document kept, the
// boleto line's groups whole). On the phone project the page is the 390 × 844 screen the issue was
// tried on. Every page passes axe-core (no serious or critical violation) and is screenshotted.
import { test, expect } from "@playwright/test";
import { CPF, customer, newBuyerMerchant, api, checkPage, fitsWidth, money, phone, expectGroupsWhole } from "./checkout-buyer-helpers";

test.beforeAll(newBuyerMerchant);

test.describe("Brazil's sandbox test rails (pt-BR)", () => {
  test.use({ locale: "pt-BR" });

  for (const method of ["sbx_pix", "sbx_boleto", "sbx_br_card"] as const) {
    test(`the selector offers PIX, boleto and card; ${method} completes with "Simular pago" on the result page`, { tag: "@layout" }, async ({ page }, info) => {
      await phone(page, info);
      const s = await api("/checkout/sessions", { amount: 150, currency: "BRL", country: "BR", customer });
      expect(s.status, JSON.stringify(s.body)).toBe(200);
      await page.goto(`/checkout/${s.body.sessionId}`);
      const radios = page.locator('input[name="paymentMethodId"]');
      expect((await radios.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).sort()).toEqual(["sbx_boleto", "sbx_br_card", "sbx_pix"]);
      await expect(page.locator('label[for="method-sbx_boleto"]')).toContainText("Boleto bancário");
      await expect(page.locator('label[for="method-sbx_br_card"]')).toContainText("Cartão Visa / Mastercard");
      for (const id of ["sbx_pix", "sbx_boleto", "sbx_br_card"]) await expect(page.locator(`label[for="method-${id}"]`)).toContainText(money("pt-BR", "BRL", 150));
      // One document rule for Brazil: a CPF or CNPJ, on a number pad.
      await expect(page.getByTestId("document-format")).toContainText("CPF: 11 dígitos");
      await expect(page.getByLabel("Número do documento")).toHaveAttribute("inputmode", "numeric");
      await fitsWidth(page);
      if (method === "sbx_pix") await checkPage(page, info, "br-selector");

      await page.locator(`label[for="method-${method}"]`).click();
      await page.getByLabel("Número do documento").fill(CPF);
      await page.getByRole("button", { name: "Continuar para o pagamento" }).click();
      await expect(page).toHaveURL(/\/pay\/sandbox\/tx_/);
      const txId = /\/pay\/sandbox\/(tx_[0-9A-Za-z]{24})/.exec(page.url())![1]!;
      await expect(page.getByTestId("amount")).toHaveText(money("pt-BR", "BRL", 150));
      await fitsWidth(page);
      await checkPage(page, info, `br-${method}`);
      await page.getByRole("button", { name: "Simular pago" }).click();
      await expect(page).toHaveURL(new RegExp(`/c/${txId}/result`));
      await expect(page.getByRole("heading", { level: 1, name: "Pagamento recebido" })).toBeVisible();
      await expect(page.getByTestId("payment-status")).toHaveText("Pago");
      const p = (await api(`/payments/${txId}`)).body;
      expect([p.status, p.paymentMethodId, p.amountLocal]).toEqual(["completed", method, 150]);
    });
  }

  test("after a failed PIX, 'pay another way' reaches boleto with the document kept; the boleto line keeps its groups whole", { tag: "@layout" }, async ({ page }, info) => {
    await phone(page, info);
    const order = `br-again-${info.project.name}-${Date.now()}`;
    const s = await api("/checkout/sessions", { amount: 150, currency: "BRL", country: "BR", customer, merchantOrderId: order });
    await page.goto(`/checkout/${s.body.sessionId}`);
    await page.locator('label[for="method-sbx_pix"]').click();
    await page.getByLabel("Número do documento").fill(CPF);
    await page.getByRole("button", { name: "Continuar para o pagamento" }).click();
    await expect(page).toHaveURL(/\/pay\/sandbox\/tx_/);
    await page.getByRole("button", { name: "Simular falha" }).click();
    await expect(page).toHaveURL(/\/c\/tx_[0-9A-Za-z]{24}\/result/);
    await expect(page.getByRole("heading", { level: 1, name: "O pagamento falhou" })).toBeVisible();
    // Said once, not twice (the failure sentence and the retry offer used to both say it).
    expect((await page.locator("main").innerText()).match(/nada foi cobrado/gi)?.length).toBe(1);
    await checkPage(page, info, "br-failed");

    await page.getByRole("button", { name: "Pagar de outra forma" }).click();
    await expect(page).toHaveURL(/\/checkout\/cs_/);
    await expect(page.getByLabel("Número do documento")).toHaveValue(CPF);
    await checkPage(page, info, "br-successor");
    await page.locator('label[for="method-sbx_boleto"]').click();
    await page.getByRole("button", { name: "Continuar para o pagamento" }).click();
    await expect(page).toHaveURL(/\/pay\/sandbox\/tx_/);
    await expect(page.getByRole("heading", { level: 1, name: "Pague com boleto" })).toBeVisible();
    await expectGroupsWhole(page, "field-line", 5);
    await fitsWidth(page);
    await checkPage(page, info, "br-boleto-line");
    await page.getByRole("button", { name: "Simular pago" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Pagamento recebido" })).toBeVisible();
    const rows = (await api(`/payments?merchantOrderId=${order}`)).body.data as Array<{ status: string; paymentMethodId: string }>;
    expect(rows.map((r) => `${r.paymentMethodId}:${r.status}`).sort()).toEqual(["sbx_boleto:completed", "sbx_pix:failed"]);
  });
});
