// Issue 41, points 2, 7 and 10, on a laptop (1366 × 768) and a tablet (820 × 1180): every status
// badge in the dashboard's words with the API's word in its tooltip; a payment's timeline with one
// line per thing that happened, saying how much; the only owner's Remove and a disputed payment's
// "Simulate chargeback" turned off with the reason beside them. Each page is screenshotted and
// scanned with axe-core (checkPage).
import { test, expect, type Locator, type Page } from "@playwright/test";
import { api, checkPage, newMerchant, newUser, signIn } from "./dashboard-helpers";

test.describe.configure({ mode: "parallel" });
test.beforeEach(async ({ page }, info) => {
  if (info.project.name === "desktop") await page.setViewportSize({ width: 1366, height: 768 });
});

const CPF = "52998224725";

async function paidPayment(key: string, body: Record<string, unknown>): Promise<string> {
  const made = await api("/payments", key, body);
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const id = made.body.transactionId as string;
  expect((await api(`/payments/${id}/simulate`, key, { action: "paid" })).status).toBe(200);
  return id;
}

/** A refund the sandbox completes on its own, waited for through the API. */
async function refunded(key: string, id: string, amount: number) {
  expect((await api(`/payments/${id}/refund`, key, { amount })).status).toBeLessThan(300);
  await expect.poll(async () => (await api(`/payments/${id}`, key)).body.refundedAmountLocal, { timeout: 15_000 }).toBe(amount);
}

/** A badge reads the dashboard's word, and its tooltip the API's. */
async function expectStatus(badge: Locator, words: string, apiWord: string) {
  await expect(badge).toHaveText(words);
  await expect(badge).toHaveAttribute("title", apiWord);
}

/** No status badge on the page shows the API's word as its text (lowercase, underscores); there is at least one. */
async function expectNoApiWords(page: Page) {
  const shown = await page.locator("main [data-status-of]").evaluateAll((els) => els.map((e) => ({ text: (e as HTMLElement).innerText.trim(), tech: e.getAttribute("data-tech") ?? "" })));
  expect(shown.length, `status badges on ${page.url()}`).toBeGreaterThan(0);
  for (const { text, tech } of shown) {
    expect(text, `"${text}" (${tech}) on ${page.url()}`).toMatch(/^[A-Z]/);
    expect(text, `the API's word shown as text on ${page.url()}`).not.toBe(tech.replace(/_/g, " "));
  }
}

test("point 2: every status in the dashboard's words, the API's word in the tooltip", { tag: "@wide" }, async ({ page }, info) => {
  test.setTimeout(150_000);
  const m = await newMerchant("status-words");
  const key = m.sandbox.secretKey;
  const partly = await paidPayment(key, { amount: 40, paymentMethodId: "sbx_card", merchantOrderId: `sw-r-${Date.now()}` });
  await refunded(key, partly, 10);
  const disputed = await paidPayment(key, { amount: 30, paymentMethodId: "sbx_card", merchantOrderId: `sw-c-${Date.now()}` });
  expect((await api(`/payments/${disputed}/simulate`, key, { action: "chargeback" })).status).toBe(200);
  expect((await api("/webhooks", key, { events: ["*"] })).status).toBeLessThan(300);

  await signIn(page, m.owner, { at: "/dashboard/payments" });
  await expectStatus(page.locator(`[data-payment-id="${partly}"] [data-status-of]`).first(), "Partially refunded", "completed");
  await expectNoApiWords(page);
  await checkPage(page, info, "status-words-payments");

  await page.goto(`/dashboard/payments/${disputed}`);
  await expectStatus(page.getByTestId("payment-status").locator("[data-status-of]"), "Disputed", "completed");
  await expectStatus(page.getByTestId("payment-claim").locator("[data-status-of]"), "Open", "open");
  await expectNoApiWords(page);
  await checkPage(page, info, "status-words-payment-disputed");

  await page.goto("/dashboard/claims");
  await expectStatus(page.locator("main [data-status-of][data-tech='open']").first(), "Open", "open");
  await expectStatus(page.locator("main [data-status-of][data-tech='resolved']").first(), "Refunded", "resolved");
  await expectNoApiWords(page);
  await checkPage(page, info, "status-words-claims");

  await page.goto("/dashboard/webhooks");
  await expectStatus(page.locator("main [data-status-of][data-tech='enabled']").first(), "Enabled", "enabled");
  await expectNoApiWords(page);
  await checkPage(page, info, "status-words-webhooks");
});

