// A merchant's first day in the sandbox (issue 24, point 3), on the desktop: with
// payments paid today, "Settle pending funds now" makes them available and a settlement batch
// closes at once; the owner registers the shop for QR charges from the page and charges.
// Screenshots (e2e/screenshots/dashboard-settle-now-*, dashboard-qr-register-*) and axe-core.
import { test, expect } from "@playwright/test";
import { api, checkPage, merchantWithPaidPayments, nav, newMerchant, signIn } from "./dashboard-helpers";

test.describe.configure({ mode: "parallel" });

test("settle pending funds now, then run a settlement the same day", async ({ page }, info) => {
  const m = await merchantWithPaidPayments("settle-now");

  await signIn(page, m.owner);
  await nav(page, "Settlements");
  // Nothing available yet: a batch would be skipped.
  await page.getByRole("button", { name: "Run settlement now" }).click();
  await expect(page.getByText("Nothing to settle: the available balance is under 50 USD.")).toBeVisible();
  await page.getByRole("button", { name: "Settle pending funds now" }).click();
  await expect(page.getByText(/^2 payments settled\. Available now: \d+\.\d{2} USD\.$/)).toBeVisible();
  await checkPage(page, info, "settle-now");
  await page.getByRole("button", { name: "Run settlement now" }).click();
  await expect(page.getByText(/Closed stl_\w+: [\d.]+ USD net\./)).toBeVisible();
  await expect(page.getByTestId("settlement-row")).toHaveCount(1);
});

test("the owner registers the shop for QR charges in the sandbox and charges", async ({ page }, info) => {
  const m = await newMerchant("qr-self");
  await signIn(page, m.owner);
  await nav(page, "Charge with QR");
  await expect(page.getByText("This shop cannot charge with QR yet")).toBeVisible();
  await expect(page.getByText(/Ask support/)).toHaveCount(0);
  const form = page.getByRole("form", { name: "Register this shop for QR charges" });
  await form.getByLabel("Name on the code").fill("Padaria Sol");
  await form.getByLabel("City").fill("Sao Paulo");
  await checkPage(page, info, "qr-register");
  await form.getByRole("button", { name: "Register shop" }).click();
  const charge = page.getByRole("form", { name: "New QR charge" });
  await expect(charge).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole("heading", { level: 1, name: "Charge with QR" })).toBeVisible();
  await expect(page.getByText("Padaria Sol, Sao Paulo")).toBeVisible();
  await charge.getByLabel("Amount (BRL)").fill("9,90");
  await charge.getByLabel("Order reference").fill("balcao-1");
  await charge.getByRole("button", { name: "Show QR code" }).click();
  await expect(page.getByRole("region", { name: "QR code" })).toContainText(/R\$\s9,90/);
  await checkPage(page, info, "qr-register-done");
});
