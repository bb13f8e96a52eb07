// The buyer's hosted checkout in Debian's Chromium, on the phone project (keyboard-only use on the desktop): a selector
// session paid with PIX in English, Portuguese and Spanish (with the merchant's webhook receiver
// getting payment.completed), the provider pages of SPEI, OXXO and card, expired/used/unknown
// sessions, keyboard-only and script-free use. Every page passes axe-core (no serious or critical
// violation), breaks no CSP rule, and is screenshotted to e2e/screenshots/.
import { test, expect, type Page, type TestInfo } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import http from "node:http";
import pg from "pg";
import { cli } from "./dashboard-helpers";

const BASE = process.env.BASE_URL ?? "http://127.0.0.1:3000";
const CPF = "52998224725";
const customer = { firstName: "Ana", lastName: "Souza", email: "ana@example.com", phone: "+55 11 98765-4321" };

type Merchant = { merchantId: string; sandbox: { secretKey: string } };
let merchant: Merchant;
const received: Array<{ type: string; data: { object: { id: string } } }> = [];
let receiver: http.Server;

test.beforeAll(async () => {
  merchant = await cli(["merchant:create", "--name", "Loja Azul"]);
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      try {
        received.push(JSON.parse(body));
      } catch {}
      res.end("ok");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
  const port = (receiver.address() as import("node:net").AddressInfo).port;
  const hook = await apiPost("/webhooks", { url: `http://127.0.0.1:${port}/hooks`, events: ["payment.completed"] });
  expect(hook.status, JSON.stringify(hook.body)).toBeLessThan(300);
});
test.afterAll(async () => {
  receiver?.closeAllConnections();
  await new Promise((r) => receiver?.close(r));
});

async function apiPost(path: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${BASE}/api/v1${path}`, { method: "POST", headers: { authorization: `Bearer ${merchant.sandbox.secretKey}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

async function sql(text: string, params: unknown[]) {
  const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await c.connect();
  try {
    await c.query(text, params);
  } finally {
    await c.end();
  }
}

/** Fails the test on any CSP violation the page reports. */
function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to (load|execute|apply)/i.test(m.text())) violations.push(m.text());
  });
  return violations;
}

