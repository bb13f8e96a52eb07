// The integrators' tools in the dashboard, in Debian's Chromium (the desktop project): the CSV
// export button downloads a streamed file of the merchant's payments, and the cascade test card
// scripts the sandbox providers (a decline refused with its attempts, a timeout then an accept
// creating a payment). Pages screenshotted and scanned with axe-core (checkPage).
import { readFileSync } from "node:fs";
import { test, expect } from "@playwright/test";
import { api, checkPage, nav, newMerchant, signIn } from "./dashboard-helpers";

test.describe.configure({ mode: "parallel" });

test("Export CSV downloads the merchant's payments", async ({ page }, info) => {
  const m = await newMerchant("export");
  const made = await api("/payments", m.sandbox.secretKey, { amount: 12.5, paymentMethodId: "sbx_card", merchantOrderId: "csv-1" });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  await signIn(page, m.owner);
  await nav(page, "Payments");
  // The export is folded under the results' filters.
  await page.getByText(/^Export payments, ledger/).click();
  await checkPage(page, info, "payments-export");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^payments-sandbox-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = readFileSync((await download.path())!, "utf8");
  expect(text.split("\n")[0]).toContain("id,created_at");
  expect(text).toContain(made.body.transactionId);
  expect(text).toContain("csv-1");
});

test("the cascade test card: a decline is refused with its attempts; a timeout then an accept creates the payment", async ({ page }, info) => {
  const m = await newMerchant("cascade");
  await signIn(page, m.owner);
  await nav(page, "Developers");
  const card = page.getByRole("region", { name: "Test the provider cascade (sandbox)" });
  await card.getByLabel("Provider 1").selectOption("decline");
  await card.getByLabel("Provider 2").selectOption("");
  await card.getByRole("button", { name: "Create test payment" }).click();
  const result = card.getByTestId("cascade-result");
  await expect(result).toContainText("422 cascade_exhausted");
  await expect(result).toContainText("sandbox_fault_1: declined");
  await checkPage(page, info, "developers-cascade-refused");

  await card.getByLabel("Provider 1").selectOption("timeout");
  await card.getByLabel("Provider 2").selectOption("accept");
  await card.getByRole("button", { name: "Create test payment" }).click();
  await expect(result).toContainText("Created");
  const link = result.getByRole("link");
  await expect(link).toHaveText(/^tx_/);
  const id = (await link.textContent())!;
  const got = await api(`/payments/${id}`, m.sandbox.secretKey);
  expect(got.body.attempts.map((a: { outcome: string }) => a.outcome)).toEqual(["unavailable", "accepted"]);
});
