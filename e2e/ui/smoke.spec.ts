import { test, expect } from "@playwright/test";

test("the home page renders, names the API version and links the OpenAPI document", async ({ page }, info) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Latam Payments" })).toBeVisible();
  await expect(page.getByText("2026-05-01")).toBeVisible();
  const link = page.getByRole("link", { name: "OpenAPI 3.1 document" });
  await expect(link).toBeVisible();
  await page.screenshot({ path: `e2e/screenshots/home-${info.project.name}.png`, fullPage: true });
  await link.click();
  await expect(page).toHaveURL(/\/api\/v1\/openapi\.json$/);
  await expect(page.locator("body")).toContainText('"openapi":"3.1.0"');
});
