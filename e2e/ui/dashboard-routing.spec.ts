// Routing in the dashboard. An owner builds rules with the form (a bad amount range is refused
// beside its field, in plain words), saves them as a new version, reads them as JSON in the
// advanced view (a bad JSON rule is refused at the box), previews where a payment would go, and
// reads the analytics of production payments routed through the simulated providers, whose
// figures say what they count (as the overview's success rate does). In the sandbox, the form at
// 1366 and 820 px keeps every control in view, and "Try the rules" routes test payments through
// the rules being edited to the simulated providers. Screenshots and axe-core (checkPage) on each state.
import { test, expect, type Locator, type Page } from "@playwright/test";
import { checkPage, newMerchant, signIn } from "./dashboard-helpers";
import { setRate } from "../../lib/money/rates";

const BASE = process.env.BASE_URL ?? "http://127.0.0.1:3000";

async function pay(key: string, body: Record<string, unknown>) {
  const r = await fetch(`${BASE}/api/v1/payments`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  return r.status;
}

const rule = (page: Page, n: number) => page.getByRole("group", { name: `Rule ${n}`, exact: true });

test("build routing rules with the form, see a bad one refused beside its field, edit as JSON, preview, read the labelled analytics", async ({ page }, info) => {
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

  // Rule 1: large SPEI payments to Rapidpay; the amount range written backwards first.
  await page.getByRole("button", { name: "Add a rule" }).click();
  const first = rule(page, 1);
  await first.getByLabel("Name (optional)").fill("Large SPEI");
  await first.getByLabel("Payment method", { exact: true }).selectOption({ label: "SPEI" });
  await first.getByLabel("Provider 1", { exact: true }).selectOption({ label: "Rapidpay (simulated)" });
  await first.getByLabel("Amount from (USD)").fill("500");
  await first.getByLabel("Amount below (USD)").fill("100");
  // Rule 2: every other SPEI payment, Andespay then Pagosur.
  await page.getByRole("button", { name: "Add a rule" }).click();
  const second = rule(page, 2);
  await second.getByLabel("Payment method", { exact: true }).selectOption({ label: "SPEI" });
  await second.getByLabel("Provider 1", { exact: true }).selectOption({ label: "Andespay (simulated)" });
  await second.getByRole("button", { name: "Add a provider" }).click();
  await second.getByLabel("Provider 2", { exact: true }).selectOption({ label: "Pagosur (simulated)" });
  await page.getByRole("button", { name: "Save as a new version" }).click();
  const below = first.getByLabel("Amount below (USD)");
  await expect(below).toHaveAttribute("aria-invalid", "true");
  await expect(below).toBeFocused();
  await expect(first.getByText("Rule 1: the minimum amount must be below the maximum.")).toBeVisible();
  await checkPage(page, info, "routing-form-error");

  await below.fill("");
  await first.getByLabel("Amount from (USD)").fill("100");
  await page.getByRole("button", { name: "Save as a new version" }).click();
  await expect(page.getByText("Saved as version 1")).toBeVisible();
  await expect(page.getByTestId("routing-rule")).toHaveCount(2);
  await expect(page.getByTestId("routing-rule").first()).toContainText("Rapidpay (simulated)");
  await expect(page.getByTestId("routing-rule").nth(1)).toContainText("Andespay (simulated), Pagosur (simulated)");

  // The advanced view holds the same rules as JSON; a provider that does not serve PSE is refused at the box.
  await page.getByRole("button", { name: "Edit again" }).click();
  await page.getByText("Advanced: edit as JSON").click();
  const box = page.getByRole("textbox", { name: "Rules", exact: true });
  await expect(box).toHaveValue(/"name": "Large SPEI"[\s\S]*"minAmountUsd": 100[\s\S]*"provider": "andespay"/);
  await box.fill(JSON.stringify([{ paymentMethodId: "1005", providers: [{ provider: "pagosur" }] }]));
  // …and the form follows the JSON.
  await expect(page.getByTestId("routing-rule-form")).toHaveCount(1);
  await expect(rule(page, 1).getByLabel("Payment method", { exact: true })).toHaveValue("1005");
  await page.getByRole("button", { name: "Save the JSON as a new version" }).click();
  await expect(page.getByText(/Pagosur \(simulated\) does not serve PSE/)).toBeVisible();
  await checkPage(page, info, "routing-json");

  const preview = page.getByRole("form", { name: "Preview where a payment would go" });
  await preview.getByLabel("Payment method").selectOption("1003");
  await preview.getByLabel("Amount (USD)").fill("250");
  await preview.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByTestId("routing-preview-result")).toContainText("would go to Rapidpay (simulated)");
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
  // The figure says what it counts, and that it is not the overview's success rate.
  const taken = page.getByRole("definition").filter({ has: page.getByTestId("routing-approval-basis") });
  await expect(page.getByTestId("routing-approval-basis")).toHaveText("3 of 3 times a provider was asked, it agreed to take the payment and gave the buyer a way to pay. Whether the buyer then paid is the overview's success rate.");
  await expect(taken).toBeVisible();
  await expect(page.getByText("Taken by a later provider")).toHaveAttribute("title", "rescued by the cascade");
  await expect(page.getByText("Answer time (average / slowest 5 %)")).toHaveAttribute("title", "latency: average / p95");
  await checkPage(page, info, "routing-analytics");

  // The rules being edited estimated on those payments (issue 45): three are too few to estimate,
  // and the page says so beside what the rules in force had.
  await page.getByRole("navigation", { name: "Routing sections" }).getByRole("link", { name: "Rules" }).click();
  await page.getByRole("button", { name: "Estimate on past traffic" }).click();
  const estimate = page.getByTestId("routing-estimate-result");
  await expect(estimate).toContainText("3 routed payments in the period.");
  await expect(page.getByTestId("routing-estimate-too-little")).toContainText("No estimate: 3 routed payments in the period; an estimate needs at least 200.");
  await expect(estimate.getByRole("row").filter({ hasText: "Rules in force (what happened)" })).toContainText("100.0 %");
  await checkPage(page, info, "routing-estimate");

  await page.getByRole("navigation", { name: "Dashboard", exact: true }).getByRole("link", { name: "Overview", exact: true }).click();
  await expect(page.getByTestId("success-basis")).toContainText("Counts each payment once, when it ends: paid, or failed or expired. Routing analytics' approval counts something else");
  await checkPage(page, info, "routing-overview-figure");
});

