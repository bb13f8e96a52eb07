// The payer's authorization page of a recurring PIX mandate (/pay/mandate/{token}) in Debian's
// Chromium on a phone: the terms (what for, how much and how often, from and until when, the payer
// with a masked CPF), the code (an SVG image with a label) and its copy-and-paste text while the
// mandate waits; once authorized, the page says so and offers no code. pt-BR and en; axe-core (no
// serious violation); no sideways scroll.
import { test, expect, type Page, type TestInfo } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { api, newMerchant } from "./dashboard-helpers";

async function check(page: Page, info: TestInfo, name: string) {
  await page.screenshot({ path: `e2e/screenshots/mandate-${name}-${info.project.name}.png`, fullPage: true });
  const results = await new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
}

const day = (n: number) => {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(new Date());
  return new Date(Date.parse(`${today}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
};

const CASES = [
  { locale: "pt-BR", title: "Autorize o Pix Automático", done: "Pix Automático autorizado", amount: /R\$\s?49,90\s+por mês/, until: "Até você cancelar" },
  { locale: "en", title: "Authorize automatic PIX payments", done: "Automatic payments authorized", amount: /R\$\s?49\.90\s+per month/, until: "Until you cancel" },
];

for (const c of CASES) {
  test(`the authorization page shows the terms and the code, then the answer (${c.locale})`, { tag: "@buyer" }, async ({ page }, info) => {
    const m = await newMerchant(`mandate-${c.locale}`);
    const made = await api("/mandates", m.sandbox.secretKey, { amount: 49.9, period: "monthly", startDate: day(5), customer: { name: "Ana Souza", email: "ana@example.com", documentId: "529.982.247-25" }, description: "Plano Família" });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const mandate = made.body.mandate;
    await page.goto(`${new URL(mandate.authorizationUrl).pathname}?locale=${c.locale}`);
    await expect(page.getByRole("heading", { level: 1, name: c.title })).toBeVisible();
    await expect(page.getByTestId("mandate-amount")).toHaveText(c.amount);
    await expect(page.getByRole("img", { name: /PIX/ })).toBeVisible();
    await expect(page.getByTestId("mandate-payload")).toHaveText(/^000201/);
    await expect(page.getByText("Plano Família")).toBeVisible();
    await expect(page.getByText(c.until)).toBeVisible();
    await expect(page.getByText("Ana Souza · ***.982.247-**")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    if (c.locale === "pt-BR") await check(page, info, "pending");

    expect((await api(`/mandates/${mandate.id}/simulate`, m.sandbox.secretKey, { action: "authorize" })).status).toBe(200);
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: c.done })).toBeVisible();
    await expect(page.getByRole("img", { name: /PIX/ })).toHaveCount(0);
    if (c.locale === "pt-BR") await check(page, info, "active");
  });
}

test("an unknown authorization link is a plain 404 page", { tag: "@buyer" }, async ({ page }) => {
  const res = await page.goto("/pay/mandate/AAAAAAAAAAAAAAAAAAAAAAAA?locale=pt-BR");
  expect(res?.status()).toBe(404);
  await expect(page.getByText("Autorização não encontrada")).toBeVisible();
});
