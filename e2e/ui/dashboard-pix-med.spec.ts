// PIX MED in the dashboard (issue 43, point 3), on the desktop: a tester opens a MED on a paid
// test PIX from the payment's page (PIX has no chargebacks; the button is offered on PIX only),
// the claim blocks the amount and shows in the payment's timeline; on the claim's page the words
// are the MED's ("Return the PIX", "Simulate released / returned"), released needs a defence, and
// returned ends it lost with the payment shown refunded in the timeline. The claims list and the
// claim's page count the defence window down. Screenshots and axe-core.
import { test, expect } from "@playwright/test";
import { api, checkPage, newMerchant, signIn, switchLanguage } from "./dashboard-helpers";

test.beforeEach(async ({ page }, info) => {
  if (info.project.name === "desktop") await page.setViewportSize({ width: 1366, height: 768 });
});

const CPF = "52998224725";

/** A new merchant's paid sandbox PIX of R$ 100,00 (Ana Souza's). */
async function paidPix(prefix: string) {
  const m = await newMerchant(prefix);
  const key = m.sandbox.secretKey;
  const made = await api("/payments", key, { amount: 100, currency: "BRL", paymentMethodId: "sbx_pix", userName: "Ana Souza", userEmail: "ana@example.com", documentId: CPF });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const id = made.body.transactionId as string;
  expect((await api(`/payments/${id}/simulate`, key, { action: "paid" })).status).toBe(200);
  return { m, key, id };
}

