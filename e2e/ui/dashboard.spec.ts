// The merchant dashboard end to end, in Debian's Chromium (the desktop project): sign in, watch a
// payment made through the API appear, drive it in the sandbox, refund it, run webhooks, check
// roles and accessibility. Every page is screenshotted and scanned with axe-core.
import { test, expect } from "@playwright/test";
import { PASSWORD, api, checkPage, nav, newMerchant, newUser, signIn, signInWithForm } from "./dashboard-helpers";

test.describe.configure({ mode: "parallel" });

test("owner: payment appears, simulate paid, balance and inbox change, refund, webhooks, developers", async ({ page }, info) => {
  test.setTimeout(300_000);
  const m = await newMerchant("flow");
  // The one password-only sign-in through the page's form that succeeds (the others post the same
  // credentials to Auth.js over HTTP: signIn).
  await signInWithForm(page, m.owner);

  // Sandbox is the default and is marked on every page.
  await expect(page.getByTestId("sandbox-banner")).toBeVisible();
  await expect(page.getByRole("switch", { name: "Sandbox mode" })).toHaveAttribute("aria-checked", "true");
  await expect(page.getByText("No payments yet")).toBeVisible();
  await checkPage(page, info, "overview-empty");

  // A managed-inbox subscription for every event; its secret is shown once.
  await nav(page, "Webhooks");
  await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
  await page.getByRole("button", { name: "Add subscription" }).click();
  const secret = page.getByTestId("revealed-secret");
  await expect(secret).toHaveText(/^whsec_/);
  const firstSecret = await secret.textContent();
  // Locked while the secret is on screen: a second click can neither add a subscription nor replace the secret.
  await expect(page.getByRole("button", { name: "Add subscription" })).toBeDisabled();
  await checkPage(page, info, "webhooks");
  await page.getByRole("button", { name: "I have stored it" }).click();
  await expect(secret).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("webhook-row")).toHaveCount(1);
  await expect(page.getByText(firstSecret!)).toHaveCount(0);
  const inboxHref = await page.getByTestId("webhook-row").getByRole("link").getAttribute("href");

  // A payment created through the API appears in the open list.
  await nav(page, "Payments");
  await expect(page.getByRole("heading", { level: 1, name: "Payments" })).toBeVisible();
  const orderId = `order-${Date.now()}`;
  const created = await api("/payments", m.sandbox.secretKey, { amount: 25, paymentMethodId: "sbx_card", merchantOrderId: orderId });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const txId: string = created.body.transactionId;
  const row = page.locator(`[data-payment-id="${txId}"]`);
  await expect(row).toBeVisible();
  await expect(row).toContainText("$25.00 USD");
  await checkPage(page, info, "payments");

  // Search by the order id (the search box; dashboard-payments-search.spec.ts covers the rest).
  await page.getByRole("searchbox", { name: "Search" }).fill(orderId);
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(new RegExp(`q=${orderId}`));
  await expect(page.getByTestId("payment-row")).toHaveCount(1);

  // The detail page: simulate paid and watch the status change.
  await row.getByRole("link").click();
  await expect(page.getByTestId("payment-status")).toHaveText("Pending");
  await expect(page.getByRole("heading", { name: "Providers tried" })).toBeVisible();
  await page.getByRole("button", { name: "Simulate paid" }).click();
  await expect(page.getByTestId("payment-status")).toHaveText("Completed");
  await expect(page.getByTestId("timeline-event").filter({ hasText: /^Paid / }).first()).toBeVisible();
  await checkPage(page, info, "payment-detail");

  // Refund: reviewed first; too much is refused next to the amount before any confirmation, then a partial refund goes through.
  const refundReview = page.getByRole("group", { name: "Review: Refund" });
  await page.getByLabel(/^Amount \(/).fill("100000");
  await page.getByRole("button", { name: "Review refund" }).click();
  await expect(page.getByText(/^Only .* can still be refunded/)).toBeVisible();
  await expect(refundReview).toHaveCount(0);
  await expect(page.getByLabel(/^Amount \(/)).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel(/^Amount \(/).fill("5");
  await page.getByRole("button", { name: "Review refund" }).click();
  await refundReview.getByRole("button", { name: "Refund now" }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Refund of \$5\.00 USD/ })).toBeVisible();
  // The sandbox confirms the refund on its own; the claim shows its history.
  await expect(page.getByTestId("payment-claim")).toContainText("Refunded", { timeout: 15_000 });

  // The balance moved: pending holds the net of the payment.
  await nav(page, "Overview");
  const pending = page.getByRole("definition").filter({ hasText: /USD/ }).nth(1);
  await expect(pending).not.toHaveText("$0.00 USD");
  await expect(page.locator(`a[href="/dashboard/payments/${txId}"]`)).toBeVisible();
  await checkPage(page, info, "overview");
  // The sidebar's column (background and border) reaches the bottom of the page, however long.
  const edges = await page.evaluate(() => ({ side: document.querySelector('[data-testid="sidebar"]')!.getBoundingClientRect().bottom, main: document.querySelector("main")!.getBoundingClientRect().bottom }));
  expect(Math.abs(edges.side - edges.main)).toBeLessThan(2);

  // Claims page lists the refund with its status history.
  await nav(page, "Refunds and chargebacks");
  await expect(page.getByTestId("claim-row")).toHaveCount(1);
  await expect(page.getByTestId("claim-row")).toContainText("Refunded");
  await checkPage(page, info, "claims");

  // The managed inbox received the payment's events, newest first.
  await page.goto(inboxHref!);
  await expect(page.getByTestId("inbox-message").filter({ hasText: "Payment received" })).toBeVisible();
  await expect(page.getByTestId("inbox-message").first()).toContainText(/Payment refunded|Refund or chargeback decided/);
  await checkPage(page, info, "webhook-detail");

  // Rotate: a new secret, shown once.
  await page.getByRole("button", { name: "Rotate secret" }).click();
  await expect(page.getByTestId("revealed-secret")).toHaveText(/^whsec_/);
  expect(await page.getByTestId("revealed-secret").textContent()).not.toBe(firstSecret);
  await page.getByRole("button", { name: "I have stored it" }).click();

  // Replay a delivery: its attempt count goes up.
  const delivery = page.getByTestId("delivery-row").filter({ hasText: "Payment received" });
  await expect(delivery).toContainText("1 attempt");
  await delivery.locator("summary").click();
  await delivery.getByRole("button", { name: "Replay" }).click();
  await expect(page.getByRole("status").filter({ hasText: "queued for a new attempt" })).toBeVisible();
  await expect(delivery).toContainText("2 attempts");

  // Edit events, disable.
  await page.getByRole("checkbox", { name: "All events" }).uncheck();
  await page.getByRole("checkbox", { name: "Payment received" }).check();
  await page.getByRole("button", { name: "Save events" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
  await page.getByRole("button", { name: "Disable" }).click();
  await expect(page.getByRole("button", { name: "Enable" })).toBeVisible();
  // Delete (after a confirmation): the list is empty again.
  page.once("dialog", (d) => d.accept());
  await page.getByRole("button", { name: "Delete" }).click();
  await expect(page).toHaveURL(/\/dashboard\/webhooks$/);
  await expect(page.getByText("No subscriptions")).toBeVisible();

  // Developers: keys and the recent API requests with their request ids.
  await nav(page, "Developers");
  await expect(page.getByText(m.sandbox.publishableKey)).toBeVisible();
  // A logged request opens to its request id and the answer it got.
  await page.getByTestId("request-row").filter({ hasText: "POST /api/v1/payments" }).first().getByRole("button", { name: "POST /api/v1/payments" }).click();
  const opened = page.getByRole("region", { name: "Request details" });
  await expect(opened).toContainText(/req_\w+/);
  await expect(opened.getByLabel("Answer")).toContainText('"transactionId"');
  await checkPage(page, info, "developers");
  await opened.getByRole("button", { name: "Close" }).click();
  await expect(opened).toHaveCount(0);
  await page.getByRole("link", { name: "API reference" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();
  await expect(page.getByText("/payments/{id}/refund").first()).toBeVisible();
  await checkPage(page, info, "api-reference");

  // Production: a different world, no sandbox marking, no simulate buttons.
  await page.getByRole("switch", { name: "Sandbox mode" }).click();
  await expect(page.getByRole("switch", { name: "Sandbox mode" })).toHaveAttribute("aria-checked", "false");
  await expect(page.getByTestId("sandbox-banner")).toHaveCount(0);
  await page.goto(`/dashboard/payments/${txId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Not found" })).toBeVisible();
  await page.goto("/dashboard");
  await checkPage(page, info, "overview-production");
  await page.getByRole("switch", { name: "Sandbox mode" }).click();
  await expect(page.getByTestId("sandbox-banner")).toBeVisible();

  // Roll the sandbox secret key: shown once, and the old key stops working.
  await page.goto("/dashboard/developers");
  page.once("dialog", (d) => d.accept());
  await page.getByRole("button", { name: "Roll secret key" }).click();
  await expect(page.getByTestId("revealed-secret")).toHaveText(/^sk_test_/);
  const newKey = (await page.getByTestId("revealed-secret").textContent())!;
  expect((await api("/me", m.sandbox.secretKey)).status).toBe(401);
  expect((await api("/me", newKey)).status).toBe(200);

  // Sign out.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/dashboard\/sign-in$/);
  await page.goto("/dashboard/payments");
  await expect(page).toHaveURL(/\/dashboard\/sign-in$/);
});

test("sign-in: a wrong password is refused with one message; repeated failures are throttled", async ({ page }, info) => {
  const m = await newMerchant("signin");
  await page.goto("/dashboard/sign-in");
  await checkPage(page, info, "sign-in");
  for (let i = 0; i < 5; i++) {
    await page.getByLabel("Email").fill(m.owner);
    await page.getByLabel("Password").fill(`wrong password ${i}`);
    await page.getByRole("button", { name: "Sign in" }).click();
    // The form resets (password emptied) once the attempt has been answered.
    await expect(page.getByLabel("Password")).toHaveValue("");
    await expect(page.getByRole("alert").filter({ hasText: "Incorrect email or password." })).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveValue(m.owner);
  }
  await page.getByLabel("Email").fill(m.owner);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Too many failed attempts" })).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/sign-in$/);
});

test("a viewer sees no refund, simulate, rotate or roll button and no secret", async ({ page }, info) => {
  // Three pages, an axe scan and a full-page screenshot of the longest one: over 60 s on a loaded CI machine.
  test.setTimeout(120_000);
  const m = await newMerchant("viewer");
  const viewer = await newUser(m.merchantId, "viewer");
  const created = await api("/payments", m.sandbox.secretKey, { amount: 12, paymentMethodId: "sbx_card" });
  const txId = created.body.transactionId as string;
  await api(`/payments/${txId}/simulate`, m.sandbox.secretKey, { action: "paid" });
  const hook = await api("/webhooks", m.sandbox.secretKey, { events: ["*"] });
  await signIn(page, viewer, { at: `/dashboard/payments/${txId}` });
  await expect(page.getByTestId("payment-status")).toHaveText("Completed");
  await expect(page.getByRole("button", { name: /Refund|Simulate/ })).toHaveCount(0);
  await checkPage(page, info, "payment-detail-viewer");

  await page.goto("/dashboard/webhooks");
  await expect(page.getByRole("button", { name: "Add subscription" })).toHaveCount(0);
  await page.goto(`/dashboard/webhooks/${hook.body.id}`);
  await expect(page.getByRole("button", { name: /Rotate secret|Delete|Disable|Replay|Send test event/ })).toHaveCount(0);
  await expect(page.getByText(/whsec_/)).toHaveCount(0);

  await page.goto("/dashboard/developers");
  await expect(page.getByRole("button", { name: "Roll secret key" })).toHaveCount(0);
  await expect(page.getByText(m.sandbox.secretKey)).toHaveCount(0);
});

test("a merchant never sees another merchant's data", async ({ browser }) => {
  // Two merchants through the CLI, then some twenty page loads: over the 30 s default on a busy machine.
  test.setTimeout(120_000);
  const a = await newMerchant("iso-a");
  const b = await newMerchant("iso-b");
  const payA = (await api("/payments", a.sandbox.secretKey, { amount: 11, paymentMethodId: "sbx_card", merchantOrderId: "a-secret-order" })).body.transactionId as string;
  const payB = (await api("/payments", b.sandbox.secretKey, { amount: 22, paymentMethodId: "sbx_card", merchantOrderId: "b-secret-order" })).body.transactionId as string;
  const hookA = (await api("/webhooks", a.sandbox.secretKey, { events: ["*"] })).body.id as string;
  const hookB = (await api("/webhooks", b.sandbox.secretKey, { events: ["*"] })).body.id as string;
  const account = async (key: string, ref: string) => (await api("/me/deposit-accounts", key, { endUserRef: ref, name: "Holder", email: "holder@example.test" })).body.account.id as string;
  const payout = async (key: string) =>
    (await api("/me/payout/send", key, { methodId: "sbx_po_mx_spei", amount: 10, recipient: { name: "Ana", account: "002180001234567896", bankCode: "002", documentId: "LOAA800101AB1" } })).body.payout.id as string;
  const [acctA, acctB, poA, poB] = await Promise.all([account(a.sandbox.secretKey, "a-secret-user"), account(b.sandbox.secretKey, "b-secret-user"), payout(a.sandbox.secretKey), payout(b.sandbox.secretKey)]);

  const pageA = await (await browser.newContext()).newPage();
  const pageB = await (await browser.newContext()).newPage();
  await signIn(pageA, a.owner);
  await signIn(pageB, b.owner);
  for (const [page, own, other, ownHook, otherHook, otherOrder, ownAcct, otherAcct, otherRef, ownPo, otherPo] of [
    [pageA, payA, payB, hookA, hookB, "b-secret-order", acctA, acctB, "b-secret-user", poA, poB],
    [pageB, payB, payA, hookB, hookA, "a-secret-order", acctB, acctA, "a-secret-user", poB, poA],
  ] as const) {
    await page.goto(`/dashboard/payments/${own}`);
    await expect(page.getByTestId("payment-status")).toBeVisible();
    const res = await page.goto(`/dashboard/payments/${other}`);
    expect(res?.status()).toBe(404);
    expect((await page.goto(`/dashboard/webhooks/${otherHook}`))?.status()).toBe(404);
    expect((await page.goto(`/dashboard/webhooks/${ownHook}`))?.status()).toBe(200);
    await page.goto(`/dashboard/payments?merchantOrderId=${otherOrder}`);
    await expect(page.getByText("No payments match these filters")).toBeVisible();
    // The data routes answer the same 404s as the API.
    for (const url of [`/dashboard/api/payment?id=${other}`, `/dashboard/api/inbox?id=${otherHook}`, `/dashboard/api/deliveries?id=${otherHook}`]) {
      const r = await page.request.get(url);
      expect(r.status(), url).toBe(404);
    }
    const list = await (await page.request.get("/dashboard/api/payments")).json();
    expect(list.data.map((p: { id: string }) => p.id)).toEqual([own]);

    // Deposit accounts and payouts: pages, searches and data routes.
    expect((await page.goto(`/dashboard/deposit-accounts/${ownAcct}`))?.status()).toBe(200);
    expect((await page.goto(`/dashboard/deposit-accounts/${otherAcct}`))?.status()).toBe(404);
    expect((await page.goto(`/dashboard/payouts/${ownPo}`))?.status()).toBe(200);
    expect((await page.goto(`/dashboard/payouts/${otherPo}`))?.status()).toBe(404);
    await page.goto(`/dashboard/deposit-accounts?endUserRef=${otherRef}`);
    await expect(page.getByText(`No deposit account for ${otherRef}`)).toBeVisible();
    for (const url of [`/dashboard/api/deposit-account?id=${otherAcct}`, `/dashboard/api/deposits?id=${otherAcct}`, `/dashboard/api/payout?id=${otherPo}`]) {
      const r = await page.request.get(url);
      expect(r.status(), url).toBe(404);
    }
    const accounts = await (await page.request.get("/dashboard/api/deposit-accounts")).json();
    expect(accounts.accounts.map((x: { id: string }) => x.id)).toEqual([ownAcct]);
    const payouts = await (await page.request.get("/dashboard/api/payouts")).json();
    expect(payouts.data.map((x: { id: string }) => x.id)).toEqual([ownPo]);
  }
});