test("point 7 and 10: the timeline has one line per happening, saying how much; a disputed payment's Simulate chargeback is off, with why", { tag: "@wide" }, async ({ page }, info) => {
  test.setTimeout(150_000);
  const m = await newMerchant("timeline");
  const key = m.sandbox.secretKey;
  const id = await paidPayment(key, { amount: 100, currency: "BRL", paymentMethodId: "sbx_pix", userName: "Ana Souza", userEmail: "ana@example.com", documentId: CPF });
  const local = (await api(`/payments/${id}`, key)).body;
  expect([local.amountLocal, local.currencyLocal]).toEqual([100, "BRL"]);
  await refunded(key, id, 30);

  await signIn(page, m.owner, { at: `/dashboard/payments/${id}` });
  const simulate = page.getByRole("region", { name: "Sandbox simulation" });
  await expect(simulate.getByRole("button", { name: "Simulate chargeback" })).toBeEnabled();
  await simulate.getByRole("button", { name: "Simulate chargeback" }).click();
  await expect(page.getByTestId("payment-status")).toHaveText("Disputed");

  // Paid (payment.completed + payment.captured), the partial refund (payment.refunded +
  // claim.resolved), the chargeback (chargeback.created + claim.opened): three lines, not six.
  const lines = page.getByTestId("timeline-event");
  await expect(lines).toHaveText([/^Paid R\$\s100,00$/, /^Refunded R\$\s30,00 of R\$\s100,00$/, /^Chargeback opened for R\$\s70,00$/]);
  await expect(lines.nth(0).locator("[title]")).toHaveAttribute("title", "payment.completed + payment.captured");
  await expect(lines.nth(1).locator("[title]")).toHaveAttribute("title", "payment.refunded + claim.resolved");
  await expect(lines.nth(2).locator("[title]")).toHaveAttribute("title", "chargeback.created + claim.opened");

  // Already disputed: no second chargeback, no refund in full while it is open; each says why.
  const chargeback = simulate.getByRole("button", { name: "Simulate chargeback" });
  await expect(chargeback).toBeDisabled();
  await expect(chargeback).toHaveAccessibleDescription(/already disputed/);
  await expect(simulate.getByRole("button", { name: "Simulate refunded" })).toHaveAccessibleDescription(/still open/);
  await expect(simulate.getByTestId("simulate-why")).toHaveCount(2);
  await expect(simulate.getByTestId("simulate-why").first()).toBeVisible();
  await checkPage(page, info, "timeline-disputed");
});

test("point 10: the only owner's Remove is off with the reason; with a second owner it is on", { tag: "@wide" }, async ({ page }, info) => {
  test.setTimeout(90_000);
  const m = await newMerchant("only-owner");
  const developer = await newUser(m.merchantId, "developer");
  await signIn(page, m.owner, { at: "/dashboard/team" });
  const ownerRow = page.locator(`[data-testid="team-row"][data-email="${m.owner}"]`);
  const remove = ownerRow.getByRole("button", { name: `Remove ${m.owner}` });
  await expect(remove).toBeDisabled();
  await expect(remove).toHaveAccessibleDescription("The only owner can't be removed: make someone else an owner first.");
  await expect(ownerRow.getByTestId("only-owner-reason")).toBeVisible();
  await expect(page.locator(`[data-testid="team-row"][data-email="${developer}"]`).getByRole("button", { name: `Remove ${developer}` })).toBeEnabled();
  await checkPage(page, info, "team-only-owner");

  await newUser(m.merchantId, "owner");
  await page.reload();
  await expect(remove).toBeEnabled();
  await expect(ownerRow.getByTestId("only-owner-reason")).toHaveCount(0);
});
