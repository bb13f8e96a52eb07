// Withdrawals and top-ups in the dashboard (the desktop project): withdraw behind a review step and
// simulate the custody outcome; get a deposit address and simulate a transfer to it. Screenshots
// and axe-core (checkPage).
import { test, expect } from "@playwright/test";
import { api, checkPage, nav, newMerchant, signIn, BASE_URL } from "./dashboard-helpers";
import { settleDueBalances } from "../../lib/settlements/settle-balances";

test.describe.configure({ mode: "parallel" });

test("withdraw after a review step, then simulate completed", async ({ page }, info) => {
  const m = await newMerchant("withdraw");
  const key = m.sandbox.secretKey;
  const put = await fetch(`${BASE_URL}/api/v1/me/settlement-destination`, { method: "PUT", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ asset: "USDT", network: "TRON", address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" }) });
  expect(put.status).toBe(200);
  const p = await api("/payments", key, { amount: 60, paymentMethodId: "sbx_card" });
  expect((await api(`/payments/${p.body.transactionId}/simulate`, key, { action: "paid" })).status).toBe(200);
  await settleDueBalances({ now: new Date(Date.now() + 4 * 86_400_000), merchantId: m.merchantId });

  await signIn(page, m.owner);
  await nav(page, "Withdrawals");
  await expect(page.getByText("USDT on TRON")).toBeVisible();
  await page.getByRole("form", { name: "Withdraw" }).getByLabel("Amount (USD)").fill("25");
  await page.getByRole("button", { name: "Review" }).click();
  const review = page.getByRole("group", { name: "Review the withdrawal" });
  await expect(review).toContainText("Send $25.00 USD");
  await checkPage(page, info, "withdraw-review");
  await review.getByRole("button", { name: "Confirm withdrawal" }).dblclick();
  await expect(page.getByRole("status")).toContainText(/Withdrawal of \$25\.00 USD is processing/);
  const row = page.getByTestId("withdrawal-row");
  await expect(row).toHaveCount(1);
  await row.getByRole("button", { name: "Simulate completed" }).click();
  await expect(row).toContainText(/completed/i);
  await checkPage(page, info, "withdrawals");
  const list = await api("/me/withdrawals", key);
  expect(list.body.data).toHaveLength(1);
});

test("get a deposit address and simulate a transfer: the payout balance is credited", async ({ page }, info) => {
  const m = await newMerchant("topup");
  await signIn(page, m.owner);
  await nav(page, "Top-ups");
  await page.getByRole("form", { name: "New deposit address" }).getByLabel("Network").selectOption("POLYGON");
  await page.getByRole("button", { name: "Get address" }).click();
  const row = page.getByTestId("topup-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("USDT on POLYGON");
  await row.getByLabel("Amount (USD)").fill("30");
  await row.getByRole("button", { name: "Simulate transfer" }).click();
  await expect(row).toContainText(/credited/i);
  await expect(row).toContainText("$30.00 USD");
  await checkPage(page, info, "topups");
  const balance = await api("/me/payout/balance", m.sandbox.secretKey);
  expect(balance.body.balances.find((b: { currency: string }) => b.currency === "USD").available).toBe(30);
});
