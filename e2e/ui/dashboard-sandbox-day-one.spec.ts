// A merchant's first day in the sandbox (issue 24, point 3; issue 41, point 6), on the desktop:
// with payments paid today, "Settle pending funds now" makes them available and a settlement
// batch closes at once, a small one with "Settle now anyway"; the owner registers the shop for QR
// charges and charges; creates a test deposit account and simulates a transfer to it; sends a
// test event to a managed inbox; sees a sandbox payout move the payout balance. Screenshots
// (e2e/screenshots/dashboard-settle-*, -qr-register-*, -deposit-test-*, -webhook-test-event-*,
// -payout-balance-*) and axe-core on each.
import { test, expect } from "@playwright/test";
import { api, checkPage, merchantWithPaidPayments, nav, newMerchant, signIn } from "./dashboard-helpers";

test.describe.configure({ mode: "parallel" });

test("settle pending funds now, then run a settlement the same day", async ({ page }, info) => {
  const m = await merchantWithPaidPayments("settle-now");

  await signIn(page, m.owner);
  await nav(page, "Settlements");
  // Nothing available yet: a batch would be skipped.
  await page.getByRole("button", { name: "Run settlement now" }).click();
  await expect(page.getByText("Nothing to settle: the available balance is under $50.00 USD.")).toBeVisible();
  await page.getByRole("button", { name: "Settle pending funds now" }).click();
  await expect(page.getByText(/^2 payments settled\. Available now: \$[\d,]+\.\d{2} USD\.$/)).toBeVisible();
  await checkPage(page, info, "settle-now");
  await page.getByRole("button", { name: "Run settlement now" }).click();
  await expect(page.getByText(/Closed a settlement of \$[\d,.]+ USD net\./)).toBeVisible();
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

// Issue 41, point 6: the rest tryable on day one, each through the sandbox's own button (each
// refused in production by the gate: e2e/api/gate.test.ts).

test("a balance under 50 USD: the batch waits for the minimum, 'Settle now anyway' closes it in the sandbox", async ({ page }, info) => {
  test.setTimeout(120_000);
  const m = await merchantWithPaidPayments("settle-small", 0);
  const p = await api("/payments", m.sandbox.secretKey, { amount: 20, paymentMethodId: "sbx_card" });
  expect((await api(`/payments/${p.body.transactionId}/simulate`, m.sandbox.secretKey, { action: "paid" })).status).toBe(200);

  await signIn(page, m.owner, { at: "/dashboard/settlements" });
  await page.getByRole("button", { name: "Settle pending funds now" }).click();
  await expect(page.getByText(/^1 payment settled\. Available now: \$\d+\.\d{2} USD\.$/)).toBeVisible();
  await page.getByRole("button", { name: "Run settlement now" }).click();
  await expect(page.getByText("Nothing to settle: the available balance is under $50.00 USD.")).toBeVisible();
  await expect(page.getByTestId("settlement-row")).toHaveCount(0);
  await page.getByRole("button", { name: "Settle now anyway" }).click();
  await expect(page.getByText(/^Batch closed: \$\d+\.\d{2} USD net, after the \$\d+\.\d{2} USD fee\.$/)).toBeVisible();
  await expect(page.getByTestId("settlement-row")).toHaveCount(1);
  await checkPage(page, info, "settle-small");
  const batch = (await api("/settlements", m.sandbox.secretKey)).body.data[0];
  expect(batch.grossUsd).toBeLessThan(50);
  expect(batch.status).toBe("closed");
});

test("a test deposit account from the dashboard, a simulated transfer to it, seen on its page and in the list", async ({ page }, info) => {
  test.setTimeout(120_000);
  const m = await newMerchant("deposit-self");
  await signIn(page, m.owner);
  await nav(page, "Deposit accounts");
  await expect(page.getByText("No deposit accounts yet")).toBeVisible();
  const form = page.getByRole("form", { name: "Create test deposit account" });
  await form.getByLabel("Your id for this customer").fill("tester-mx-1");
  await form.getByLabel("Customer email").fill("");
  await form.getByRole("button", { name: "Create test deposit account" }).click();
  // The API's own check, next to its field.
  await expect(form.getByLabel("Customer email")).toHaveAttribute("aria-invalid", "true");
  await form.getByLabel("Customer email").fill("tester@example.com");
  await form.getByRole("button", { name: "Create test deposit account" }).click();
  const created = page.getByText(/^Created the account with CLABE \d{18}\./);
  await expect(created).toBeVisible();
  const clabe = /\d{18}/.exec((await created.textContent()) ?? "")![0];
  await expect(page.getByTestId("deposit-account-row")).toHaveCount(1);
  await expect(page.getByTestId("deposit-account-row")).toContainText("tester-mx-1");
  await checkPage(page, info, "deposit-test-account");

  await page.getByRole("link", { name: "Open it to simulate a transfer" }).click();
  await expect(page).toHaveURL(/\/dashboard\/deposit-accounts\/\w+/);
  await expect(page.getByText(clabe).first()).toBeVisible();
  const sim = page.getByRole("form", { name: "Simulate a transfer" });
  await sim.getByLabel("Amount (MXN)").fill("250");
  await sim.getByLabel("Payer name").fill("Luis Pérez");
  await sim.getByLabel("Payer bank").fill("BBVA");
  await sim.getByRole("button", { name: "Simulate transfer" }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Deposit of \$250\.00 MXN is credited\./ })).toBeVisible();
  await expect(page.getByTestId("stat-deposits")).toHaveText("1");
  await expect(page.getByTestId("stat-credited")).toHaveText("1");
  await checkPage(page, info, "deposit-test-transfer");
  // The same reference again: the existing account, not a second one.
  await nav(page, "Deposit accounts");
  await form.getByLabel("Your id for this customer").fill("tester-mx-1");
  await form.getByRole("button", { name: "Create test deposit account" }).click();
  await expect(page.getByText(`This customer already has the account with CLABE ${clabe}.`)).toBeVisible();
  await expect(page.getByTestId("deposit-account-row")).toHaveCount(1);
});

