// What the buyer pages cost the buyer's phone (issue 23): each page — the selector, the sandbox
// provider's page, the result page and the QR counter — loads under 30 KiB of gzip JavaScript
// (measured in Chromium: every script response the page loads, gzipped here), all of it our own
// islands script; and without JavaScript the whole flow still completes as plain HTML forms.
import { test, expect, type Browser } from "@playwright/test";
import { gzipSync } from "node:zlib";
import { api, newMerchant, registerQr } from "./dashboard-helpers";

const LIMIT = 30 * 1024;
const CPF = "52998224725";
const customer = { firstName: "Ana", lastName: "Souza", email: "ana@example.com", phone: "+55 11 98765-4321" };

/** Opens `path` in a new context (an empty cache) and returns the scripts it loaded (URL and gzip bytes) once the page is idle. */
async function scriptsOf(browser: Browser, baseURL: string, path: string): Promise<Array<{ url: string; gzip: number }>> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const pending: Array<Promise<{ url: string; gzip: number }>> = [];
  const onResponse = (res: import("@playwright/test").Response) => {
    // A redirect has no body: the script it leads to is a response of its own.
    if (res.request().resourceType() === "script" && (res.status() < 300 || res.status() >= 400)) pending.push(res.body().then((b) => ({ url: res.url(), gzip: gzipSync(b).length })));
  };
  page.on("response", onResponse);
  await page.goto(path, { waitUntil: "networkidle" });
  const scripts = await Promise.all(pending);
  await context.close();
  return scripts;
}

test("each buyer page loads under 30 KiB of gzip JavaScript, all of it the islands script", { tag: "@buyer" }, async ({ browser, baseURL }) => {
  const m = await newMerchant("weight");
  const session = await api("/checkout/sessions", m.sandbox.secretKey, { amount: 100, country: "BR", customer });
  expect(session.status, JSON.stringify(session.body)).toBe(200);
  const pix = await api("/checkout/sessions", m.sandbox.secretKey, { amount: 40, paymentMethodId: "sbx_pix", documentId: CPF, customer });
  expect(pix.status, JSON.stringify(pix.body)).toBe(200);
  await registerQr(m.shopId);
  const qr = await api("/qr/orders", m.sandbox.secretKey, { amount: 25.5, merchantOrderId: "mesa-9" });
  expect(qr.status, JSON.stringify(qr.body)).toBe(201);

  const pages = {
    selector: `/checkout/${session.body.sessionId}?locale=pt-BR`,
    provider: new URL(pix.body.checkoutUrl).pathname,
    result: `/c/${pix.body.transactionId}/result?locale=es`,
    qr: `/qr/${qr.body.order.token}?locale=en`,
  };
  for (const [name, path] of Object.entries(pages)) {
    const scripts = await scriptsOf(browser, baseURL!, path);
    const total = scripts.reduce((n, s) => n + s.gzip, 0);
    test.info().annotations.push({ type: "gzip-js", description: `${name}: ${total} B in ${scripts.length} script(s)` });
    expect(total, `${name}: ${JSON.stringify(scripts)}`).toBeLessThan(LIMIT);
    expect(scripts.map((s) => new URL(s.url).pathname), name).toEqual(["/buyer/islands.js"]);
  }
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false, locale: "pt-BR" });
  test("pick PIX, pay in the sandbox and see it paid, in plain HTML forms", { tag: "@buyer" }, async ({ page }) => {
    const m = await newMerchant("weight-nojs");
    const session = await api("/checkout/sessions", m.sandbox.secretKey, { amount: 100, country: "BR", customer });
    expect(session.status, JSON.stringify(session.body)).toBe(200);
    await page.goto(`/checkout/${session.body.sessionId}`);
    await page.locator('label[for="method-sbx_pix"]').click();
    await page.getByLabel("Número do documento").fill(CPF);
    await page.getByRole("button", { name: "Continuar para o pagamento" }).click();
    await expect(page).toHaveURL(/\/pay\/sandbox\/tx_/);
    await page.getByRole("button", { name: "Simular pago" }).click();
    await expect(page).toHaveURL(/\/c\/tx_\w+\/result/);
    await expect(page.getByTestId("payment-status")).toHaveText("Pago");
  });
});
