// Plain words (issue 41, point 8) at the laptop (1366 × 768) and the tablet (820 × 1180): methods
// named "Boleto — test" (the catalogue id in the tooltip), countries by name, the claim page
// leading with what the claim is, claim reasons, decline codes, file types and security events in
// words, and every record's id (payment, event, claim, payout, withdrawal, settlement, quote,
// deposit account) out of titles, breadcrumbs and messages: in its "Id" detail, which opens onto
// the id and a Copy id button. Amounts in messages and reviews in the one money format. Each page
// is screenshotted and scanned with axe-core (checkPage), the Id details open.
import { test, expect, type Locator, type Page } from "@playwright/test";
import { api, checkPage, merchantWithPaidPayments, nav, newMerchant, signIn } from "./dashboard-helpers";

test.describe.configure({ mode: "parallel" });
test.beforeEach(async ({ page }, info) => {
  if (info.project.name === "desktop") await page.setViewportSize({ width: 1366, height: 768 });
});

const CPF = "52998224725";
// A 1 × 1 PNG: the server reads a file's type from its first bytes.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

/** The head of a detail page: its title and what is under it. */
const headerOf = (page: Page) => page.getByRole("heading", { level: 1 }).locator("xpath=..");

/** The record's id is not in the page's title or breadcrumb. */
async function expectIdNotInLabels(page: Page, id: string | RegExp) {
  for (const label of [page.getByRole("heading", { level: 1 }), page.getByRole("navigation", { name: "Breadcrumb" })]) {
    if (typeof id === "string") await expect(label).not.toContainText(id);
    else await expect(label).not.toHaveText(id);
  }
}

/** The Id detail in `scope`: closed, the id out of sight; opened, the id and its Copy id button. Answers the id. */
async function openIdDetail(scope: Locator, id: string | RegExp, label = "Id"): Promise<string> {
  const detail = scope.getByTestId("id-detail").filter({ has: scope.page().locator("summary", { hasText: new RegExp(`^${label}$`) }) }).first();
  const code = detail.locator("code");
  await expect(code).toBeHidden();
  await detail.locator("summary").click();
  await expect(code).toBeVisible();
  await expect(code).toHaveText(id);
  await expect(detail.getByRole("button", { name: "Copy id" })).toBeVisible();
  return (await code.textContent())!;
}