test("@layout the estimate on past traffic at 390 px: its controls stay in view and its answer is read out", async ({ page }, info) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const m = await newMerchant("routing-estimate");
  await signIn(page, m.owner, { at: "/dashboard/routing" });
  const card = page.getByRole("region", { name: "Estimate on past traffic" });
  await card.getByLabel("Payments from").selectOption({ label: "The last 30 days" });
  await card.getByRole("button", { name: "Estimate on past traffic" }).click();
  // Test payments are taken by the test provider, so none is routed: nothing to estimate on.
  await expect(page.getByTestId("routing-estimate-too-little")).toContainText("an estimate needs at least 200");
  const width = page.viewportSize()!.width;
  for (const control of await card.locator("select, button").all()) {
    const box = (await control.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
  }
  await expect(card.locator("[aria-live=polite]")).toContainText("0 routed payments in the period.");
  await checkPage(page, info, "routing-estimate-390");
});

/** Every control of `area` lies inside the window, left to right (nothing off-screen or clipped at this width). */
async function controlsInView(page: Page, area: Locator) {
  const width = page.viewportSize()!.width;
  const controls = area.locator("input, select, button");
  const n = await controls.count();
  expect(n).toBeGreaterThan(5);
  for (let i = 0; i < n; i++) {
    const box = (await controls.nth(i).boundingBox())!;
    expect(box.x, `control ${i} starts inside the window`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `control ${i} ends inside the window (${width} px)`).toBeLessThanOrEqual(width);
  }
}