async function checkPage(page: Page, info: TestInfo, name: string) {
  // Violations only: the passes' node lists axe would build otherwise are never read.
  const results = await new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join("; ")})`)).toEqual([]);
  await page.screenshot({ path: `e2e/screenshots/checkout-${name}-${info.project.name}.png`, fullPage: true });
}

const TEXT = {
  "en-US": { choose: "Choose how to pay", doc: "Document number", go: "Continue to payment", paid: "Simulate paid", paidBadge: "Paid", result: "Payment received" },
  "pt-BR": { choose: "Escolha como pagar", doc: "Número do documento", go: "Continuar para o pagamento", paid: "Simular pago", paidBadge: "Pago", result: "Pagamento recebido" },
  "es-MX": { choose: "Elige cómo pagar", doc: "Número de documento", go: "Continuar al pago", paid: "Simular pagado", paidBadge: "Pagado", result: "Pago recibido" },
} as const;

for (const locale of Object.keys(TEXT) as Array<keyof typeof TEXT>) {
  test.describe(`PIX through a selector session (${locale})`, () => {
    test.use({ locale });
    test("pick PIX, pay in the sandbox, come back to 'paid'; the merchant's receiver gets payment.completed", { tag: "@buyer" }, async ({ page }, info) => {
      const t = TEXT[locale];
      const csp = watchCsp(page);
      const session = await apiPost("/checkout/sessions", { amount: 100, country: "BR", customer, merchantOrderId: `ui-${locale}-${info.project.name}` });
      expect(session.status).toBe(200);

      await page.goto(new URL(session.body.checkoutUrl).pathname);
      await expect(page.getByRole("group", { name: t.choose })).toBeVisible();
      // Formatted by the same ICU as the server's: the buyer's locale, in reais.
      await expect(page.getByTestId("amount")).toHaveText(new Intl.NumberFormat(locale, { style: "currency", currency: "BRL" }).format(540));
      await expect(page.getByText("Ana Souza")).toBeVisible();
      await checkPage(page, info, `selector-${locale}`);

      await page.locator('label[for="method-sbx_pix"]').click();
      await page.getByLabel(t.doc).fill(CPF);
      await page.getByRole("button", { name: t.go }).click();

      await expect(page).toHaveURL(/\/pay\/sandbox\/tx_/);
      const txId = /\/pay\/sandbox\/(tx_[0-9A-Za-z]{24})/.exec(page.url())![1]!;
      await expect(page.locator("img[src^='data:image/svg+xml']")).toBeVisible();
      await checkPage(page, info, `pix-${locale}`);
      // The test button leads straight to the result page (issue 24).
      await page.getByRole("button", { name: t.paid }).click();
      await expect(page).toHaveURL(new RegExp(`/c/${txId}/result`));
      await expect(page.getByRole("heading", { level: 1, name: t.result })).toBeVisible();
      await expect(page.getByTestId("payment-status")).toHaveText(t.paidBadge);
      await checkPage(page, info, `result-${locale}`);

      await expect.poll(() => received.some((e) => e.type === "payment.completed" && e.data.object.id === txId), { timeout: 15_000 }).toBe(true);
      expect(csp).toEqual([]);
    });
  });
}

test("SPEI, OXXO and card provider pages: CLABE with a copy button, a barcode, a card form stand-in", { tag: "@buyer" }, async ({ page }, info) => {
  const csp = watchCsp(page);
  const buyer = { userName: "Juan Pérez", userEmail: "juan@example.com", userPhone: "+52 55 1234 5678" };
  const spei = await apiPost("/checkout/sessions", { amount: 40, paymentMethodId: "sbx_spei", documentId: "PEPJ800101AB1", ...buyer });
  expect(spei.status, JSON.stringify(spei.body)).toBe(200);
  await page.goto(new URL(spei.body.checkoutUrl).pathname + new URL(spei.body.checkoutUrl).search);
  const clabe = await page.locator("#clabe").innerText();
  expect(clabe).toMatch(/^\d{18}$/);
  await expect(page.getByRole("button", { name: "Copy" }).first()).toBeVisible();
  await checkPage(page, info, "spei");

  const oxxo = await apiPost("/checkout/sessions", { amount: 40, paymentMethodId: "sbx_cash", documentId: "PEPJ800101AB1", ...buyer });
  expect(oxxo.status, JSON.stringify(oxxo.body)).toBe(200);
  await page.goto(new URL(oxxo.body.checkoutUrl).pathname);
  await expect(page.getByRole("img", { name: /Barcode for reference \d{14}/ })).toBeVisible();
  await checkPage(page, info, "oxxo");

  const card = await apiPost("/checkout/sessions", { amount: 40, paymentMethodId: "sbx_card", documentId: CPF, ...buyer });
  expect(card.status, JSON.stringify(card.body)).toBe(200);
  await page.goto(new URL(card.body.checkoutUrl).pathname);
  await expect(page.getByLabel("Card number")).toHaveValue("4242 4242 4242 4242");
  await expect(page.getByText("Test mode: no real money moves.").first()).toBeVisible();
  await checkPage(page, info, "card");
  await page.getByRole("button", { name: "Simulate failed" }).click();
  await expect(page.getByTestId("payment-status")).toHaveText("Failed");
  expect(csp).toEqual([]);
});

test("expired, used and unknown sessions each get a helpful page", { tag: "@buyer" }, async ({ page }, info) => {
  const expired = await apiPost("/checkout/sessions", { amount: 10, customer });
  await sql("UPDATE checkout_sessions SET expires_at = now() - interval '1 second' WHERE id = $1", [expired.body.sessionId]);
  await page.goto(`/checkout/${expired.body.sessionId}`);
  await expect(page.getByRole("heading", { name: "This checkout has expired" })).toBeVisible();
  await checkPage(page, info, "expired");

  const used = await apiPost("/checkout/sessions", { amount: 10, customer: { ...customer, documentId: CPF } });
  const sel = await fetch(`${BASE}/api/v1/checkout/sessions/${used.body.sessionId}/select`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ paymentMethodId: "sbx_card" }) });
  expect(sel.status).toBe(200);
  await page.goto(`/checkout/${used.body.sessionId}`);
  await expect(page.getByRole("heading", { name: "You already chose how to pay" })).toBeVisible();
  await checkPage(page, info, "used");
  await page.getByRole("link", { name: "Go to your payment" }).click();
  await expect(page).toHaveURL(/\/pay\/sandbox\/tx_/);

  // The selector with a rejected pick's error next to its field.
  const open = await apiPost("/checkout/sessions", { amount: 100, country: "BR", customer });
  await page.goto(`/checkout/${open.body.sessionId}?error=document_invalid&field=documentId&method=sbx_pix`);
  await expect(page.locator("#documentId-error")).toBeVisible();
  await checkPage(page, info, "selector-error");

  await page.goto(`/checkout/cs_${"Z".repeat(24)}`);
  await expect(page.getByRole("heading", { name: "Checkout not found" })).toBeVisible();
  await checkPage(page, info, "unknown");
});

test("keyboard only: move through the methods, type the document, submit with Enter", async ({ page }) => {
  const session = await apiPost("/checkout/sessions", { amount: 100, country: "BR", customer });
  await page.goto(`/checkout/${session.body.sessionId}`);
  // Tab from the top of the page until a method radio has focus.
  for (let i = 0; i < 20 && !(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name === "paymentMethodId")); i++) await page.keyboard.press("Tab");
  expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).name)).toBe("paymentMethodId");
  await page.keyboard.press("Space");
  // The sandbox offers its test rails only (issue 13): in Brazil, PIX.
  expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe("sbx_pix");
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Document number")).toBeFocused();
  await page.keyboard.type(CPF);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/pay\/sandbox\/tx_/);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("the selector and the sandbox buttons work as plain HTML forms; a rejected pick says why next to the field", { tag: "@buyer" }, async ({ page }, info) => {
    const session = await apiPost("/checkout/sessions", { amount: 100, country: "BR", customer });
    await page.goto(`/checkout/${session.body.sessionId}`);
    await page.locator('label[for="method-sbx_pix"]').click();
    await page.getByLabel("Document number").fill("12345678900");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page.locator("#documentId-error")).toHaveText("This document number is not valid. CPF: 11 digits (e.g. 529.982.247-25), or CNPJ: 14 characters.");
    await expect(page.getByLabel("Document number")).toHaveAttribute("aria-invalid", "true");
    await page.screenshot({ path: `e2e/screenshots/checkout-selector-error-nojs-${info.project.name}.png`, fullPage: true });
    await page.getByLabel("Document number").fill(CPF);
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page).toHaveURL(/\/pay\/sandbox\/tx_/);
    await page.getByRole("button", { name: "Simulate paid" }).click();
    await expect(page.getByTestId("payment-status")).toHaveText("Paid");
  });
});

test("the result page follows a pending payment live until it is paid", { tag: "@buyer" }, async ({ page }, info) => {
  const one = await apiPost("/checkout/sessions", { amount: 25, paymentMethodId: "sbx_card", userName: "Ana Souza", userEmail: "ana@example.com", documentId: CPF });
  expect(one.status).toBe(200);
  await page.goto(`/c/${one.body.transactionId}/result`);
  await expect(page.getByTestId("payment-status")).toHaveText("Waiting for payment");
  await expect(page.getByText("Checking for updates…")).toBeVisible();
  await checkPage(page, info, "result-pending");
  const sim = await apiPost(`/payments/${one.body.transactionId}/simulate`, { action: "paid" });
  expect(sim.status).toBe(200);
  // No reload: the page's own poll notices the change and re-renders.
  await expect(page.getByTestId("payment-status")).toHaveText("Paid", { timeout: 10_000 });
  await expect(page.getByRole("heading", { level: 1, name: "Payment received" })).toBeVisible();
});