test("a payment, its refund and its chargeback: method and country in words, the claim page leads with what the claim is, reasons and file types in words, ids in the Id detail", { tag: "@wide" }, async ({ page, context }, info) => {
  test.setTimeout(180_000);
  const m = await newMerchant("plain-claims", { timeZone: "America/Sao_Paulo" });
  const key = m.sandbox.secretKey;
  const boleto = await api("/payments", key, { amount: 100, currency: "BRL", paymentMethodId: "sbx_boleto", userName: "Ana Souza", userEmail: "ana@example.com", documentId: CPF });
  expect(boleto.status, JSON.stringify(boleto.body)).toBe(200);
  const paymentId = boleto.body.transactionId as string;
  expect((await api(`/payments/${paymentId}/simulate`, key, { action: "paid" })).status).toBe(200);
  const refund = await api(`/payments/${paymentId}/refund`, key, { amount: 30, reason: "requested_by_customer" });
  expect(refund.status, JSON.stringify(refund.body)).toBeLessThan(300);
  const card = await api("/payments", key, { amount: 40, paymentMethodId: "sbx_card" });
  expect((await api(`/payments/${card.body.transactionId}/simulate`, key, { action: "paid" })).status).toBe(200);
  expect((await api(`/payments/${card.body.transactionId}/simulate`, key, { action: "chargeback" })).status).toBe(200);

  // The payment: "Boleto — test" (sbx_boleto in the tooltip), Brazil, its id and its events' ids to copy.
  await signIn(page, m.owner, { at: `/dashboard/payments/${paymentId}` });
  const method = page.locator("dt").filter({ hasText: /^Method$/ }).locator("xpath=following-sibling::dd");
  await expect(method).toHaveText("Boleto — test");
  await expect(method.locator('[data-tech="sbx_boleto"]')).toHaveAttribute("title", "sbx_boleto");
  await expect(page.locator("dt").filter({ hasText: /^Country$/ }).locator("xpath=following-sibling::dd")).toHaveText("Brazil");
  await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toHaveText(/^Payments \/ Payment of R\$\s100,00$/);
  await expectIdNotInLabels(page, paymentId);
  await expect(page.locator("main")).not.toContainText("(sbx_");
  await expect(page.locator("main")).not.toContainText("(test)");
  // The id copies: what lands on the clipboard is the payment's id.
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const header = headerOf(page);
  expect(await openIdDetail(header, paymentId)).toBe(paymentId);
  await header.getByRole("button", { name: "Copy id" }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()), { timeout: 5_000 }).toBe(paymentId);
  // Each timeline line names what happened; the event's id is in its own detail, not beside the time.
  const timeline = page.getByRole("list", { name: "Events, oldest first" });
  await expect(timeline.getByTestId("timeline-event").first()).toBeVisible();
  for (const line of await timeline.locator("p").allInnerTexts()) expect(line, "a timeline line without an event id").not.toMatch(/evt_/);
  await openIdDetail(timeline.locator("li").first(), /^evt_/, "Event id");
  await checkPage(page, info, "plain-words-payment");

  // The list of claims: reasons in the dashboard's words (a column from lg), the API's in the tooltip.
  await page.goto("/dashboard/claims");
  const refundRow = page.getByTestId("claim-row").filter({ has: page.getByRole("link", { name: "Refund", exact: true }) });
  const reason = refundRow.locator('[data-col="reason"]');
  if (info.project.name === "desktop") {
    await expect(reason).toHaveText("Asked for by the buyer");
    await expect(reason.locator("[title]")).toHaveAttribute("title", "requested_by_customer");
  } else {
    await expect(reason).toBeHidden();
  }
  await expect(page.locator("main table")).not.toContainText("requested_by_customer");
  await checkPage(page, info, "plain-words-claims");

  // The refund's page leads with what it is, and so does the breadcrumb; the CLM-… id only in the Id detail.
  await refundRow.getByRole("link", { name: "Refund", exact: true }).click();
  await expect(page.getByTestId("claim-title")).toHaveText(/^Refund on R\$\s30,00 — Asked for by the buyer$/);
  await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toHaveText(/^Refunds and chargebacks \/ Refund on R\$\s30,00 — Asked for by the buyer$/);
  await expectIdNotInLabels(page, /CLM-/);
  await expect(page.locator("dt").filter({ hasText: /^Reason$/ }).locator("xpath=following-sibling::dd")).toHaveText("Asked for by the buyer");
  await expect(page.getByRole("link", { name: "View the payment" })).toHaveAttribute("title", paymentId);
  await openIdDetail(headerOf(page), /^CLM-/);
  await checkPage(page, info, "plain-words-refund");

  // The chargeback: no reason from the bank, so the title names none; its evidence file is a "PNG image".
  await page.goto("/dashboard/claims");
  await page.getByTestId("claim-row").getByRole("link", { name: "Chargeback", exact: true }).click();
  await expect(page.getByTestId("claim-title")).toHaveText(/^Chargeback on \$40\.00 USD$/);
  await expectIdNotInLabels(page, /CLM-/);
  const cbReason = page.locator("dt").filter({ hasText: /^Reason$/ }).locator("xpath=following-sibling::dd");
  await expect(cbReason).toHaveText("Not given by the bank");
  await expect(cbReason.locator('[data-tech="chargeback"]')).toBeVisible();
  const form = page.getByRole("form", { name: "Send evidence" });
  await form.getByLabel("Files").setInputFiles({ name: "receipt.png", mimeType: "image/png", buffer: PNG });
  await form.getByRole("button", { name: "Send evidence" }).click();
  const evidence = page.getByRole("list", { name: "Evidence sent" });
  await expect(evidence.getByRole("link", { name: "receipt.png" })).toBeVisible({ timeout: 20_000 });
  await expect(evidence).toContainText("PNG image");
  await expect(evidence.locator('[data-tech="image/png"]')).toHaveText("PNG image");
  expect(await evidence.innerText()).not.toContain("image/png");
  await checkPage(page, info, "plain-words-chargeback");
});

