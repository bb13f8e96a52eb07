// The merchant's time zone where the dashboard counts days and hours (issue 41, point 3), at
// 1366 and 820 px (@wide): the CSV export card's default days and routing analytics' chart
// buckets, at moments when UTC has already turned the day São Paulo has not. The browser sits in
// Madrid, so neither UTC nor the browser's own zone can pass for the merchant's. Screenshots and
// axe-core on both pages (checkPage).
import { test, expect } from "@playwright/test";
import { api, checkPage, newMerchant, signIn } from "./dashboard-helpers";
import { db } from "../../lib/platform/db";

const ZONE = "America/Sao_Paulo";
test.use({ timezoneId: "Europe/Madrid" });
test.beforeEach(async ({ page }, info) => {
  if (info.project.name === "desktop") await page.setViewportSize({ width: 1366, height: 768 });
});

/** "Nov 29" / "21:00" of a moment in São Paulo, computed here, independent of the page's formatter. */
const spDay = (at: Date) => new Intl.DateTimeFormat("en-US", { timeZone: ZONE, month: "short", day: "numeric" }).format(at);
const spHour = (at: Date) => `${new Intl.DateTimeFormat("en-US", { timeZone: ZONE, hour: "2-digit", hourCycle: "h23" }).format(at)}:00`;

test("the CSV export offers the merchant's last 30 days on Dec 1 at 23:30 in São Paulo, when UTC is already on Dec 2", { tag: "@wide" }, async ({ page }, info) => {
  const m = await newMerchant("times-export", { timeZone: ZONE });
  // 23:30 in São Paulo (GMT-3) is 02:30 on Dec 2 in UTC and 03:30 in Madrid.
  await page.clock.setFixedTime(new Date("2026-12-02T02:30:00Z"));
  await signIn(page, m.owner, { at: "/dashboard/payments" });
  await page.getByText("Export payments, ledger, payouts, claims or settlements as CSV").click();
  const card = page.getByRole("region", { name: "Export CSV" });
  await expect(card.getByLabel("To")).toHaveValue("2026-12-01");
  await expect(card.getByLabel("From")).toHaveValue("2026-11-02");
  await expect(card.getByRole("link", { name: "Download CSV" })).toHaveAttribute("href", /from=2026-11-02&to=2026-12-01$/);
  // A day typed stays the one typed.
  await card.getByLabel("From").fill("2026-11-20");
  await expect(card.getByRole("link", { name: "Download CSV" })).toHaveAttribute("href", /from=2026-11-20&to=2026-12-01$/);
  await checkPage(page, info, "times-export");
});

test("routing analytics counts a payment at 23:30 in São Paulo on that day, and each hour as São Paulo reads it", { tag: "@wide" }, async ({ page }, info) => {
  test.setTimeout(120_000);
  const m = await newMerchant("times-routing", { timeZone: ZONE });
  const ids: string[] = [];
  for (const amount of [20, 30, 40]) {
    const p = await api("/payments", m.sandbox.secretKey, { amount, paymentMethodId: "sbx_card" });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    ids.push(p.body.transactionId);
  }
  // Three São Paulo days back, one payment at 23:30 (02:30 UTC of the next day) and one at noon
  // (15:00 UTC, which a UTC day would put with the day before São Paulo's: its UTC day starts at
  // 21:00 the evening before); one payment two hours ago.
  const now = Date.now();
  const [y, mo, d] = new Intl.DateTimeFormat("en-CA", { timeZone: ZONE, year: "numeric", month: "2-digit", day: "2-digit" }).format(now).split("-").map(Number);
  const lateEvening = new Date(Date.UTC(y!, mo! - 1, d! - 3, 23 + 3, 30));
  const noon = new Date(Date.UTC(y!, mo! - 1, d! - 3, 12 + 3, 0));
  const twoHoursAgo = new Date(now - 2 * 3600_000);
  await db().transaction.update({ where: { id: ids[0] }, data: { createdAt: lateEvening } });
  await db().transaction.update({ where: { id: ids[1] }, data: { createdAt: twoHoursAgo } });
  await db().transaction.update({ where: { id: ids[2] }, data: { createdAt: noon } });
  expect(lateEvening.toISOString().slice(0, 10), "UTC has turned the day").not.toBe(new Intl.DateTimeFormat("en-CA", { timeZone: ZONE }).format(lateEvening));

  await signIn(page, m.owner, { at: "/dashboard/routing/analytics?range=7d" });
  const rows = page.getByTestId("routing-chart-table").locator("tbody th");
  await expect(rows).toHaveText([spDay(lateEvening), spDay(twoHoursAgo)]);
  await expect(page.getByTestId("routing-chart")).toBeVisible();
  await expect(page.getByText("By day, in your time zone (GMT-3).")).toBeVisible();
  await checkPage(page, info, "times-routing-analytics-7d");

  await page.getByRole("navigation", { name: "Period" }).getByRole("link", { name: "Last 24 hours" }).click();
  await expect(page.getByText("By hour, in your time zone (GMT-3).")).toBeVisible();
  await expect(rows).toHaveText([spHour(twoHoursAgo)]);
  await checkPage(page, info, "times-routing-analytics-24h");
});
