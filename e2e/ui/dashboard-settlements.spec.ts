// Settlements in the dashboard (the desktop project): with settled payments and a destination, the
// sandbox "Run settlement now" closes a batch, its receipt appears once the job rendered it and
// downloads as a PDF, and "Simulate paid" marks it paid. Screenshot and axe-core (checkPage).
import { readFileSync } from "node:fs";
import { test, expect } from "@playwright/test";
import { api, checkPage, merchantWithPaidPayments, nav, newMerchant, signIn } from "./dashboard-helpers";
import { settleDueBalances } from "../../lib/settlements/settle-balances";

test("run a settlement in the sandbox, download its receipt, simulate paid", async ({ page }, info) => {
  const m = await merchantWithPaidPayments("settle");
  // The settlement delay passes (the job the server's ticker runs daily, with a clock ahead).
  await settleDueBalances({ now: new Date(Date.now() + 4 * 86_400_000), merchantId: m.merchantId });

  await signIn(page, m.owner);
  await nav(page, "Settlements");
  await expect(page.getByText("USDT on TRON")).toBeVisible();
  await page.getByRole("button", { name: "Run settlement now" }).click();
  await expect(page.getByRole("status")).toContainText(/Closed a settlement of \$[\d,.]+ USD net\./);
  const row = page.getByTestId("settlement-row").first();
  await expect(row.getByRole("link", { name: "Download receipt" })).toBeVisible({ timeout: 20_000 });
  await checkPage(page, info, "settlements");
  const [download] = await Promise.all([page.waitForEvent("download"), row.getByRole("link", { name: "Download receipt" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^settlement-stl_.*\.pdf$/);
  expect(readFileSync((await download.path())!).subarray(0, 5).toString()).toBe("%PDF-");
  await row.getByRole("button", { name: "Simulate paid" }).click();
  await expect(row).toContainText(/paid/i);
});
