// The QR counter page (/qr/{token}) in Debian's Chromium, on a phone and a tablet
// at the till: the code (an SVG image with a label), the amount in the buyer's language, the
// copy-and-paste code, the countdown to the deadline; paid (or expired) through the API while the
// page is open, it turns paid (expired) without a reload. es, pt-BR and en; screenshots and
// axe-core (no serious violation).
import { test, expect, type Page, type TestInfo } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { api, newMerchant, registerQr } from "./dashboard-helpers";

async function check(page: Page, info: TestInfo, name: string) {
  await page.screenshot({ path: `e2e/screenshots/qr-${name}-${info.project.name}.png`, fullPage: true });
  // Violations only: the passes' node lists axe would build otherwise are never read.
  const results = await new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
}

const CASES = [
  { locale: "pt-BR", title: "Escaneie para pagar com PIX", paid: "Pagamento recebido", amount: /R\$\s?25,50/, expiresIn: "Expira em" },
  { locale: "es", title: "Escanea para pagar con PIX", paid: "Pago recibido", amount: /25[.,]50/, expiresIn: "Vence en" },
  { locale: "en", title: "Scan to pay with PIX", paid: "Payment received", amount: /R\$\s?25\.50/, expiresIn: "Expires in" },
];

for (const c of CASES) {
  test(`the counter page follows the order live until it is paid (${c.locale})`, { tag: "@buyer" }, async ({ page }, info) => {
    const m = await newMerchant(`qr-${c.locale}`);
    await registerQr(m.shopId);
    const made = await api("/qr/orders", m.sandbox.secretKey, { amount: 25.5, merchantOrderId: "mesa-4" });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const o = made.body.order;
    await page.goto(`/qr/${o.token}?locale=${c.locale}`);
    await expect(page.getByRole("heading", { level: 1, name: c.title })).toBeVisible();
    await expect(page.getByTestId("qr-amount")).toHaveText(c.amount);
    await expect(page.getByRole("img", { name: /PIX/ })).toBeVisible();
    await expect(page.getByTestId("qr-payload")).toHaveText(o.qrPayload);
    await expect(page.getByText("mesa-4")).toBeVisible();
    // The countdown to the 15-minute deadline, ticking.
    const countdown = page.getByRole("timer");
    await expect(countdown).toHaveText(/^1[45]:[0-5]\d$/);
    await expect(page.getByText(c.expiresIn)).toBeVisible();
    const first = await countdown.textContent();
    await expect(countdown).not.toHaveText(first!, { timeout: 5_000 });
    // The code fits the screen: no sideways scroll on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    if (c.locale === "pt-BR") await check(page, info, "pending");

    // A mark on this document: still there after the change, so the page was not reloaded.
    await page.evaluate(() => ((window as unknown as { qrMark: number }).qrMark = 1));
    const paid = await api(`/qr/orders/${o.id}/simulate`, m.sandbox.secretKey, { action: "paid" });
    expect(paid.status).toBe(200);
    await expect(page.getByRole("heading", { level: 1, name: c.paid })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole("img", { name: /PIX/ })).toHaveCount(0);
    await expect(page.getByRole("timer")).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { qrMark?: number }).qrMark)).toBe(1);
    if (c.locale === "pt-BR") await check(page, info, "paid");
  });
}

test("on a tablet at the till, the code expiring turns the screen expired live", { tag: "@till" }, async ({ page }, info) => {
  await page.setViewportSize({ width: 820, height: 1180 });
  const m = await newMerchant("qr-expire");
  await registerQr(m.shopId, "Café da Esquina", "Belo Horizonte");
  const o = (await api("/qr/orders", m.sandbox.secretKey, { amount: 8, merchantOrderId: "balcao-2", expiresInMinutes: 90 })).body.order;
  await page.goto(`/qr/${o.token}?locale=es`);
  await expect(page.getByRole("heading", { level: 1, name: "Escanea para pagar con PIX" })).toBeVisible();
  await expect(page.getByRole("timer")).toHaveText(/^1:(29|30):[0-5]\d$/);
  await check(page, info, "pending-tablet");
  await page.evaluate(() => ((window as unknown as { qrMark: number }).qrMark = 1));
  expect((await api(`/qr/orders/${o.id}/simulate`, m.sandbox.secretKey, { action: "expired" })).status).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Este código venció" })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole("img", { name: /PIX/ })).toHaveCount(0);
  await expect(page.getByRole("timer")).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { qrMark?: number }).qrMark)).toBe(1);
  await check(page, info, "expired-tablet");
});

test("on a tablet at the till, an unknown token is a helpful page", { tag: "@till" }, async ({ page }, info) => {
  await page.setViewportSize({ width: 820, height: 1180 });
  await page.goto(`/qr/${"a".repeat(24)}?locale=es`);
  await expect(page.getByRole("heading", { name: "Código no encontrado" })).toBeVisible();
  await check(page, info, "unknown");
});