test("money out: payout method and country in words, reviews and messages in the one money format, no ids in sentences, each id in its Id detail", { tag: "@wide" }, async ({ page }, info) => {
  test.setTimeout(180_000);
  const m = await merchantWithPaidPayments("plain-money");
  const key = m.sandbox.secretKey;
  const sent = await api("/me/payout/send", key, { methodId: "sbx_po_mx_spei", amount: 10, recipient: { name: "Ana López", account: "002180001234567896", bankCode: "002", documentId: "LOAA800101AB1" } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const payoutId = sent.body.payout.id as string;

  // The payout's page: SPEI — test, Mexico; the breadcrumb names it by its amount.
  await signIn(page, m.owner, { at: `/dashboard/payouts/${payoutId}` });
  const method = page.locator("dt").filter({ hasText: /^Method$/ }).locator("xpath=following-sibling::dd");
  await expect(method).toHaveText("SPEI — test");
  await expect(method.locator('[data-tech="sbx_po_mx_spei"]')).toBeVisible();
  await expect(page.locator("dt").filter({ hasText: /^Country$/ }).locator("xpath=following-sibling::dd")).toHaveText("Mexico");
  await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toHaveText(/^Payouts \/ Payout of \$10\.00 MXN$/);
  await expectIdNotInLabels(page, payoutId);
  expect(await openIdDetail(headerOf(page), payoutId)).toBe(payoutId);
  await checkPage(page, info, "plain-words-payout");

  // The send form's methods: plain names and countries, the id in the option's tooltip (in the
  // sandbox it offers the methods that debit the balance, not the sbx_po_* test rails).
  await page.goto("/dashboard/payouts/send");
  const option = page.getByLabel("Method").locator('option[value="po_mx_spei"]');
  await expect(option).toHaveText("SPEI · Mexico · MXN");
  await expect(option).toHaveAttribute("title", "po_mx_spei");
  for (const text of await page.getByLabel("Method").locator("option").allTextContents()) {
    expect(text, "an option without ids or country codes").not.toMatch(/sbx_|\(test\)|· [A-Z]{3} ·/);
  }

  // A swap quote: its expiry in words, its swq_… id in the "Quote id" detail.
  await page.goto("/dashboard/payouts/funding");
  await page.getByLabel("To currency").selectOption("MXN");
  await page.getByLabel("Amount to swap (USD)").fill("10");
  await expect(page.getByTestId("quote-expiry")).toHaveText(/^This quote expires in \d+ s/);
  await expect(page.getByTestId("quote-expiry")).not.toContainText("swq_");
  await openIdDetail(page.getByTestId("swap-quote"), /^swq_/, "Quote id");
  await checkPage(page, info, "plain-words-quote");

  // Settle now: the balance in the money format.
  await nav(page, "Settlements");
  await page.getByRole("button", { name: "Settle pending funds now" }).click();
  await expect(page.getByText(/^2 payments settled\. Available now: \$[\d,]+\.\d{2} USD\.$/)).toBeVisible();

  // A withdrawal: reviewed and reported in the money format, without its wdr_… id; the id in the row's detail.
  await nav(page, "Withdrawals");
  await page.getByRole("form", { name: "Withdraw" }).getByLabel("Amount (USD)").fill("5");
  await page.getByRole("button", { name: "Review" }).click();
  const review = page.getByRole("group", { name: "Review the withdrawal" });
  await expect(review).toContainText("Send $5.00 USD;");
  await review.getByRole("button", { name: "Confirm withdrawal" }).click();
  const done = page.getByRole("status").filter({ hasText: "Withdrawal of" });
  await expect(done).toHaveText(/^Withdrawal of \$5\.00 USD is (processing|completed)\.$/);
  const row = page.getByTestId("withdrawal-row").first();
  await openIdDetail(row, /^wdr_/);
  await checkPage(page, info, "plain-words-withdrawals");

  // A settlement: "Closed a settlement of $… USD net.", its stl_… id in the row's detail.
  await nav(page, "Settlements");
  await page.getByRole("button", { name: "Run settlement now" }).click();
  const closed = page.getByRole("status").filter({ hasText: "Closed a settlement" });
  await expect(closed).toHaveText(/^Closed a settlement of \$[\d,]+\.\d{2} USD net\.$/);
  await openIdDetail(page.getByTestId("settlement-row").first(), /^stl_/);
  await checkPage(page, info, "plain-words-settlements");
});

test("the security log in sentences, shops' methods and a deposit account in plain names, the account's id in its detail", { tag: "@wide" }, async ({ page }, info) => {
  test.setTimeout(150_000);
  const m = await newMerchant("plain-security");
  const endUserRef = `customer-${Date.now().toString(36)}`;
  const account = await api("/me/deposit-accounts", m.sandbox.secretKey, { endUserRef, name: "María Pérez", email: "maria@example.test" });
  expect(account.status, JSON.stringify(account.body)).toBeLessThan(300);
  const accountId = account.body.account.id as string;

  // An invitation, then the log: sentences, the API's event name in the tooltip, details as a phrase.
  await signIn(page, m.owner);
  await nav(page, "Team");
  const invitee = `plain-${Date.now().toString(36)}@example.test`;
  await page.getByLabel("Email").fill(invitee);
  await page.getByLabel("Role", { exact: true }).selectOption("developer");
  await page.getByRole("button", { name: "Invite" }).click();
  await expect(page.getByTestId("invite-link")).toBeVisible({ timeout: 20_000 });
  await nav(page, "Security");
  const invited = page.locator('[data-testid="security-event"][data-type="team.invited"]');
  await expect(invited.locator('[data-tech="team.invited"]')).toHaveText("Invited a team member");
  await expect(invited).toContainText(`${invitee} as Developer`);
  await expect(page.locator('[data-testid="security-event"][data-type="sign_in.succeeded"]').first()).toContainText("Signed in");
  const log = await page.getByRole("table", { name: /Security log/ }).innerText();
  for (const word of ["team.invited", "sign_in.", "email:", "role:"]) expect(log, `"${word}" in the security log`).not.toContain(word);
  await checkPage(page, info, "plain-words-security");

  // Shops: each method by its plain name and country, its id in the badge's tooltip.
  await page.goto("/dashboard/shops");
  await expect(page.locator('[data-tech="sbx_boleto"]').first()).toHaveText("Boleto — test · Brazil");
  await expect(page.locator('[data-tech="sbx_spei"]').first()).toHaveText("SPEI — test · Mexico");
  const methods = await page.getByRole("list", { name: /^Methods on for/ }).first().innerText();
  expect(methods).not.toMatch(/\(test\)|· (BRA|MEX|COL|USA|PER|CHL)\b/);
  await checkPage(page, info, "plain-words-shops");

  // A deposit account: named by its customer reference; method and country in words; its id in the detail.
  await page.goto("/dashboard/deposit-accounts");
  await expect(page.getByRole("cell", { name: "SPEI — test" }).first()).toBeVisible();
  await page.goto(`/dashboard/deposit-accounts/${accountId}`);
  await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toHaveText(`Deposit accounts / ${endUserRef}`);
  await expectIdNotInLabels(page, accountId);
  await expect(page.getByText("SPEI — test · Mexico · MXN")).toBeVisible();
  expect(await openIdDetail(headerOf(page), accountId)).toBe(accountId);
  await checkPage(page, info, "plain-words-deposit-account");
});
