// Routing in the dashboard (the desktop project): an owner saves rules as a new version (a bad
// rule is refused in plain words at the rules box), previews where a payment would go, and reads
// the analytics of production payments routed through the simulated providers: per provider
// attempts, approval, latency and cost, the rescued share and provider health. Screenshots and
// axe-core (checkPage) on both pages.
import { test, expect } from "@playwright/test";
import { checkPage, newMerchant, signIn } from "./dashboard-helpers";
import { setRate } from "../../lib/money/rates";

const BASE = process.env.BASE_URL ?? "http://127.0.0.1:3000";

async function pay(key: string, body: Record<string, unknown>) {
  const r = await fetch(`${BASE}/api/v1/payments`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  return r.status;
}

test("edit routing rules, preview a payment, read the routing analytics", async ({ page }, info) => {
  // Sign-in, the switch to live mode and three provider round trips: seconds each on a loaded machine.
  test.setTimeout(240_000);
  await setRate("MXN", "18.20", "test");
  const m = (await newMerchant("routing")) as Awaited<ReturnType<typeof newMerchant>> & { production: { secretKey: string } };
  await signIn(page, m.owner);
  await page.getByRole("switch", { name: "Sandbox mode" }).click();
  await expect(page.getByRole("switch", { name: "Sandbox mode" })).toHaveAttribute("aria-checked", "false", { timeout: 45_000 });
  await page.getByRole("navigation", { name: "Dashboard", exact: true }).getByRole("link", { name: "Routing", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Routing" })).toBeVisible();
  await expect(page.getByText("No rules yet")).toBeVisible();

  // A provider that does not serve the payment method: refused at the rules box.
  const box = page.getByRole("textbox", { name: "Rules", exact: true });
  await box.fill(JSON.stringify([{ paymentMethodId: "1005", providers: [{ provider: "pagosur" }] }]));
  await page.getByRole("button", { name: "Save as a new version" }).click();
  await expect(page.getByText(/pagosur does not serve PSE/)).toBeVisible();

  await box.fill(JSON.stringify([{ name: "Large SPEI", paymentMethodId: "1003", when: { minAmountUsd: 100 }, providers: [{ provider: "rapidpay" }] }, { paymentMethodId: "1003", providers: [{ provider: "andespay" }, { provider: "pagosur" }] }]));
  await page.getByRole("button", { name: "Save as a new version" }).click();
  await expect(page.getByText("Saved as version 1")).toBeVisible();
  await expect(page.getByTestId("routing-rule")).toHaveCount(2);

  await page.getByLabel("Payment method").selectOption("1003");
  await page.getByLabel("Amount (USD)").fill("250");
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByTestId("routing-preview-result")).toContainText("would go to rapidpay");
  await expect(page.getByTestId("routing-preview-result")).toContainText("Rule 1 (Large SPEI), version 1");
  await checkPage(page, info, "routing");

  // Production payments through the simulated providers, then the analytics.
  for (const amount of [25, 30, 150]) expect(await pay(m.production.secretKey, { amount, paymentMethodId: "1003", userName: "Juan Pérez", userEmail: `rt-${amount}@example.com`, documentId: "GODE561231GR8" })).toBe(200);
  await page.getByRole("navigation", { name: "Routing sections" }).getByRole("link", { name: "Analytics" }).click();
  await expect(page.getByRole("heading", { name: "By provider" })).toBeVisible();
  await expect(page.getByTestId("routing-provider-row")).toHaveCount(2);
  await expect(page.getByTestId("routing-provider-row").filter({ hasText: "andespay" })).toContainText("2");
  await expect(page.getByTestId("routing-chart")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Provider health" })).toBeVisible();
  await checkPage(page, info, "routing-analytics");
});
