// What buyers stumbled on in issue 13, on the instructions, in Debian's Chromium on every
// project (@layout): deadlines on SPEI, OXXO and boleto, one Referencia, a CLABE on one line, and a
// voucher to print or download as PDF. Every page passes axe-core (no serious or critical
// violation) and is screenshotted.
import { test, expect } from "@playwright/test";
import { readFileSync } from "node:fs";
import { CPF, mxBuyer, newBuyerMerchant, api, checkPage, fitsWidth } from "./checkout-buyer-helpers";

test.beforeAll(newBuyerMerchant);

test("instructions: the deadline on SPEI, OXXO and boleto, one Referencia, a CLABE on one line, a voucher to print or download", { tag: "@layout" }, async ({ page }, info) => {
  const spei = await api("/checkout/sessions", { amount: 40, paymentMethodId: "sbx_spei", ...mxBuyer });
  await page.goto(`/c/${spei.body.transactionId}?locale=es-MX`);
  await expect(page.getByTestId("deadline")).toBeVisible();
  await expect(page.getByText("Referencia", { exact: true })).toHaveCount(1);
  const clabe = page.locator("#clabe");
  expect(await clabe.innerText()).toMatch(/^\d{18}$/);
  expect(await clabe.evaluate((el) => el.getClientRects().length)).toBe(1); // one line, never 16 + 2
  await fitsWidth(page);
  await checkPage(page, info, "spei");

  const oxxo = await api("/checkout/sessions", { amount: 40, paymentMethodId: "sbx_cash", merchantOrderId: `voucher-${info.project.name}`, ...mxBuyer });
  await page.goto(`/c/${oxxo.body.transactionId}?locale=es-MX`);
  const deadline = new Date((await api(`/payments/${oxxo.body.transactionId}`)).body.expiresAt);
  expect(deadline.getTime() - Date.now()).toBeGreaterThan(3 * 86_400_000 - 300_000); // OXXO: 3 days
  await expect(page.getByTestId("deadline")).toContainText(String(deadline.toLocaleDateString("es-MX", { day: "numeric", timeZone: "America/Mexico_City" })));
  await expect(page.getByRole("button", { name: "Imprimir" })).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Descargar PDF" }).click()]);
  expect(download.suggestedFilename()).toBe(`voucher-${info.project.name}.pdf`);
  expect(readFileSync(await download.path()).subarray(0, 5).toString()).toBe("%PDF-");
  await checkPage(page, info, "oxxo");
  // Printed: the voucher stays, the test buttons and the language switch go.
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("img", { name: /Código de barras/ })).toBeVisible();
  await expect(page.getByRole("button", { name: "Simular pagado" })).toBeHidden();
  await expect(page.getByRole("navigation", { name: "Idioma" })).toBeHidden();
  await page.screenshot({ path: `e2e/screenshots/checkout-buyer-oxxo-print-${info.project.name}.png`, fullPage: true });
  await page.emulateMedia({ media: "screen" });

  const boleto = await api("/checkout/sessions", { amount: 40, paymentMethodId: "1002", userName: "Ana Souza", userEmail: "ana@example.com", documentId: CPF });
  await page.goto(`/c/${boleto.body.transactionId}?locale=pt-BR`);
  await expect(page.getByText("Vencimento", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Baixar PDF" })).toBeVisible();
  await checkPage(page, info, "boleto");
});