test("'Send a test event' delivers a signed test event to the managed inbox, seen in its deliveries; event names are plain words", async ({ page }, info) => {
  test.setTimeout(120_000);
  const m = await newMerchant("test-event");
  const hook = await api("/webhooks", m.sandbox.secretKey, { events: ["payout.failed"] });
  expect(hook.status).toBe(200);
  await signIn(page, m.owner, { at: "/dashboard/webhooks" });
  // The picker: grouped plain names, the API's name in each tooltip; the list says the events in words.
  const payments = page.getByRole("group", { name: "Payments", exact: true });
  await expect(payments.getByRole("checkbox", { name: "Payment received" })).toBeVisible();
  await expect(payments.locator('[data-tech="payment.completed"]')).toHaveText("Payment received");
  await expect(page.getByRole("group", { name: "Payouts", exact: true }).getByRole("checkbox", { name: "Payout failed" })).toBeVisible();
  await expect(page.getByTestId("webhook-row")).toContainText("Payout failed");
  await expect(page.getByText("payout.failed", { exact: true })).toHaveCount(0);
  await checkPage(page, info, "webhooks-event-words");

  await page.goto(`/dashboard/webhooks/${hook.body.id}`);
  await expect(page.getByText("Nothing received yet")).toBeVisible();
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByText("Test event sent: its delivery is in the log below.")).toBeVisible();
  await expect(page.getByTestId("inbox-message").filter({ hasText: "Test event" })).toBeVisible({ timeout: 15_000 });
  const delivery = page.getByTestId("delivery-row").filter({ hasText: "Test event" });
  await expect(delivery).toContainText("Delivered", { timeout: 15_000 });
  await expect(delivery.locator('[data-tech="webhook.test"]')).toBeVisible();
  await checkPage(page, info, "webhook-test-event");
  const log = await api(`/webhooks/${hook.body.id}/deliveries`, m.sandbox.secretKey);
  expect(log.body.data.map((d: { event: string; status: string }) => `${d.event}:${d.status}`)).toEqual(["webhook.test:succeeded"]);
});

test("a sandbox payout moves the shown balance through the ledger: debited when sent, gone when completed", async ({ page }, info) => {
  test.setTimeout(120_000);
  const m = await newMerchant("payout-balance");
  expect((await api("/me/payout/fund-sandbox", m.sandbox.secretKey, { currency: "MXN", amount: 1000 })).status).toBe(200);
  await signIn(page, m.owner, { at: "/dashboard/payouts/send" });
  const mxn = page.locator('[data-testid="payout-balance-row"][data-currency="MXN"]');
  await expect(mxn.getByTestId("balance-available")).toHaveText("$1,000.00 MXN");
  // The sandbox offers the methods that debit the balance (the sbx_po_* test rails never did).
  const offered = await page.getByLabel("Method").locator("option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  expect(offered.filter((v) => v.startsWith("sbx_po_"))).toEqual([]);
  await expect(page.getByLabel("Method")).toHaveValue("po_mx_spei");
  await page.getByLabel("Amount (MXN)").fill("100");
  await page.getByLabel("Beneficiary name").fill("Ana López");
  await page.getByLabel("CLABE").fill("002180001234567896");
  await page.getByLabel("Document number").fill("LOAA800101AB1");
  await page.getByRole("button", { name: "Review payout" }).click();
  await page.getByRole("group", { name: "Review the payout" }).getByRole("button", { name: "Send payout" }).click();
  const sentNote = page.getByRole("status").filter({ hasText: /^Payout of \$100\.00 MXN is processing\./ });
  await expect(sentNote).toBeVisible();
  await expect(mxn.getByTestId("balance-available")).toHaveText("$900.00 MXN");
  await expect(mxn.getByTestId("balance-reserved")).toHaveText("$100.00 MXN");
  await checkPage(page, info, "payout-balance-sent");

  await sentNote.getByRole("link").click();
  await page.getByRole("button", { name: "Simulate completed" }).click();
  await expect(page.getByTestId("payout-status")).toHaveText("Completed");
  await page.goto("/dashboard/payouts");
  await expect(mxn.getByTestId("balance-available")).toHaveText("$900.00 MXN");
  await expect(mxn.getByTestId("balance-reserved")).toHaveText("$0.00 MXN");
  const sent = (await api("/me/payout/send?limit=1", m.sandbox.secretKey)).body.data[0];
  // The API requires SPEI's bank code: the form sent the CLABE's own (002).
  expect([sent.methodId, sent.status, sent.recipient.accountLast4]).toEqual(["po_mx_spei", "completed", "7896"]);
  await checkPage(page, info, "payout-balance-completed");
});