test("a tester opens a MED on a paid PIX, sees the amount blocked, and decides it as the payer's bank", async ({ page }, info) => {
  test.setTimeout(120_000);
  const { m, key, id } = await paidPix("pixmed");
  const card = await api("/payments", key, { amount: 20, paymentMethodId: "sbx_card" });
  expect((await api(`/payments/${card.body.transactionId}/simulate`, key, { action: "paid" })).status).toBe(200);

  // A card payment is never offered a MED.
  await signIn(page, m.owner, { at: `/dashboard/payments/${card.body.transactionId}` });
  await expect(page.getByRole("button", { name: "Simulate chargeback" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Simulate PIX MED" })).toHaveCount(0);

  await page.goto(`/dashboard/payments/${id}`);
  await page.getByRole("button", { name: "Simulate PIX MED" }).click();
  const claim = page.getByTestId("payment-claim").filter({ hasText: "PIX MED claim" });
  await expect(claim).toBeVisible({ timeout: 15_000 });
  await expect(claim).toContainText("Open");
  await expect(page.getByTestId("timeline-event").filter({ hasText: /^PIX MED claim opened: R\$\s100,00 blocked$/ })).toBeVisible();
  // One open MED at a time: the button says why it is off.
  await expect(page.getByRole("button", { name: "Simulate PIX MED" })).toBeDisabled();
  await checkPage(page, info, "pix-med-payment");

  const claims = (await api(`/claims?transactionId=${id}`, key)).body.data as Array<{ id: string; kind: string }>;
  const med = claims.find((c) => c.kind === "pix_med")!;
  // The claims list counts the defence window down: 7 days by default, a moment already gone.
  await page.goto("/dashboard/claims");
  const medRow = page.getByTestId("claim-row").filter({ hasText: "PIX MED claim" });
  await expect(medRow.getByTestId("due-countdown")).toHaveText(/^Defence due: 6 days left · due /);
  await page.goto(`/dashboard/claims/${med.id}`);
  await expect(page.getByTestId("due-countdown")).toHaveText(/^Evidence due: 6 days left · due /);
  await expect(page.getByTestId("claim-title")).toContainText("PIX MED claim on");
  await expect(page.getByRole("heading", { name: "Return the PIX" })).toBeVisible();
  await expect(page.getByRole("form", { name: "Send evidence" })).toBeVisible();
  await checkPage(page, info, "pix-med-claim");

  // Released needs a defence sent before the due date: the API's rule, in its words.
  await page.getByRole("button", { name: "Simulate released" }).click();
  await expect(page.getByText("A MED claim is won with a defence")).toBeVisible();
  await page.getByRole("button", { name: "Simulate returned" }).click();
  await expect(page.getByTestId("claim-status")).toHaveText("Lost");
  await expect(page.getByRole("heading", { name: "Return the PIX" })).toHaveCount(0);

  await page.goto(`/dashboard/payments/${id}`);
  await expect(page.getByTestId("timeline-event").filter({ hasText: /^PIX MED claim lost: R\$\s100,00 returned to the payer$/ })).toBeVisible({ timeout: 15_000 });
  await checkPage(page, info, "pix-med-returned");
});

test("in pt-BR a shop owner reads a MED claim's blocked amount and defence deadline, sends a defence, and the payer's bank releases it", async ({ page }, info) => {
  test.setTimeout(120_000);
  const { m, key, id } = await paidPix("medptbr");
  await signIn(page, m.owner, { at: `/dashboard/payments/${id}` });
  await page.getByRole("button", { name: "Simulate PIX MED" }).click();
  await expect(page.getByTestId("payment-claim").filter({ hasText: "PIX MED claim" })).toBeVisible({ timeout: 15_000 });
  const med = ((await api(`/claims?transactionId=${id}`, key)).body.data as Array<{ id: string; kind: string }>).find((c) => c.kind === "pix_med")!;

  await switchLanguage(page, "pt-BR");
  await page.goto("/dashboard/claims");
  await expect(page.getByRole("heading", { level: 1, name: "Reembolsos e contestações" })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Reembolso ou contestação" })).toBeVisible();
  const row = page.getByTestId("claim-row").filter({ hasText: "Contestação MED" });
  await expect(row).toContainText("Em aberto");
  await expect(row.getByTestId("due-countdown")).toHaveText(/^Prazo para defesa: faltam 6 dias · prazo até \d{1,2} de [a-zç]{3}\./);
  await expect(page.getByRole("combobox", { name: "Tipo" }).getByRole("option", { name: "Contestações MED" })).toHaveCount(1);
  await expect(page.getByRole("combobox", { name: "Situação" }).getByRole("option", { name: "Todos" })).toHaveCount(1);
  await checkPage(page, info, "pix-med-claims-pt-br");

  await page.goto(`/dashboard/claims/${med.id}`);
  await expect(page).toHaveTitle("Reembolso ou contestação · Painel");
  await expect(page.getByTestId("claim-title")).toHaveText(/^Contestação MED de R\$\s100,00 — Aberta pelo banco do pagador \(MED\)$/);
  await expect(page.getByTestId("claim-status")).toHaveText("Em aberto");
  const details = page.getByRole("region", { name: "Detalhes" });
  await expect(details).toContainText("Valor bloqueado");
  await expect(details).toContainText("Prazo para defesa");
  await expect(page.getByTestId("due-countdown")).toHaveText(/^Prazo para defesa: faltam 6 dias · prazo até /);
  await expect(page.getByRole("heading", { name: "Devolver o Pix" })).toBeVisible();
  await expect(page.getByText("Nada enviado ainda. Sem defesa, o banco do pagador devolve o valor ao pagador.")).toBeVisible();
  const form = page.getByRole("form", { name: "Enviar defesa" });
  await expect(form).toBeVisible();
  await checkPage(page, info, "pix-med-claim-pt-br");

  // Released needs a defence first: the API's refusal in the shop owner's words.
  await page.getByRole("button", { name: "Simular valor liberado" }).click();
  await expect(page.getByText("Para liberar o valor, envie a defesa antes do prazo.")).toBeVisible();
  await form.getByLabel("Seu relato").fill("Pedido entregue em 2 de dezembro; o pagador confirmou o recebimento por e-mail.");
  await form.getByRole("button", { name: "Enviar defesa" }).click();
  await expect(form.getByRole("status")).toHaveText("Enviado: 1 item de defesa registrado.");
  await expect(page.getByRole("region", { name: "Defesa", exact: true })).toContainText("Pedido entregue em 2 de dezembro");
  await page.getByRole("button", { name: "Simular valor liberado" }).click();
  await expect(page.getByTestId("claim-status")).toHaveText("Valor liberado");
  await expect(page.getByRole("heading", { name: "Devolver o Pix" })).toHaveCount(0);
  await expect(details).toContainText("Resolvida em");
  await checkPage(page, info, "pix-med-released-pt-br");
});
