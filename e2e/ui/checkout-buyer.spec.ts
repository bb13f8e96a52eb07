// What buyers stumbled on in issue 13, in Debian's Chromium on the phone, tablet and desktop
// projects: the price asked is the price paid, "pay another way" after a failure reaches a new
// session that completes, provider pages turn into the result without a reload, a bad CURP keeps
// its value and the focus and says the format (with and without script), deadlines and a PDF
// for vouchers, a CLABE on one line, the sandbox selector's test rails in the buyer's language.
// Every page passes axe-core (no serious or critical violation) and is screenshotted.
import { test, expect, type Page, type TestInfo } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import pg from "pg";

const BASE = process.env.BASE_URL ?? "http://127.0.0.1:3000";
const CPF = "52998224725";
const CURP = "PEPJ800101HDFRRN09";
const customer = { firstName: "Ana", lastName: "Souza", email: "ana@example.com", phone: "+55 11 98765-4321" };
const mxBuyer = { userName: "Juan Pérez", userEmail: "juan@example.com", userPhone: "+52 55 1234 5678", documentId: CURP };

let key = "";
let liveKey = "";
test.beforeAll(() => {
  const out = execFileSync(process.execPath, ["--import", "tsx", "scripts/cli.ts", "merchant:create", "--name", "Loja Azul", "--json"], { env: process.env, encoding: "utf8" });
  const m = JSON.parse(out.trim().split("\n").pop()!);
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

/** The simulated provider's control API (scripts/psp/simulator.ts). */
async function psp(path: string, body: unknown) {
  const res = await fetch(`${process.env.PROVIDER_PAGOSUR_URL}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
}

async function checkPage(page: Page, info: TestInfo, name: string) {
  const results = await new AxeBuilder({ page }).analyze();
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
  test("a 150 BRL session shows R$ 150,00 on the selector, the PIX page and the result", async ({ page }, info) => {
    const s = await api("/checkout/sessions", { amount: 150, currency: "BRL", country: "BR", customer, merchantOrderId: `price-${info.project.name}` });
    expect(s.status, JSON.stringify(s.body)).toBe(200);
    const asked = money("pt-BR", "BRL", 150);
    await page.goto(`/checkout/${s.body.sessionId}`);
    await expect(page.getByTestId("amount")).toHaveText(asked);
    await expect(page.locator('label[for="method-sbx_pix"]')).toContainText(asked);
    await fitsWidth(page);
    await checkPage(page, info, "price-selector");

    await page.getByLabel("Número do documento").fill(CPF);
    await page.getByRole("button", { name: "Continuar para o pagamento" }).click();
    await expect(page).toHaveURL(/\/pay\/sandbox\/tx_/);
    await expect(page.getByTestId("amount")).toHaveText(asked);
    const txId = /\/pay\/sandbox\/(tx_[0-9A-Za-z]{24})/.exec(page.url())![1]!;
    const p = (await api(`/payments/${txId}`)).body;
    expect(p.amountLocal).toBe(150);
    expect(p.amount).toBe(27.22); // the USD credit carries the 2 % markup
    await page.getByRole("button", { name: "Simular pago" }).click();
    await page.getByRole("link", { name: "Continuar", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Pagamento recebido" })).toBeVisible();
    await expect(page.locator("dd").filter({ hasText: asked })).toBeVisible();
    await checkPage(page, info, "price-result");
  });
});

test("after a failure, 'pay another way' reaches a new session that completes", async ({ page }, info) => {
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
  await checkPage(page, info, "successor");
  await page.locator('label[for="method-sbx_cash"]').click();
  await page.getByLabel("Document number").fill(CURP);
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
  test(`the ${method} page turns paid on its own, without a reload`, async ({ page }, info) => {
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

test("a real provider's instructions page (production) shows the asked price and the deadline, and turns paid on its own", async ({ page }, info) => {
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
  test("keeps the value, focuses the field, shows the format next to it; the URL does not say missing_required_fields", async ({ page }, info) => {
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

  test("a Brazilian document opens a number pad", async ({ page }) => {
    const s = await api("/checkout/sessions", { amount: 30, country: "BR", customer });
    await page.goto(`/checkout/${s.body.sessionId}`);
    await expect(page.getByLabel("Número de documento")).toHaveAttribute("inputmode", "numeric");
  });
});

test.describe("a bad CURP without JavaScript", () => {
  test.use({ javaScriptEnabled: false, locale: "es-MX" });
  test("the plain form keeps the value and focuses the field too", async ({ page }, info) => {
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

test("instructions: the deadline on SPEI, OXXO and boleto, one Referencia, a CLABE on one line, a voucher to print or download", async ({ page }, info) => {
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

test("the sandbox selector shows the test rails only, named in the buyer's language", async ({ page }, info) => {
  const s = await api("/checkout/sessions", { amount: 30, customer });
  await page.goto(`/checkout/${s.body.sessionId}?locale=es-MX`);
  const radios = page.locator('input[name="paymentMethodId"]');
  expect((await radios.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).sort()).toEqual(["sbx_card", "sbx_cash", "sbx_pix", "sbx_pse", "sbx_spei"]);
  await expect(page.getByText("(test)")).toHaveCount(0);
  await expect(page.locator('label[for="method-sbx_card"]')).toContainText("Tarjeta Visa / Mastercard");
  await expect(page.locator('label[for="method-sbx_cash"] [data-testid="rail-icon"]')).toContainText("Efectivo");
  await fitsWidth(page);
  await checkPage(page, info, "selector-es");
  await page.goto(`/checkout/${s.body.sessionId}?locale=pt-BR`);
  await expect(page.locator('label[for="method-sbx_card"]')).toContainText("Cartão Visa / Mastercard");
  await expect(page.locator('label[for="method-sbx_cash"] [data-testid="rail-icon"]')).toContainText("Dinheiro");
});
