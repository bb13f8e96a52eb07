// Issue 41, point 9, in Debian's Chromium on the phone project (the 390 × 844 screen): buyer pages
// that say what is true, in the buyer's three languages. The Mexican OXXO document hint names the
// documents it takes, as SPEI's names CURP / RFC; the SPEI instructions name the beneficiary Mexican
// bank apps ask for; a paid checkout link says it is paid; the PDF link of a finished payment
// answers its result page; without JavaScript no Copy button that does nothing and no promise that
// the page updates itself. Every page passes axe-core and is screenshotted.
import { test, expect, type Browser, type Page, type TestInfo } from "@playwright/test";
import { BASE, CURP, customer, mxBuyer, liveKey, newBuyerMerchant, api, sql, psp, checkPage, expectAxeClean } from "./checkout-buyer-helpers";

test.beforeAll(newBuyerMerchant);

const MERCHANT = "Loja Azul"; // newBuyerMerchant's name: the beneficiary of its SPEI transfers

const WORDS = {
  es: {
    oxxo: "Efectivo en OXXO",
    oxxoHint: "Tu CURP (18 caracteres), RFC (12 o 13 caracteres) o el número de tu credencial del INE, al menos 4 caracteres",
    continue: "Continuar al pago",
    beneficiary: "Beneficiario",
    paidTitle: "Pago recibido",
    paidBody: "Este enlace ya está pagado: no hay nada más que pagar.",
    used: "Ya elegiste cómo pagar",
    copy: "Copiar",
    live: "Esta página se actualiza sola cuando llegue tu pago.",
    noScript: "Esta página no se actualiza sola: vuelve a cargarla para ver si llegó tu pago.",
    checkAgain: "Volver a consultar",
    pdf: "Descargar PDF",
  },
  "pt-BR": {
    oxxo: "Dinheiro no OXXO",
    oxxoHint: "Seu CURP (18 caracteres), RFC (12 ou 13 caracteres) ou o número da sua credencial do INE, com pelo menos 4 caracteres",
    continue: "Continuar para o pagamento",
    beneficiary: "Beneficiário",
    paidTitle: "Pagamento recebido",
    paidBody: "Este link já foi pago: não há mais nada a pagar.",
    used: "Você já escolheu como pagar",
    copy: "Copiar",
    live: "Esta página se atualiza sozinha quando o pagamento chegar.",
    noScript: "Esta página não se atualiza sozinha: recarregue-a para ver se o pagamento chegou.",
    checkAgain: "Verificar novamente",
    pdf: "Baixar PDF",
  },
  en: {
    oxxo: "Cash at OXXO",
    oxxoHint: "Your CURP (18 characters), RFC (12 or 13 characters) or INE voter ID number, at least 4 characters",
    continue: "Continue to payment",
    beneficiary: "Beneficiary",
    paidTitle: "Payment received",
    paidBody: "This link has already been paid: there is nothing more to pay.",
    used: "You already chose how to pay",
    copy: "Copy",
    live: "This page updates by itself once your payment arrives.",
    noScript: "This page does not update by itself: reload it to see whether your payment has arrived.",
    checkAgain: "Check again",
    pdf: "Download PDF",
  },
} as const;
const LOCALES = Object.keys(WORDS) as Array<keyof typeof WORDS>;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const onPhone = (page: Page) => page.setViewportSize({ width: 390, height: 844 });

/** A one-step sandbox checkout (the method chosen by the merchant): its payment. */
async function oneStep(paymentMethodId: string) {
  const s = await api("/checkout/sessions", { amount: 40, paymentMethodId, ...mxBuyer });
  expect(s.status, JSON.stringify(s.body)).toBe(200);
  return { txId: s.body.transactionId as string };
}
/** A checkout link (a session) on which the buyer chose a method: the link and its payment. */
async function chosen(paymentMethodId: string) {
  const s = await api("/checkout/sessions", { amount: 40, country: "MX", customer: { ...customer, documentId: CURP } });
  expect(s.status, JSON.stringify(s.body)).toBe(200);
  const sel = await fetch(`${BASE}/api/v1/checkout/sessions/${s.body.sessionId}/select`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ paymentMethodId }) });
  const body = await sel.json();
  expect(sel.status, JSON.stringify(body)).toBe(200);
  return { sessionId: s.body.sessionId as string, txId: body.transactionId as string };
}
/**
 * axe-core on a page as a browser without script draws it, and its screenshot. axe needs script,
 * so the scan runs in a context of its own that gets the same document with its script removed
 * and its <noscript> content unwrapped (what a browser without script shows).
 */
