// A merchant's first day (issue 24), in Debian's Chromium on a 1366 x 768 laptop (the desktop
// project, resized) and an 820 x 1180 tablet (the team invite on the laptop only): the team invite acts once on a double click; the
// lists keep the record's link, amount, status and date (and their own controls) inside the
// window instead of behind a sideways scroll; the refund form follows each refund and checks the
// amount before asking to confirm; the withdrawals page's balance follows a withdrawal; the
// payments page opens on its results; on a tablet the refund comes before the diagnostics; the
// sidebar reaches the bottom of a short page. Screenshots and axe-core on each (checkPage).
import { test, expect, type Page, type TestInfo } from "@playwright/test";
import { api, checkPage, nav, newMerchant, signIn, BASE_URL } from "./dashboard-helpers";
import { settleDueBalances } from "../../lib/settlements/settle-balances";

test.describe.configure({ mode: "parallel" });

/** The laptop of the issue on the desktop project; the tablet project is 820 x 1180 already. */
async function laptopOrTablet(page: Page, info: TestInfo) {
  if (info.project.name === "desktop") await page.setViewportSize({ width: 1366, height: 768 });
}

/**
 * Every named column's cells (data-col) of the first rows are shown, inside the window and inside
 * their table's card (not behind its sideways scroll), and no date in them is cut.
 */
async function expectInView(page: Page, rowTestId: string, cols: string[]) {
  const rows = page.getByTestId(rowTestId);
  await expect(rows.first()).toBeVisible();
  const width = page.viewportSize()!.width;
  const problems = await rows.evaluateAll(
    (trs, { cols, width }) => {
      const out: string[] = [];
      for (const tr of trs.slice(0, 5)) {
        for (const col of cols) {
          const shown = [...tr.querySelectorAll(`[data-col="${col}"]`)].filter((e) => e.getClientRects().length > 0);
          if (shown.length === 0) out.push(`${col}: not shown`);
          for (const e of shown) {
            const r = e.getBoundingClientRect();
            const card = e.closest(".overflow-x-auto")?.getBoundingClientRect();
            if (r.left < -0.5 || r.right > width + 0.5) out.push(`${col}: ${Math.round(r.left)}..${Math.round(r.right)} outside the window (0..${width})`);
            if (card && (r.left < card.left - 0.5 || r.right > card.right + 0.5)) out.push(`${col}: ${Math.round(r.left)}..${Math.round(r.right)} behind the card's scroll (${Math.round(card.left)}..${Math.round(card.right)})`);
          }
        }
        for (const t of tr.querySelectorAll("time")) if (t.getClientRects().length > 0 && t.scrollWidth > t.clientWidth + 1) out.push(`date cut: ${t.textContent}`);
      }
      // On a problem, each column's width, to see which one pushed the others out.
      if (out.length) out.push(`columns: ${[...trs[0]!.querySelectorAll("td")].filter((td) => td.getClientRects().length > 0).map((td) => `${td.getAttribute("data-col") ?? "?"}=${Math.round(td.getBoundingClientRect().width)}`).join(" ")}`);
      return out;
    },
    { cols, width },
  );
  expect(problems, `${rowTestId} at ${width} px`).toEqual([]);
}

