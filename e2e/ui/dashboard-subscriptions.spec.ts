// Subscriptions (recurring PIX, Pix Automático) in the dashboard, on a laptop (issue 43, point 5):
// a mandate made with the API waits for the payer with its authorization link; the sandbox
// authorizes it as the payer's bank app would; a scheduled charge shows as the mandate's next
// charge in the list and in the mandate's charges; the shop's cancel, behind a confirmation,
// ends it and cancels the charge not yet sent. Screenshots and axe-core on each page.
import { test, expect } from "@playwright/test";
import { api, checkPage, nav, newMerchant, signIn, switchLanguage } from "./dashboard-helpers";

test.beforeEach(async ({ page }, info) => {
  if (info.project.name === "desktop") await page.setViewportSize({ width: 1366, height: 768 });
});

const DAY = 86_400_000;
/** Today in São Paulo (a mandate's calendar), as YYYY-MM-DD, plus `n` days. */
function day(n: number): string {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(new Date());
  return new Date(Date.parse(`${today}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
}
/** "9 Dec 2026", as the page writes a calendar day. */
const written = (iso: string) => new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(new Date(`${iso}T00:00:00Z`));

test("a mandate waits for the payer, is authorized, shows its next charge, and the shop cancels it", async ({ page }, info) => {
  test.setTimeout(120_000);
  const m = await newMerchant("subs");
  const key = m.sandbox.secretKey;
  const made = await api("/mandates", key, {
    amount: 49.9,
    period: "monthly",
    startDate: day(15),
    customer: { name: "Ana Souza", email: "ana@example.com", documentId: "529.982.247-25" },
    description: "Plano Família",
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const mandate = made.body.mandate as { id: string; authorizationUrl: string };

  await signIn(page, m.owner);
  await nav(page, "Subscriptions");
  const row = page.getByTestId("mandate-row").filter({ hasText: "Ana Souza" });
  await expect(row).toContainText("R$ 49,90 a month");
  await expect(row).toContainText("Waiting for the payer");
  await checkPage(page, info, "subscriptions-pending");

  await row.getByRole("link", { name: "Ana Souza" }).click();
  await expect(page.getByTestId("mandate-title")).toHaveText("R$ 49,90 a month");
  await expect(page.getByTestId("mandate-status")).toHaveText("Waiting for the payer");
  await expect(page.getByTestId("mandate-authorization-url")).toHaveText(mandate.authorizationUrl);
  // Only an active mandate is cancelled by the shop; the payer's answers come first.
  await expect(page.getByRole("button", { name: "Cancel subscription…" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Simulate cancelled by the payer" })).toBeDisabled();
  await checkPage(page, info, "mandate-pending");

  await page.getByRole("button", { name: "Simulate authorized" }).click();
  await expect(page.getByTestId("mandate-status")).toHaveText("Active");
  await expect(page.getByTestId("mandate-authorization-url")).toHaveCount(0);

  const due = day(20);
  const scheduled = await api(`/mandates/${mandate.id}/charges`, key, { dueDate: due });
  expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(201);
  const charge = page.getByTestId("mandate-charge-row");
  await expect(charge).toHaveCount(1, { timeout: 15_000 });
  await expect(charge).toContainText(written(due));
  await expect(charge).toContainText("Scheduled");
  await expect(charge).toContainText("Not sent yet");
  await checkPage(page, info, "mandate-active");

  await page.goto("/dashboard/subscriptions");
  await expect(row).toContainText("Active");
  await expect(row.getByTestId("mandate-next-charge")).toContainText(written(due));
  await expect(row.getByTestId("mandate-next-charge")).toContainText("R$ 49,90");

  await row.getByRole("link", { name: "Ana Souza" }).click();
  await page.getByRole("button", { name: "Cancel subscription…" }).click();
  await page.getByRole("button", { name: "Yes, cancel it" }).click();
  await expect(page.getByTestId("mandate-status")).toHaveText("Cancelled");
  await expect(page.getByRole("region", { name: "Details" })).toContainText("Your shop");
  await expect(charge).toContainText("Cancelled");
  await checkPage(page, info, "mandate-cancelled");

  // The API agrees: cancelled by the merchant, the charge cancelled with it.
  const after = await api(`/mandates/${mandate.id}`, key);
  expect(after.body.mandate).toMatchObject({ status: "cancelled", cancelledBy: "merchant" });
  expect((await api(`/mandates/${mandate.id}/charges`, key)).body.data[0].status).toBe("cancelled");

  // The status filter: an active-only list no longer shows it.
  await page.goto("/dashboard/subscriptions?status=active");
  await expect(page.getByTestId("mandate-row")).toHaveCount(0);
});

/** "9 de dez. de 2026", as the page writes a calendar day in pt-BR. */
const escrito = (iso: string) => new Intl.DateTimeFormat("pt-BR", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(new Date(`${iso}T00:00:00Z`));

test("in pt-BR a shop owner reads Subscriptions and a mandate in their words, and cancels it", async ({ page }, info) => {
  test.setTimeout(120_000);
  const m = await newMerchant("assinaturas");
  const key = m.sandbox.secretKey;
  const made = await api("/mandates", key, { amount: 49.9, period: "monthly", startDate: day(15), customer: { name: "Ana Souza", email: "ana@example.com", documentId: "529.982.247-25" }, description: "Plano Família" });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const variable = await api("/mandates", key, { maxAmount: 200, period: "yearly", startDate: day(30), customer: { name: "Bruno Lima", email: "bruno@example.com", documentId: "529.982.247-25" }, description: "Seguro" });
  expect(variable.status, JSON.stringify(variable.body)).toBe(201);
  const mandate = made.body.mandate as { id: string };

  // The browser says English (Accept-Language en-US): the dashboard starts in English, and the
  // header's picker turns it to pt-BR for this user, page after page (the cookie).
  await signIn(page, m.owner);
  await switchLanguage(page, "pt-BR");
  await expect(page.getByRole("navigation", { name: "Painel", exact: true }).getByRole("link", { name: "Assinaturas" })).toBeVisible();
  await page.getByRole("navigation", { name: "Painel", exact: true }).getByRole("link", { name: "Assinaturas" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Assinaturas" })).toBeVisible();
  await expect(page).toHaveTitle("Assinaturas · Painel");
  await expect(page.locator("[data-environment]")).toHaveAttribute("lang", "pt-BR");
  await expect(page.getByText(/^Pix Automático: o pagador autoriza sua loja/)).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Próxima cobrança" })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Pagador" })).toBeVisible();
  const row = page.getByTestId("mandate-row").filter({ hasText: "Ana Souza" });
  await expect(row).toContainText("R$ 49,90 por mês");
  await expect(row).toContainText("Aguardando autorização do pagador");
  await expect(page.getByTestId("mandate-row").filter({ hasText: "Bruno Lima" })).toContainText("Até R$ 200,00 por ano");
  await expect(page.getByRole("button", { name: "Aplicar" })).toBeVisible();
  await expect(page.getByText("1–2 de 2")).toBeVisible();
  await checkPage(page, info, "subscriptions-pt-br");

  await row.getByRole("link", { name: "Ana Souza" }).click();
  await expect(page.getByTestId("mandate-title")).toHaveText("R$ 49,90 por mês");
  await expect(page.getByTestId("mandate-status")).toHaveText("Aguardando autorização do pagador");
  await expect(page.getByRole("heading", { name: "Aguardando o pagador" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Copiar link" })).toBeVisible();
  const details = page.getByRole("region", { name: "Detalhes" });
  await expect(details).toContainText("Valor fixo");
  await expect(details).toContainText("Primeiro vencimento");
  await expect(details).toContainText(escrito(day(15)));
  await expect(details).toContainText("Até ser cancelada");
  await expect(page.getByText("Nenhuma cobrança agendada")).toBeVisible();
  await checkPage(page, info, "mandate-pending-pt-br");

  await page.getByRole("button", { name: "Simular autorização" }).click();
  await expect(page.getByTestId("mandate-status")).toHaveText("Ativa");
  const due = day(20);
  expect((await api(`/mandates/${mandate.id}/charges`, key, { dueDate: due })).status).toBe(201);
  const charge = page.getByTestId("mandate-charge-row");
  await expect(charge).toHaveCount(1, { timeout: 15_000 });
  await expect(charge).toContainText(escrito(due));
  await expect(charge).toContainText("Agendada");
  await expect(charge).toContainText("Ainda não enviada");
  await expect(page.getByRole("columnheader", { name: "Vencimento" })).toBeVisible();
  // A moment (authorized at) in pt-BR's own order: "3 de dez. de 2026, 14:03:05 UTC".
  await expect(details).toContainText("Autorizada em");
  await expect(details).toContainText(/\d{1,2} de [a-zç]{3}\. de \d{4}, \d{2}:\d{2}:\d{2}/);
  await checkPage(page, info, "mandate-active-pt-br");

  await page.getByRole("button", { name: "Cancelar assinatura…" }).click();
  await page.getByRole("button", { name: "Sim, cancelar" }).click();
  await expect(page.getByTestId("mandate-status")).toHaveText("Cancelada");
  await expect(details).toContainText("Sua loja");
  await expect(charge).toContainText("Cancelada");
  await checkPage(page, info, "mandate-cancelled-pt-br");
  expect((await api(`/mandates/${mandate.id}`, key)).body.mandate).toMatchObject({ status: "cancelled", cancelledBy: "merchant" });

  // Back to English: the same page in today's words.
  await switchLanguage(page, "en");
  await expect(page.getByTestId("mandate-status")).toHaveText("Cancelled");
  await expect(page.getByTestId("mandate-title")).toHaveText("R$ 49,90 a month");
});

test("a browser that asks for Portuguese gets the dashboard in pt-BR until the user picks another language (English, Spanish)", async ({ browser }) => {
  test.setTimeout(60_000);
  const m = await newMerchant("ptbrbrowser");
  const context = await browser.newContext({ locale: "pt-BR", viewport: { width: 1366, height: 768 }, baseURL: test.info().project.use.baseURL });
  const page = await context.newPage();
  try {
    await signIn(page, m.owner, { at: "/dashboard/subscriptions" });
    await expect(page.getByRole("heading", { level: 1, name: "Assinaturas" })).toBeVisible();
    await expect(page.getByText("Nenhuma assinatura ainda")).toBeVisible();
    await expect(page.getByTestId("language-switch")).toHaveValue("pt-BR");
    await switchLanguage(page, "en");
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: "Subscriptions" })).toBeVisible();
    // Spanish too, for the dashboard's Spanish-speaking shops.
    await switchLanguage(page, "es");
    await expect(page.getByRole("heading", { level: 1, name: "Suscripciones" })).toBeVisible();
    await expect(page.getByText("Todavía no hay suscripciones")).toBeVisible();
  } finally {
    await context.close();
  }
});