async function checkNoScriptPage(browser: Browser, page: Page, info: TestInfo, name: string) {
  const url = page.url();
  // Script on explicitly: the runner gives a new context the describe block's options (javaScriptEnabled: false).
  const context = await browser.newContext({ viewport: page.viewportSize(), javaScriptEnabled: true });
  try {
    const scan = await context.newPage();
    await scan.route(url, async (route) => {
      const res = await route.fetch();
      const html = (await res.text()).replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "").replace(/<\/?noscript>/g, "");
      const headers = Object.fromEntries(Object.entries(res.headers()).filter(([k]) => k !== "content-encoding" && k !== "content-length"));
      await route.fulfill({ status: res.status(), headers, body: html });
    });
    await scan.goto(url);
    await expectAxeClean(scan);
  } finally {
    await context.close();
  }
  await page.screenshot({ path: `e2e/screenshots/checkout-buyer-${name}-${info.project.name}.png`, fullPage: true });
}
const paid = async (txId: string) => expect((await api(`/payments/${txId}/simulate`, { action: "paid" })).status).toBe(200);

for (const locale of LOCALES) {
  const w = WORDS[locale];
  test(`the Mexican OXXO document hint names what it accepts (${locale})`, { tag: "@buyer" }, async ({ page }, info) => {
    await onPhone(page);
    const s = await api("/checkout/sessions", { amount: 30, country: "MX", customer });
    await page.goto(`/checkout/${s.body.sessionId}?locale=${locale}`);
    // Before a pick, each method's rule; OXXO's names the documents, not only a length.
    await expect(page.getByTestId("document-rule").filter({ hasText: w.oxxo })).toContainText(`: ${w.oxxoHint}.`);
    await page.locator('label[for="method-sbx_cash"]').click();
    await expect(page.getByTestId("document-format")).toHaveText(new RegExp(`^${escape(w.oxxoHint)}\\. `));
    await checkPage(page, info, `oxxo-hint-${locale}`);
    // A rejected pick says the same words under the field.
    await page.locator("#documentId").fill("AB1");
    await page.getByRole("button", { name: w.continue }).click();
    await expect(page.locator("#documentId-error")).toContainText(w.oxxoHint);
  });

  test(`the SPEI instructions name the beneficiary, on the sandbox's page and a real provider's (${locale})`, { tag: "@buyer" }, async ({ page }, info) => {
    await onPhone(page);
    const { txId } = await oneStep("sbx_spei");
    await page.goto(`/pay/sandbox/${txId}?locale=${locale}`);
    await expect(page.locator("#field-beneficiary-label")).toHaveText(w.beneficiary);
    await expect(page.getByTestId("field-beneficiary")).toHaveText(MERCHANT);
    await checkPage(page, info, `spei-beneficiary-${locale}`);

    // A real provider's answer without a beneficiary (the simulated PSP's SPEI instructions), in production.
    await sql("INSERT INTO fx_rates (quote, rate, source, updated_at) VALUES ('MXN', 18.20, 'test', now()) ON CONFLICT (quote) DO UPDATE SET updated_at = now()");
    const email = `spei-${locale}-${Date.now()}@example.com`;
    await psp("/_control/behaviour", { mode: "accept_instructions", forEmail: email });
    const r = await api("/payments", { amount: 499, currency: "MXN", paymentMethodId: "1003", userName: "Juan Pérez", userEmail: email, documentId: "GODE561231GR8" }, liveKey);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await page.goto(`${new URL(r.body.paymentFormUrl).pathname}?locale=${locale}`);
    await expect(page.locator("#field-beneficiary-label")).toHaveText(w.beneficiary);
    await expect(page.getByTestId("field-beneficiary")).toHaveText(MERCHANT);
  });

  test(`a paid checkout link says it is paid (${locale})`, { tag: "@buyer" }, async ({ page }, info) => {
    await onPhone(page);
    const { sessionId, txId } = await chosen("sbx_cash");
    await page.goto(`/checkout/${sessionId}?locale=${locale}`);
    await expect(page.getByRole("heading", { level: 1, name: w.used })).toBeVisible(); // pending: continue it
    await paid(txId);
    await page.goto(`/checkout/${sessionId}?locale=${locale}`);
    await expect(page.getByRole("heading", { level: 1, name: w.paidTitle })).toBeVisible();
    await expect(page.getByTestId("used-body")).toHaveText(w.paidBody);
    await expect(page.getByText(w.used)).toHaveCount(0);
    await expect(page.locator(`a[href^="/c/${txId}?"]`)).toHaveCount(0); // no "go to your payment"
    await checkPage(page, info, `paid-link-${locale}`);
  });
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  for (const locale of LOCALES) {
    const w = WORDS[locale];
    test(`no Copy button that does nothing, no promise to update itself (${locale})`, { tag: "@buyer" }, async ({ page, browser }, info) => {
      await onPhone(page);
      const { txId } = await oneStep("sbx_spei");
      await page.goto(`/pay/sandbox/${txId}?locale=${locale}`);
      await expect(page.getByTestId("field-clabe")).toBeVisible(); // the values are there, as text
      await expect(page.getByRole("button", { name: w.copy })).toHaveCount(0);
      await expect(page.getByText(w.live)).toBeHidden();
      await expect(page.getByTestId("no-script-status")).toHaveText(w.noScript);
      await checkNoScriptPage(browser, page, info, `nojs-spei-${locale}`);

      await page.goto(`/c/${txId}/result?locale=${locale}`);
      await expect(page.getByTestId("live-status")).toBeHidden();
      await expect(page.getByTestId("no-script-status")).toContainText(w.noScript);
      await checkNoScriptPage(browser, page, info, `nojs-result-pending-${locale}`);
      await paid(txId);
      // Nothing updates by itself: the link looks again.
      await page.getByRole("link", { name: w.checkAgain }).click();
      await expect(page.getByRole("heading", { level: 1, name: w.paidTitle })).toBeVisible();
      await checkNoScriptPage(browser, page, info, `nojs-result-paid-${locale}`);
    });
  }

  test("the PDF link downloads while the voucher is pending, and answers the result page once it is paid", { tag: "@buyer" }, async ({ page, browser }, info) => {
    await onPhone(page);
    const { txId } = await oneStep("sbx_cash");
    await page.goto(`/pay/sandbox/${txId}?locale=es`);
    const pdf = page.getByRole("link", { name: WORDS.es.pdf });
    const download = page.waitForEvent("download");
    await pdf.click();
    expect((await download).suggestedFilename()).toMatch(/\.pdf$/);
    // The page was opened before the payment was paid (and, without script, stays as it was).
    await paid(txId);
    await pdf.click();
    await expect(page).toHaveURL(new RegExp(`/c/${txId}/result\\?locale=es$`));
    await expect(page.getByRole("heading", { level: 1, name: WORDS.es.paidTitle })).toBeVisible();
    await checkNoScriptPage(browser, page, info, "pdf-after-paid");
    // An unknown payment's PDF link: the buyer's "payment not found" page, not plain text.
    const unknown = await page.goto(`/c/tx_${"Z".repeat(24)}/instructions.pdf?locale=pt-BR`);
    expect(unknown!.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Pagamento não encontrado" })).toBeVisible();
  });
});

test("with JavaScript the Copy buttons and the live status are there", { tag: "@buyer" }, async ({ page }, info) => {
  await onPhone(page);
  const { txId } = await oneStep("sbx_spei");
  await page.goto(`/pay/sandbox/${txId}?locale=en`);
  await expect(page.getByRole("button", { name: "Copy" }).first()).toBeVisible();
  await expect(page.getByTestId("live-status")).toHaveText(WORDS.en.live);
  await expect(page.getByTestId("no-script-status")).toBeHidden();
  await checkPage(page, info, "js-spei");
});
