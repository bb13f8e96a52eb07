// The dashboard overview at the widths merchants use it (desktop 1366 px, tablet 820 px, phone
// 390 px), in Debian's Chromium: the success rate leaves pending payments out and counts them
// apart, a negative available balance is explained (and never "Ready to pay out"), one day of
// data draws something, chart tooltips stay inside their card, the recent payments' id links are
// never clipped, a row opens its payment, and the page never scrolls sideways. Screenshotted and
// scanned with axe-core (checkPage).
import { test, expect, type Locator, type Page, type TestInfo } from "@playwright/test";
import { api, checkPage, newMerchant, signIn } from "./dashboard-helpers";

test.describe.configure({ mode: "parallel" });

const WIDTHS: Record<string, { width: number; height: number }> = {
  desktop: { width: 1366, height: 900 },
  tablet: { width: 820, height: 1180 },
  phone: { width: 390, height: 844 },
};

/** A card of the overview (a section named by its heading). */
const card = (page: Page, name: string) => page.locator("main section").filter({ has: page.getByRole("heading", { level: 2, name, exact: true }) });

async function atWidth(page: Page, info: TestInfo) {
  const size = WIDTHS[info.project.name];
  if (size) await page.setViewportSize(size);
}

type Box = { x: number; y: number; width: number; height: number };
const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inside = (a: Box, b: Box) => a.x >= b.x - 0.5 && a.y >= b.y - 0.5 && a.x + a.width <= b.x + b.width + 0.5 && a.y + a.height <= b.y + b.height + 0.5;

async function pay(key: string, outcome: "paid" | "failed" | null): Promise<string> {
  const made = await api("/payments", key, { amount: 10, paymentMethodId: "sbx_card" });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const id: string = made.body.transactionId;
  if (outcome) expect((await api(`/payments/${id}/simulate`, key, { action: outcome })).status).toBe(200);
  return id;
}