const DESTINATION = { asset: "USDT", network: "TRON", address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" };

async function completedPayment(key: string, body: Record<string, unknown>): Promise<string> {
  const p = await api("/payments", key, { paymentMethodId: "sbx_card", ...body });
  expect(p.status, JSON.stringify(p.body)).toBe(200);
  expect((await api(`/payments/${p.body.transactionId}/simulate`, key, { action: "paid" })).status).toBe(200);
  return p.body.transactionId;
}

test("point 1: a double click on Invite adds exactly one member and shows the invite link, no password on screen", async ({ page }, info) => {
  test.setTimeout(120_000);
  await laptopOrTablet(page, info);
  const m = await newMerchant("fd-team");
  await signIn(page, m.owner);
  await nav(page, "Team");
  await expect(page.getByTestId("team-row")).toHaveCount(1);
  const invitee = `fd-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.test`;
  await page.getByLabel("Email").fill(invitee);
  await page.getByRole("button", { name: "Invite" }).dblclick();
  await expect(page.getByTestId("invite-link")).toHaveText(/\/dashboard\/invite\/[0-9A-Za-z]{32}$/, { timeout: 20_000 });
  await expect(page.getByTestId("team-row")).toHaveCount(2);
  await expect(page.locator(`[data-testid="team-row"][data-email="${invitee}"]`)).toHaveCount(1);
  await expect(page.getByText(/already exists|temporary password/i)).toHaveCount(0);
  await checkPage(page, info, "first-day-team-invite");
  // Still one after a reload: nothing was lost or doubled.
  await page.reload();
  await expect(page.getByTestId("team-row")).toHaveCount(2);
});

test("point 2 and 8: lists keep link, amount, status and date in view; the withdrawals balance follows a withdrawal", { tag: "@wide" }, async ({ page }, info) => {
  test.setTimeout(180_000);
  await laptopOrTablet(page, info);
  const m = await newMerchant("fd-tables");
  const key = m.sandbox.secretKey;
  const put = await fetch(`${BASE_URL}/api/v1/me/settlement-destination`, { method: "PUT", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(DESTINATION) });
  expect(put.status).toBe(200);
  // Long names and order ids, as real shops have them.
  const paid: string[] = [];
  for (let i = 0; i < 3; i++) {
    paid.push(await completedPayment(key, { amount: 80 + i, merchantOrderId: `pedido-loja-centro-2026-${i}-${Date.now()}`, userName: "María Fernanda López García", userEmail: `maria.fernanda.lopez.garcia+${i}@example.com` }));
  }
  const refund = await api(`/payments/${paid[0]}/refund`, key, { amount: 10 });
  expect(refund.status, JSON.stringify(refund.body)).toBe(200);
  const account = await api("/me/deposit-accounts", key, { endUserRef: `fd-${Date.now().toString(36)}`, name: "Juan Gómez Hernández", email: "juan@example.test" });
  expect(account.status, JSON.stringify(account.body)).toBeLessThan(300);
  const accountId = account.body.account.id as string;
  const deposit = await api(`/me/deposit-accounts/${accountId}/simulate-deposit`, key, { amount: 250, payerName: "Juan Gómez Hernández", payerBank: "BBVA México", trackingKey: "MBAN01002611260000123456789012" });
  expect(deposit.status, JSON.stringify(deposit.body)).toBeLessThan(300);
  // The settlement delay passes (the daily job, with a clock ahead).
  await settleDueBalances({ now: new Date(Date.now() + 4 * 86_400_000), merchantId: m.merchantId });

  await signIn(page, m.owner);

  await nav(page, "Payments");
  await expectInView(page, "payment-row", ["link", "amount", "status", "date"]);
  await checkPage(page, info, "first-day-payments");

  await nav(page, "Refunds and chargebacks");
  await expectInView(page, "claim-row", info.project.name === "desktop" ? ["link", "amount", "status", "date", "reason"] : ["link", "amount", "status", "date"]);
  await checkPage(page, info, "first-day-claims");

  await page.goto(`/dashboard/deposit-accounts/${accountId}`);
  await expectInView(page, "deposit-row", ["date", "amount", "status", "link", "tracking"]);
  await checkPage(page, info, "first-day-deposit-account");

  // A withdrawal: the available balance shown above the form follows it without a reload.
  await nav(page, "Withdrawals");
  const available = page.getByTestId("withdraw-available");
  const before = (await available.textContent())!;
  await page.getByRole("form", { name: "Withdraw" }).getByLabel("Amount (USD)").fill("5");
  await page.getByRole("button", { name: "Review" }).click();
  await page.getByRole("group", { name: "Review the withdrawal" }).getByRole("button", { name: "Confirm withdrawal" }).click();
  await expect(page.getByRole("status")).toContainText(/Withdrawal of \$5\.00 USD/);
  await expect(available).not.toHaveText(before);
  const toNumber = (s: string) => Number(s.replace(/[^\d.]/g, ""));
  expect(toNumber((await available.textContent())!)).toBeLessThanOrEqual(toNumber(before) - 5);
  await expectInView(page, "withdrawal-row", ["date", "amount", "status", "simulate"]);
  await checkPage(page, info, "first-day-withdrawals");

  await nav(page, "Settlements");
  await page.getByRole("button", { name: "Run settlement now" }).click();
  await expect(page.getByRole("status")).toContainText(/Closed a settlement of \$[\d,.]+ USD net\./);
  await expect(page.getByTestId("settlement-row").first().getByRole("link", { name: "Download receipt" })).toBeVisible({ timeout: 20_000 });
  await expectInView(page, "settlement-row", ["date", "amount", "status", "receipt", "simulate"]);
  await checkPage(page, info, "first-day-settlements");
});

test("point 5 and 8: the refund form follows each refund and checks the amount before confirming; on a tablet it comes before the diagnostics", { tag: "@wide" }, async ({ page }, info) => {
  test.setTimeout(120_000);
  await laptopOrTablet(page, info);
  const m = await newMerchant("fd-refund");
  const id = await completedPayment(m.sandbox.secretKey, { amount: 40, merchantOrderId: `fd-r-${Date.now()}` });
  await signIn(page, m.owner, { at: `/dashboard/payments/${id}` });
  await expect(page.getByTestId("payment-status")).toHaveText("Completed");

  // On the tablet (one column) the refund comes right after the amounts, before the provider
  // attempts and webhook deliveries; on the laptop it is the right-hand column beside them.
  const top = async (sel: string) => (await page.locator(sel).boundingBox())!.y;
  const left = async (sel: string) => (await page.locator(sel).boundingBox())!.x;
  if (info.project.name === "tablet") {
    expect(await top("#refund-title")).toBeLessThan(await top("#attempts-title"));
    expect(await top("#refund-title")).toBeLessThan(await top("#deliveries-title"));
  } else {
    expect(await left("#refund-title")).toBeGreaterThan(await left("#attempts-title"));
  }

  const refundable = page.getByTestId("refundable");
  const first = (await refundable.textContent())!;
  const [, amountText, currency] = first.match(/^\$([\d,.]+) ([A-Z]{3}) can still be refunded\.$/)!;
  const whole = Number(amountText!.replace(/,/g, ""));
  const minus = (a: number, b: number) => Math.round((a - b) * 100) / 100;
  const amount = page.getByLabel(/^Amount \(/);
  await expect(amount).toHaveValue(String(whole));

  // Too much is refused before any confirmation is asked, in plain words next to the amount.
  await amount.fill(String(whole + 1));
  await page.getByRole("button", { name: "Review refund" }).click();
  await expect(page.getByText(`Only $${amountText} ${currency} can still be refunded. Enter that or less.`)).toBeVisible();
  await expect(amount).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("group", { name: "Review: Refund" })).toHaveCount(0);

  // A partial refund: the review says what will remain; afterwards the form says it, no reload.
  await amount.fill("5");
  await page.getByRole("button", { name: "Review refund" }).click();
  const review = page.getByRole("group", { name: "Review: Refund" });
  const left5 = minus(whole, 5).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  await expect(review).toContainText(`After it, $${left5} ${currency} can still be refunded.`);
  await checkPage(page, info, "first-day-refund-review");
  await review.getByRole("button", { name: "Refund now" }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Refund of \$5\.00 USD/ })).toBeVisible();
  await expect(refundable).toHaveText(`$${left5} ${currency} can still be refunded.`);
  await expect(amount).toHaveValue(String(minus(whole, 5)));
  // The old whole amount is now too much, and said so before confirming.
  await amount.fill(String(whole));
  await page.getByRole("button", { name: "Review refund" }).click();
  await expect(page.getByText(`Only $${left5} ${currency} can still be refunded. Enter that or less.`)).toBeVisible();
  await checkPage(page, info, "first-day-refund-after");
});

