// The payments page's search box (lib/payments/search.ts) in the browser: by e-mail, order-id
// prefix, amount, payment id and name it finds the merchant's payment and never another
// merchant's with the same details; the customer shows in the list and on the detail page; the
// filters speak in names; a bad filter in the URL is explained in plain words; the page does not
// scroll sideways at 820 px. Every state is screenshotted and scanned with axe-core.
import { test, expect, type Page } from "@playwright/test";
import { api, checkPage, newMerchant, signIn } from "./dashboard-helpers";

test.describe.configure({ mode: "parallel" });

async function search(page: Page, q: string) {
  await page.getByRole("searchbox", { name: "Search" }).fill(q);
  await page.getByRole("button", { name: "Apply filters" }).click();
  // The form's GET encodes spaces as "+": compare the decoded parameter.
  await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe(q);
}

test("search by e-mail, order-id prefix, amount, payment id and name finds the payment and no other merchant's; the customer shows; filters by name; a bad country in plain words", async ({ page }, info) => {
  test.setTimeout(180_000);
  const a = await newMerchant("search-a");
  const b = await newMerchant("search-b");
  const tag = Date.now().toString(36);
  const buyer = { userName: "María López", userEmail: `Maria.Lopez.${tag}@example.com`, documentId: "GODE561231GR8" };
  const charge = { paymentMethodId: "sbx_spei", amount: 499, currency: "MXN", merchantOrderId: `SRCH-${tag}-0001`, ...buyer };
  const mine = await api("/payments", a.sandbox.secretKey, charge);
  expect(mine.status, JSON.stringify(mine.body)).toBe(200);
  const theirs = await api("/payments", b.sandbox.secretKey, charge);
  expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
  const other = await api("/payments", a.sandbox.secretKey, { paymentMethodId: "sbx_card", amount: 12, merchantOrderId: `OTHER-${tag}` });
  expect(other.status, JSON.stringify(other.body)).toBe(200);
  const id: string = mine.body.transactionId;
  const row = page.locator(`[data-payment-id="${id}"]`);

  await signIn(page, a.owner, { at: "/dashboard/payments" });
  await expect(page.getByTestId("payment-row")).toHaveCount(2);
  // The customer in the list.
  await expect(row.getByTestId("payment-customer")).toContainText("María López");
  await expect(row.getByTestId("payment-customer")).toContainText(buyer.userEmail);

  // Filters show names, not API values.
  const methodOptions = page.getByLabel("Method type").locator("option");
  await expect(methodOptions.filter({ hasText: /^Bank transfer$/ })).toHaveCount(1);
  await expect(methodOptions.filter({ hasText: "bank_transfer" })).toHaveCount(0);
  await expect(page.getByLabel("Country").locator("option").filter({ hasText: /^Mexico$/ })).toHaveCount(1);
  await expect(page.getByLabel("Status").locator("option").filter({ hasText: /^Completed$/ })).toHaveCount(1);

  for (const q of [buyer.userEmail.toUpperCase(), `maria.lopez.${tag}`, `srch-${tag}`, "499.00", "499", id, "maria lop"]) {
    await search(page, q);
    await expect(row, q).toBeVisible();
    await expect(page.getByTestId("payment-row"), q).toHaveCount(1);
    await expect(page.locator(`[data-payment-id="${theirs.body.transactionId}"]`)).toHaveCount(0);
  }
  // A part of the order id that is not its start finds nothing.
  await search(page, `${tag}-0001`);
  await expect(page.getByText("No payments match these filters")).toBeVisible();

  // With a country chosen by name.
  await search(page, `srch-${tag}`);
  // The filters beyond the search are folded: the page opens on its results.
  await page.getByText("More filters").click();
  await page.getByLabel("Country").selectOption({ label: "Mexico" });
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/country=MEX/);
  await expect(row).toBeVisible();
  await checkPage(page, info, "payments-search");

  // No sideways scroll at a 10" tablet's width.
  await page.setViewportSize({ width: 820, height: 1180 });
  await expect(row).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  // The detail page shows the customer.
  await row.getByRole("link").click();
  await expect(page.getByTestId("payment-status")).toBeVisible();
  const customer = page.getByRole("region", { name: "Customer", exact: true });
  await expect(customer).toContainText("María López");
  await expect(customer).toContainText(buyer.userEmail);
  await expect(page.getByRole("region", { name: "Details", exact: true })).toContainText("Mexico");
  await checkPage(page, info, "payment-detail-customer");

  // A bad filter value in the URL: plain words next to the field, no API or zod wording.
  await page.goto("/dashboard/payments?country=XXXX");
  await expect(page.getByText("We don't know the country “XXXX”. Pick one from the list.")).toBeVisible();
  await expect(page.getByLabel("Country")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Fix the filters above to see payments.")).toBeVisible();
  await expect(page.locator("main")).not.toContainText(/Invalid query|Too big|`/);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await checkPage(page, info, "payments-bad-filter");
});