async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, clientWidth, wide } = await page.evaluate(() => {
    const clientWidth = document.documentElement.clientWidth;
    // What sticks out, to name the culprit when it fails.
    const wide = [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > clientWidth + 0.5 && !e.closest(".overflow-x-auto"))
      .slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}.${String(e.className).slice(0, 60)}`);
    return { scrollWidth: document.documentElement.scrollWidth, clientWidth, wide };
  });
  expect(scrollWidth, `the page scrolls sideways: ${wide.join(" | ")}`).toBeLessThanOrEqual(clientWidth);
}

/**
 * Hovers the chart's plot area at its corners and middle (today's data sits at the right edge)
 * and checks that every tooltip shown lies inside the chart's own card and off every other card.
 */
async function expectTooltipInsideCard(page: Page, card: Locator, chartId: string) {
  await card.scrollIntoViewIfNeeded();
  const plot = await card.getByTestId(chartId).locator(".recharts-cartesian-grid").boundingBox();
  expect(plot, `${chartId} has a plot area`).not.toBeNull();
  const cardBox = (await card.boundingBox())!;
  const own = await card.getAttribute("aria-labelledby");
  const others = await page.locator("main section").evaluateAll(
    (els, own) => els.filter((e) => e.getAttribute("aria-labelledby") !== own).map((e) => { const r = e.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; }),
    own,
  );
  expect(others.length, "there are other cards to compare with").toBeGreaterThan(1);
  const tip = card.getByTestId("chart-tooltip");
  let shown = 0;
  const spots: Array<[number, number]> = [[0.99, 0.98], [0.99, 0.02], [0.5, 0.98], [0.01, 0.98], [0.01, 0.02]];
  for (const [fx, fy] of spots) {
    await page.mouse.move(plot!.x + plot!.width * fx, plot!.y + plot!.height * fy);
    await expect(tip).toBeVisible();
    shown++;
    // The box once recharts has placed it (it measures the content, then moves it).
    let box: Box | null = null;
    await expect.poll(async () => { const b = await tip.boundingBox(); const same = !!b && !!box && b.x === box.x && b.y === box.y; box = b; return same; }).toBe(true);
    expect(inside(box!, cardBox), `${chartId} tooltip ${JSON.stringify(box)} inside its card ${JSON.stringify(cardBox)} at ${fx},${fy}`).toBe(true);
    for (const o of others) expect(intersects(box!, o), `${chartId} tooltip ${JSON.stringify(box)} over another card ${JSON.stringify(o)}`).toBe(false);
  }
  expect(shown).toBeGreaterThan(0);
  await page.mouse.move(0, 0);
}

test("success rate leaves pending out, one day draws, tooltips stay in their card, rows open their payment, no sideways scroll", { tag: "@layout" }, async ({ page }, info) => {
  test.setTimeout(120_000);
  const m = await newMerchant("overview");
  const key = m.sandbox.secretKey;
  const paid = await pay(key, "paid");
  await pay(key, "failed");
  for (let i = 0; i < 3; i++) await pay(key, null);

  await atWidth(page, info);
  await signIn(page, m.owner);

  // 1 paid, 1 failed, 3 pending: 50 % of the 2 that finished, the 3 pending counted apart.
  const success = card(page, "Success rate, last 30 days");
  await expect(success.getByTestId("success-summary")).toContainText(/50% of 2\b/);
  await expect(success.getByTestId("success-pending")).toContainText("3 pending");
  // Not 1 of 5 (pending counted as failures). Checked on the figures, not the whole card: its
  // axis labels run together in the card's text ("Dec 2" beside "0%" reads "Dec 20%" on Dec 2).
  await expect(success.getByTestId("success-summary")).not.toContainText("20%");
  await expect(success.getByTestId("success-pending")).not.toContainText("20%");

  // Every payment is from today: the volume chart has one bar, the rate chart one dot, both drawn.
  const bar = page.getByTestId("volume-chart").locator(".recharts-bar-rectangle path");
  await expect(bar).toHaveCount(1);
  // Polled: the chart may redraw (its data refreshes) between finding the bar and measuring it.
  const size = async (l: typeof bar) => Math.min((await l.boundingBox())?.width ?? 0, (await l.boundingBox())?.height ?? 0);
  await expect.poll(() => size(bar), { message: "the bar is drawn" }).toBeGreaterThan(2);
  const dot = page.getByTestId("success-chart").locator(".recharts-line-dots circle");
  await expect(dot).toHaveCount(1);
  await expect.poll(() => size(dot), { message: "the dot is drawn" }).toBeGreaterThan(2);

  await expectNoSidewaysScroll(page);
  // The pointer rests where "Sign in" was: move it off the charts so no tooltip is in the picture.
  await page.mouse.move(0, 0);
  await checkPage(page, info, "overview-rates");

  await expectTooltipInsideCard(page, card(page, "Volume, last 30 days"), "volume-chart");
  await expectTooltipInsideCard(page, success, "success-chart");

  // The id links are whole and in view inside the table's scroll box (at 1366 and 820 px no
  // scrolling needed; on a phone the table may scroll but the id column comes second).
  const recent = card(page, "Recent payments");
  const links = recent.getByTestId("payment-row").getByRole("link");
  await expect(links).toHaveCount(5);
  if (info.project.name === "desktop") {
    // At 1366 px the compact table fits its card: nothing of a row is hidden behind a scroll.
    const region = recent.locator("table").locator("xpath=..");
    expect(await region.evaluate((e) => e.scrollWidth <= e.clientWidth), "the recent payments table fits its card").toBe(true);
  }
  for (const link of await links.all()) {
    const cell = link.locator("xpath=ancestor::td[1]");
    const fits = await cell.evaluate((td) => td.scrollWidth <= td.clientWidth);
    expect(fits, "the id cell is not clipped").toBe(true);
    await expect(link).toHaveText(/^tx_\w{24}$/);
    if (info.project.name !== "phone") {
      const region = (await recent.locator("table").locator("xpath=..").boundingBox())!;
      expect(inside((await link.boundingBox())!, region), "the id link is in view without scrolling").toBe(true);
    }
  }

  // Keyboard: the row's link is the way in (Enter follows it).
  const row = recent.locator(`[data-payment-id="${paid}"]`);
  await row.getByRole("link").focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/dashboard/payments/${paid}$`));
  await page.goBack();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();

  // Pointer: a click on the row away from the link (its amount) opens the payment too.
  await recent.locator(`[data-payment-id="${paid}"] td`).first().click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/payments/${paid}$`));
  await expect(page.getByTestId("payment-status")).toHaveText("Completed");
});

test("a negative available balance is explained, never 'Ready to pay out'", { tag: "@layout" }, async ({ page }, info) => {
  test.setTimeout(120_000);
  const m = await newMerchant("negative");
  const key = m.sandbox.secretKey;
  // A sandbox refund in full returns what the buyer paid, fees included, while only the net
  // reached the balance: the fees come out of `available`, which goes below zero.
  const id = await pay(key, "paid");
  expect((await api(`/payments/${id}/simulate`, key, { action: "refunded" })).status).toBe(200);
  const balance = await api("/me/balance", key);
  expect(balance.body.balance.available, JSON.stringify(balance.body)).toBeLessThan(0);

  await atWidth(page, info);
  await signIn(page, m.owner);
  await page.mouse.move(0, 0);
  const balances = page.locator('dl[aria-label="Balances"]');
  await expect(balances.getByTestId("available-negative")).toContainText("Refunds and chargebacks");
  await expect(balances.getByTestId("available-negative")).toContainText("New pay-ins cover it first");
  await expect(balances).not.toContainText("Ready to pay out");
  // The refunded payment was paid first: it counts as a success, and nothing is pending.
  await expect(page.getByTestId("success-summary")).toContainText(/100% of 1\b/);
  await expect(page.getByTestId("success-pending")).toHaveCount(0);
  await expectNoSidewaysScroll(page);
  await checkPage(page, info, "overview-negative");
});
