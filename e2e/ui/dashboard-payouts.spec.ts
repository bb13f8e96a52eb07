// The dashboard's Deposit accounts and Payouts pages end to end, in Debian's Chromium (the
// desktop project): find a deposit account, simulate a SPEI transfer to its CLABE, fund the sandbox
// payout balance, transfer and swap, send a SPEI payout with live recipient checks and simulate
// it completed; a viewer sees none of the buttons that move money. Every page is screenshotted
// and scanned with axe-core (checkPage).
import { test, expect } from "@playwright/test";
import { api, checkPage, nav, newMerchant, newUser, signIn } from "./dashboard-helpers";

test.describe.configure({ mode: "parallel" });

// 18 digits with a valid check digit (weights 3, 7, 1), and the same with a wrong one.
const VALID_CLABE = "002180001234567896";
const BAD_CLABE = "002180001234567890";
const SPEI_RECIPIENT = { name: "Ana López", account: VALID_CLABE, bankCode: "002", documentType: "RFC", documentId: "LOAA800101AB1" };

test("owner: deposit account search, CLABE, simulated transfer; payout balance, fund, transfer, swap, send SPEI, simulate completed", async ({ page }, info) => {
  test.setTimeout(240_000);
  const m = await newMerchant("payouts");
  const endUserRef = `user-${Date.now().toString(36)}`;
  const created = await api("/me/deposit-accounts", m.sandbox.secretKey, { endUserRef, name: "María Pérez", email: "maria@example.test" });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const account = created.body.account as { id: string; clabe: string };
  await api("/me/deposit-accounts", m.sandbox.secretKey, { endUserRef: `${endUserRef}-other`, name: "Otro", email: "otro@example.test" });
  await signIn(page, m.owner);

  // Deposit accounts: the list, then a search by endUserRef.
  await nav(page, "Deposit accounts");
  await expect(page.getByTestId("deposit-account-row")).toHaveCount(2);
  await checkPage(page, info, "deposit-accounts");
  await page.getByLabel("Customer reference").fill(endUserRef);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`endUserRef=${endUserRef}`));
  await expect(page.getByTestId("deposit-account-row")).toHaveCount(1);
  await expect(page.getByTestId("deposit-account-row")).toContainText(account.clabe);
  await page.getByLabel("Customer reference").fill("nobody-has-this-ref");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByText("No deposit account for nobody-has-this-ref")).toBeVisible();
  await page.goBack();

  // Detail: the CLABE with its copy button, no deposits yet.
  await page.getByTestId("deposit-account-row").getByRole("link", { name: endUserRef }).click();
  await expect(page.getByTestId("clabe")).toHaveText(account.clabe);
  await expect(page.getByRole("button", { name: "Copy CLABE" })).toBeVisible();
  await expect(page.getByText("No deposits yet")).toBeVisible();

  // Simulate a transfer: the API's error shows next to the amount, then one is credited.
  await page.getByLabel("Amount (MXN)").fill("0");
  await page.getByLabel("Payer name").fill("Juan Gómez");
  await page.getByLabel("Payer bank").fill("BBVA");
  await page.getByRole("button", { name: "Simulate transfer" }).click();
  await expect(page.getByLabel("Amount (MXN)")).toHaveAttribute("aria-invalid", "true");
  // In plain words (no backticks), focused, and gone as soon as the amount is edited.
  await expect(page.getByText(/^Amount must be a positive number of MXN/)).toBeVisible();
  await expect(page.getByLabel("Amount (MXN)")).toBeFocused();
  await page.getByLabel("Amount (MXN)").fill("250");
  await expect(page.getByText(/^Amount must be a positive number of MXN/)).toHaveCount(0);
  await page.getByRole("button", { name: "Simulate transfer" }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Deposit of \$250\.00 MXN is credited\./ })).toBeVisible();
  await expect(page.getByTestId("deposit-row")).toHaveCount(1);
  await expect(page.getByTestId("deposit-row")).toContainText("$250.00 MXN");
  await expect(page.getByTestId("stat-credited")).toHaveText("1");
  await checkPage(page, info, "deposit-account-detail");
  // The deposit's pay-in is a payment of its own.
  await expect(page.getByTestId("deposit-row").getByRole("link")).toHaveAttribute("href", /\/dashboard\/payments\/tx_/);

  // Payouts: empty at first.
  await nav(page, "Payouts");
  await expect(page.getByText("No payouts yet")).toBeVisible();
  await checkPage(page, info, "payouts-empty");

  // Payouts is split in tabs (list, add funds, send), as Stripe splits its balance pages.
  const tabs = page.getByRole("navigation", { name: "Payouts sections" });
  await expect(tabs.getByRole("link", { name: "Payouts" })).toHaveAttribute("aria-current", "page");
  await tabs.getByRole("link", { name: "Add funds" }).click();
  await expect(page).toHaveURL(/\/dashboard\/payouts\/funding$/);
  await expect(tabs.getByRole("link", { name: "Add funds" })).toHaveAttribute("aria-current", "page");

  // Fund the sandbox payout balance in MXN and in USD; the form empties after each success.
  await page.getByLabel("Currency", { exact: true }).selectOption("MXN");
  await page.getByLabel("Amount to fund").fill("1000");
  await page.getByRole("button", { name: "Fund balance" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Funded $1,000.00 MXN." })).toBeVisible();
  await expect(page.getByLabel("Amount to fund")).toHaveValue("");
  const mxn = page.locator('[data-testid="payout-balance-row"][data-currency="MXN"]');
  await expect(mxn.getByTestId("balance-available")).toHaveText("$1,000.00 MXN");
  await page.getByLabel("Currency", { exact: true }).selectOption("USD");
  await page.getByLabel("Amount to fund").fill("50");
  await page.getByRole("button", { name: "Fund balance" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Funded $50.00 USD." })).toBeVisible();

  // Transfer from pay-in: more than is available is refused, next to the amount.
  await page.getByLabel("Amount (USD)", { exact: true }).fill("1000000");
  await page.getByRole("button", { name: "Transfer", exact: true }).click();
  await expect(page.getByLabel("Amount (USD)", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText(/pay-in available balance .* cannot cover/)).toBeVisible();

  // Swap at a live quote, with its expiry shown.
  await page.getByLabel("To currency").selectOption("MXN");
  await page.getByLabel("Amount to swap (USD)").fill("10");
  await expect(page.getByTestId("swap-quote")).toContainText("$10.00 USD");
  await expect(page.getByTestId("quote-expiry")).toHaveText(/expires in \d+ s/);
  await page.getByRole("button", { name: "Swap now" }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Swapped \$10\.00 USD into \$[\d,.]+ MXN\./ })).toBeVisible();
  await expect(mxn.getByTestId("balance-available")).not.toHaveText("$1,000.00 MXN");

  // Send a SPEI payout: the CLABE is checked as it is typed, with the API's rule.
  await checkPage(page, info, "payouts-funding");
  await tabs.getByRole("link", { name: "Send a payout" }).click();
  await expect(page).toHaveURL(/\/dashboard\/payouts\/send$/);
  await page.getByLabel("Method").selectOption("po_mx_spei");
  await page.getByLabel("Amount (MXN)").fill("100");
  await page.getByLabel("Beneficiary name").fill(SPEI_RECIPIENT.name);
  await page.getByLabel("CLABE").fill(BAD_CLABE);
  await expect(page.getByText("Must be an 18-digit CLABE with a valid check digit")).toBeVisible();
  await expect(page.getByLabel("CLABE")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("CLABE").fill(VALID_CLABE);
  await expect(page.getByText("Must be an 18-digit CLABE with a valid check digit")).toHaveCount(0);
  // No bank code to type: the CLABE's first three digits are its bank's (issue 41, point 8).
  await expect(page.getByLabel("Bank code")).toHaveCount(0);
  await page.getByLabel("Document type").selectOption("RFC");
  await page.getByLabel("Document number").fill(SPEI_RECIPIENT.documentId);
  // A second look before money leaves: the review names amount, beneficiary and CLABE; Back keeps
  // every value; nothing is sent until Send payout in the review.
  await page.getByRole("button", { name: "Review payout" }).click();
  const review = page.getByRole("group", { name: "Review the payout" });
  await expect(review).toContainText("$100.00 MXN");
  await expect(review).toContainText(SPEI_RECIPIENT.name);
  await expect(review).toContainText(VALID_CLABE);
  await checkPage(page, info, "payout-review");
  await review.getByRole("button", { name: "Back" }).click();
  await expect(page.getByLabel("CLABE")).toHaveValue(VALID_CLABE);
  await expect(mxn.getByTestId("balance-reserved")).toHaveText("$0.00 MXN");
  await page.getByRole("button", { name: "Review payout" }).click();
  await review.getByRole("button", { name: "Send payout" }).dblclick();
  const sent = page.getByRole("status").filter({ hasText: /^Payout of \$100\.00 MXN is processing\./ });
  await expect(sent).toBeVisible();
  await expect(mxn.getByTestId("balance-reserved")).toHaveText("$100.00 MXN"); // held by one processing payout, the double click sent once
  await expect(page.getByLabel("CLABE")).toHaveValue("");
  await checkPage(page, info, "payouts-send");
  await tabs.getByRole("link", { name: "Payouts" }).click();
  await expect(page.getByTestId("payout-row")).toHaveCount(1);
  await checkPage(page, info, "payouts");

  // Its detail page (a click on the row, outside the link, opens it): simulate completed.
  await page.getByTestId("payout-row").getByRole("cell").nth(3).click();
  await expect(page).toHaveURL(/\/dashboard\/payouts\/po_/);
  await expect(page.getByTestId("payout-status")).toHaveText("Processing");
  await checkPage(page, info, "payout-detail");
  await page.getByRole("button", { name: "Simulate completed" }).click();
  await expect(page.getByTestId("payout-status")).toHaveText("Completed");
  // A completed SPEI payout names its tracking key (clave de rastreo), to quote to the beneficiary.
  await expect(page.getByText("Tracking key (clave de rastreo)")).toBeVisible();
  await expect(page.getByTestId("payout-tracking-key")).toContainText(/\S{6,}/);
  await expect(page.getByRole("button", { name: "Simulate failed" })).toBeDisabled();
  await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Payouts" }).click();
  await expect(mxn.getByTestId("balance-reserved")).toHaveText("$0.00 MXN");
  await expect(page.getByTestId("payout-row")).toContainText("Completed");
  await page.getByLabel("Status").selectOption("failed");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByText("No failed payouts")).toBeVisible();
});

test("a viewer sees balances, payouts and deposits but no send, fund, transfer, swap or simulate button", async ({ page }, info) => {
  test.setTimeout(120_000);
  const m = await newMerchant("payouts-viewer");
  const viewer = await newUser(m.merchantId, "viewer");
  const acct = (await api("/me/deposit-accounts", m.sandbox.secretKey, { endUserRef: "viewer-user", name: "Vera", email: "vera@example.test" })).body.account as { id: string };
  const sent = await api("/me/payout/send", m.sandbox.secretKey, { methodId: "sbx_po_mx_spei", amount: 10, recipient: SPEI_RECIPIENT });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  await signIn(page, viewer);

  await nav(page, "Payouts");
  await expect(page.getByTestId("payout-row")).toHaveCount(1);
  await expect(page.getByRole("button", { name: /Send payout|Review payout|Fund balance|Transfer|Get quote|Swap now/ })).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Payouts sections" }).getByRole("link")).toHaveCount(1);
  await page.goto("/dashboard/payouts/send");
  await expect(page).toHaveURL(/\/dashboard\/payouts$/);
  await checkPage(page, info, "payouts-viewer");

  await page.goto(`/dashboard/payouts/${sent.body.payout.id}`);
  await expect(page.getByTestId("payout-status")).toHaveText("Processing");
  await expect(page.getByRole("button", { name: /Simulate/ })).toHaveCount(0);

  await page.goto(`/dashboard/deposit-accounts/${acct.id}`);
  await expect(page.getByTestId("clabe")).toBeVisible();
  await expect(page.getByRole("button", { name: "Simulate transfer" })).toHaveCount(0);
  await checkPage(page, info, "deposit-account-detail-viewer");
});