test("@wide a split rule built with the form keeps every control in view, and saves", async ({ page }, info) => {
  test.setTimeout(120_000);
  const m = await newMerchant("routing-wide");
  await signIn(page, m.owner, { at: "/dashboard/routing" });
  await page.getByRole("button", { name: "Add a rule" }).click();
  const r = rule(page, 1);
  await r.getByLabel("Payment method", { exact: true }).selectOption({ label: "SPEI (test)" });
  await r.getByLabel("Choose providers").selectOption({ label: "Split by share" });
  await r.getByLabel("Provider 1", { exact: true }).selectOption({ label: "Pagosur (simulated)" });
  await r.getByLabel("Share of Pagosur (simulated)").fill("70");
  await r.getByRole("button", { name: "Add a provider" }).click();
  await r.getByLabel("Provider 2", { exact: true }).selectOption({ label: "Andespay (simulated)" });
  await r.getByLabel("Share of Andespay (simulated)").fill("30");
  await controlsInView(page, r);
  await checkPage(page, info, "routing-form-split");
  await page.getByRole("button", { name: "Save as a new version" }).click();
  await expect(page.getByText("Saved as version 1")).toBeVisible();
  await expect(page.getByTestId("routing-rule")).toContainText("Pagosur (simulated) (70), Andespay (simulated) (30)");
  await expect(page.getByTestId("routing-rule")).toContainText("split by share");
});

test("in the sandbox, try the rules being edited: test payments go to the simulated providers the rule names, and why", async ({ page }, info) => {
  test.setTimeout(120_000);
  const m = await newMerchant("routing-try");
  await signIn(page, m.owner, { at: "/dashboard/routing" });
  await expect(page.getByText("Test payments are taken by the test provider; try your rules on the simulated providers below.")).toBeVisible();
  // Not saved: the trial takes the rules as they stand in the form. All of the split to Andespay.
  await page.getByRole("button", { name: "Add a rule" }).click();
  const r = rule(page, 1);
  await r.getByLabel("Name (optional)").fill("Andespay first");
  await r.getByLabel("Payment method", { exact: true }).selectOption({ label: "SPEI (test)" });
  await r.getByLabel("Choose providers").selectOption({ label: "Split by share" });
  await r.getByLabel("Provider 1", { exact: true }).selectOption({ label: "Andespay (simulated)" });
  await r.getByLabel("Share of Andespay (simulated)").fill("1");
  await r.getByRole("button", { name: "Add a provider" }).click();
  await r.getByLabel("Provider 2", { exact: true }).selectOption({ label: "Pagosur (simulated)" });
  await r.getByLabel("Share of Pagosur (simulated)").fill("0");

  const trial = page.getByRole("form", { name: "Try the rules on test payments" });
  await trial.getByLabel("Test payment method").selectOption({ label: "SPEI (test)" });
  await trial.getByLabel("How many (1 to 50)").fill("80");
  await trial.getByRole("button", { name: "Send test payments" }).click();
  await expect(trial.getByLabel("How many (1 to 50)")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Send from 1 to 50 test payments at a time.")).toBeVisible();

  await trial.getByLabel("How many (1 to 50)").fill("6");
  await trial.getByRole("button", { name: "Send test payments" }).click();
  const result = page.getByTestId("routing-trial-result");
  await expect(result).toContainText(/^6 test SPEI \(test\) payments: \d approved/);
  const payments = page.getByTestId("routing-trial-payment");
  await expect(payments).toHaveCount(6);
  for (let i = 0; i < 6; i++) await expect(payments.nth(i)).toContainText(new RegExp(`^Test payment ${i + 1} \\(rule 1, Andespay first\\): Andespay \\(simulated\\) \\(drawn by share\\) (Approved|Declined)`));
  // Andespay approves about 3 in 4: a decline moves on to Pagosur, then to the rail's other providers.
  const declined = payments.filter({ hasText: /^[^;]*Declined/ });
  for (const row of await declined.all()) await expect(row).toContainText("; then Pagosur (simulated) (your rule's order)");
  await expect(page.getByTestId("routing-trial-provider").filter({ hasText: "Andespay" })).toContainText(/^Andespay \(simulated\)6\d+\d+75 %$/);
  // Nothing was created: no test payment in the list.
  await checkPage(page, info, "routing-try");
  await page.getByRole("navigation", { name: "Dashboard", exact: true }).getByRole("link", { name: "Payments", exact: true }).click();
  await expect(page.getByText("No payments yet")).toBeVisible();
});
