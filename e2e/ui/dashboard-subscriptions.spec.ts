// Subscriptions (recurring PIX, Pix Automático) in the dashboard, on a laptop (issue 43, point 5):
// a mandate made with the API waits for the payer with its authorization link; the sandbox
// authorizes it as the payer's bank app would; a scheduled charge shows as the mandate's next
// charge in the list and in the mandate's charges; the shop's cancel, behind a confirmation,
// ends it and cancels the charge not yet sent. Screenshots and axe-core on each page.
import { test, expect } from "@playwright/test";
import { api, checkPage, nav, newMerchant, signIn } from "./dashboard-helpers";

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
