// What buyers stumbled on in issue 13, in Debian's Chromium on the phone project (what depends on
// the screen, @layout, on the tablet and desktop too): the price asked is the price paid, "pay
// another way" after a failure reaches a new session that completes, provider pages turn into the result without a reload, a bad CURP keeps
// its value and the focus and says the format (with and without script), deadlines and a PDF
// for vouchers, a CLABE on one line, the sandbox selector's test rails in the buyer's language.
// Every page passes axe-core (no serious or critical violation) and is screenshotted.
import { test, expect, type Page, type TestInfo } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { readFileSync } from "node:fs";
import pg from "pg";
import { cli } from "./dashboard-helpers";

const BASE = process.env.BASE_URL ?? "http://127.0.0.1:3000";
const CPF = "52998224725";
const CURP = "PEPJ800101HDFRRN09";
const customer = { firstName: "Ana", lastName: "Souza", email: "ana@example.com", phone: "+55 11 98765-4321" };
const mxBuyer = { userName: "Juan Pérez", userEmail: "juan@example.com", userPhone: "+52 55 1234 5678", documentId: CURP };

let key = "";
let liveKey = "";
test.beforeAll(async () => {
  const m = await cli(["merchant:create", "--name", "Loja Azul"]);
  key = m.sandbox.secretKey;
  liveKey = m.production.secretKey;
});

async function api(path: string, body?: unknown, bearer = key): Promise<{ status: number; body: any }> {
  const res = await fetch(`${BASE}/api/v1${path}`, { method: body === undefined ? "GET" : "POST", headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

async function sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await c.connect();
  try {
    return (await c.query(text, params)).rows as T[];
  } finally {
    await c.end();
  }
}

/** The simulated provider's control API (scripts/psp/control-api.ts). */
async function psp(path: string, body: unknown) {
  const res = await fetch(`${process.env.PROVIDER_PAGOSUR_URL}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
}

async function checkPage(page: Page, info: TestInfo, name: string) {
  // Violations only: the passes' node lists axe would build otherwise are never read.
  const results = await new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join("; ")})`)).toEqual([]);
  await page.screenshot({ path: `e2e/screenshots/checkout-buyer-${name}-${info.project.name}.png`, fullPage: true });
}

/** No horizontal scroll: the page is no wider than the screen. */
async function fitsWidth(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
}

const money = (locale: string, currency: string, major: number) => new Intl.NumberFormat(locale, { style: "currency", currency }).format(major);

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
  // The first link now leads to the successor, which shows its paid payment.
  await page.goto(`/checkout/${s.body.sessionId}?locale=en`);
  await expect(page.getByRole("heading", { name: "You already chose how to pay" })).toBeVisible();
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

test("the sandbox selector shows the test rails only, named in the buyer's language", { tag: "@layout" }, async ({ page }, info) => {
  const s = await api("/checkout/sessions", { amount: 30, customer });
  await page.goto(`/checkout/${s.body.sessionId}?locale=es-MX`);
  const radios = page.locator('input[name="paymentMethodId"]');
  expect((await radios.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).sort()).toEqual(["sbx_boleto", "sbx_br_card", "sbx_card", "sbx_cash", "sbx_pix", "sbx_pse", "sbx_spei"]);
  await expect(page.getByText("(test)")).toHaveCount(0);
  await expect(page.locator('label[for="method-sbx_card"]')).toContainText("Tarjeta Visa / Mastercard");
  await expect(page.locator('label[for="method-sbx_cash"] [data-testid="rail-icon"]')).toContainText("Efectivo");
  await fitsWidth(page);
  await checkPage(page, info, "selector-es");
  await page.goto(`/checkout/${s.body.sessionId}?locale=pt-BR`);
  await expect(page.locator('label[for="method-sbx_card"]')).toContainText("Cartão Visa / Mastercard");
  await expect(page.locator('label[for="method-sbx_cash"] [data-testid="rail-icon"]')).toContainText("Dinheiro");
});

// Issue 24, point 3: Brazil's sandbox offers its test rails for PIX, boleto and card, so "pay
// another way" after a failure reaches another method. Point 7: the buyer details. On the phone
// project the page is the 390 × 844 screen the issue was tried on.
const phone = async (page: Page, info: TestInfo) => {
  if (info.project.name === "phone") await page.setViewportSize({ width: 390, height: 844 });
};

/** A merchant of its own (a webhook registered on one must not change what another test's buyer reads). */
async function newMerchantKey(name: string): Promise<string> {
  return (await cli(["merchant:create", "--name", name])).sandbox.secretKey;
}

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

/** The value of `testId` is written in groups, each on one line inside the screen (never broken inside). */
async function expectGroupsWhole(page: Page, testId: string, atLeast: number) {
  const field = page.getByTestId(testId);
  const groups = await field.locator('[data-testid="reading-group"]').evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      const line = parseFloat(getComputedStyle(el).lineHeight);
      return { text: el.textContent ?? "", height: r.height, line, right: r.right, width: window.innerWidth };
    }),
  );
  expect(groups.length).toBeGreaterThanOrEqual(atLeast);
  for (const g of groups) {
    expect(g.height, `"${g.text}" on one line`).toBeLessThan(g.line * 1.5);
    expect(g.right, `"${g.text}" inside the screen`).toBeLessThanOrEqual(g.width);
  }
  expect((await field.innerText()).replace(/\s/g, "")).toBe(groups.map((g) => g.text).join(""));
}

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
    await expect(rules.filter({ hasText: "Efectivo en OXXO" })).toContainText("documento de identidad");
    await checkPage(page, info, "mx-document-hint");
    await page.locator('label[for="method-sbx_cash"]').click();
    await expect(page.getByTestId("document-format")).toHaveText(/^El número de tu documento de identidad, al menos 4 caracteres\./);
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