test("point 8: the payments page opens on its results (filters and export folded); the sidebar reaches the bottom of a short page", { tag: "@wide" }, async ({ page }, info) => {
  test.setTimeout(120_000);
  await laptopOrTablet(page, info);
  const m = await newMerchant("fd-small");
  const id = await completedPayment(m.sandbox.secretKey, { amount: 12, merchantOrderId: `fd-s-${Date.now()}` });
  await signIn(page, m.owner);
  await nav(page, "Payments");
  const row = page.locator(`[data-payment-id="${id}"]`);
  await expect(row).toBeInViewport();
  await expect(page.locator("details#filters")).not.toHaveAttribute("open");
  await expect(page.locator("details#export-csv")).not.toHaveAttribute("open");
  await expect(page.getByLabel("Country")).toBeHidden();
  await expect(page.getByRole("link", { name: "Download CSV" })).toBeHidden();
  await checkPage(page, info, "first-day-payments-opening");
  // Unfolded on demand; a set filter keeps them open on the next page.
  await page.getByText("More filters").click();
  await page.getByLabel("Status").selectOption("completed");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/status=completed/);
  await expect(page.locator("details#filters")).toHaveAttribute("open");
  await expect(row).toBeVisible();

  // A short page: the sidebar's background reaches the bottom of the window.
  await page.goto("/dashboard/password");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const edges = await page.evaluate(() => ({ side: document.querySelector('[data-testid="sidebar"]')!.getBoundingClientRect().bottom, height: Math.max(window.innerHeight, document.documentElement.scrollHeight) }));
  expect(Math.abs(edges.side - edges.height)).toBeLessThan(2);
  await checkPage(page, info, "first-day-short-page");
});
