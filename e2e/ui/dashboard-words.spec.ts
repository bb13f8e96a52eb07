// A shop owner's words (issue 24, point 6), on the desktop (1366 × 768): no backticks or JSON
// field names in messages, refunds named as refunds (never a CLM-… claim or a claim.resolved
// event), plain labels whose technical name is a tooltip for developers, the payment page leading
// with the amount the store asked (R$ 150,00) with USD beside it, and every time in the merchant's
// time zone with its offset named. Each page is screenshotted and scanned with axe-core (checkPage).
import { test, expect, type Page } from "@playwright/test";
import { api, checkPage, newMerchant, signIn } from "./dashboard-helpers";

test.describe.configure({ mode: "parallel" });
test.beforeEach(async ({ page }, info) => {
  if (info.project.name === "desktop") await page.setViewportSize({ width: 1366, height: 768 });
});

const ZONE = "America/Sao_Paulo";
const CPF = "52998224725";

/** What the page's main text must never show a shop owner. */
async function expectNoJargon(page: Page, words: Array<string | RegExp>) {
  const text = await page.locator("main").innerText();
  expect(text).not.toContain("`");
  for (const w of words) {
    if (typeof w === "string") expect(text, `"${w}" on ${page.url()}`).not.toContain(w);
    else expect(text, `${w} on ${page.url()}`).not.toMatch(w);
  }
}

/** "Oct 28, 11:03" of a moment in São Paulo, computed here, independent of the page's formatter. */
function inSaoPaulo(iso: string) {
  const parts = Object.fromEntries(new Intl.DateTimeFormat("en-US", { timeZone: ZONE, month: "short", day: "numeric", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
  return { day: `${parts.month} ${parts.day}, ${parts.year}`, time: `${parts.hour}:${parts.minute}` };
}

test("the payment page leads with the amount the store asked, USD beside it; plain labels with the technical name in a tooltip; a refund reads as a refund; times in the merchant's zone", async ({ page }, info) => {
  test.setTimeout(120_000);
  const m = await newMerchant("words", { timeZone: ZONE });
  const key = m.sandbox.secretKey;
  const made = await api("/payments", key, { amount: 150, currency: "BRL", paymentMethodId: "sbx_pix", userName: "Ana Souza", userEmail: "ana@example.com", documentId: CPF });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const id = made.body.transactionId as string;
  expect((await api(`/payments/${id}/simulate`, key, { action: "paid" })).status).toBe(200);
  expect((await api(`/payments/${id}/refund`, key, { amount: 50 })).status).toBeLessThan(300);
  const payment = (await api(`/payments/${id}`, key)).body;
  const created = inSaoPaulo(payment.timestamps.created);

  await signIn(page, m.owner, { at: `/dashboard/payments/${id}` });

  // The title: R$ 150,00 first, then the USD amount.
  const asked = page.getByTestId("payment-asked");
  await expect(asked).toHaveText(/^R\$\s150,00$/);
  await expect(page.getByTestId("payment-usd")).toHaveText(/^\$[\d,.]+ USD$/);
  const [a, u] = [await asked.boundingBox(), await page.getByTestId("payment-usd").boundingBox()];
  expect(a!.y < u!.y || (Math.abs(a!.y - u!.y) < 20 && a!.x < u!.x), "the asked amount comes before USD").toBe(true);

  // Plain labels, their technical names as tooltips.
  await expect(page.getByRole("heading", { name: "Providers tried" })).toBeVisible();
  await expect(page.locator('[data-tech="Cascade attempts"]')).toHaveAttribute("title", "Cascade attempts");
  await expect(page.locator("dt").filter({ hasText: "Asked by the store" }).locator("[title]")).toHaveAttribute("title", /Charged as/);
  await expect(page.locator("dt").filter({ hasText: "Settles" }).locator("[title]")).toHaveAttribute("title", "Delay T+1");
  await expect(page.locator("dd").filter({ hasText: "1 day after the payment" })).toBeVisible();

  // The refund: named a refund, in one line saying how much of how much (the sandbox completes it
  // on its own); the events behind it in the tooltip.
  const refundEvent = page.getByTestId("timeline-event").filter({ hasText: /^Refunded R\$\s50,00 of R\$\s150,00$/ });
  await expect(refundEvent).toBeVisible({ timeout: 15_000 });
  await expect(refundEvent.locator("[title]")).toHaveAttribute("title", "payment.refunded + claim.resolved");
  await expect(page.getByTestId("payment-claim")).toContainText("Refunded");
  await expectNoJargon(page, ["Cascade attempts", "Charged as", "T+1", "claim.resolved", "claim.opened", "payment.completed", /CLM-/]);

  // Created at a known moment: shown in São Paulo's time, its offset named.
  const createdText = page.locator("dt").filter({ hasText: /^Created$/ }).locator("xpath=following-sibling::dd");
  await expect(createdText).toContainText(created.day);
  await expect(createdText).toContainText(created.time);
  await expect(createdText).toContainText("GMT-3");
  await checkPage(page, info, "words-payment");

  // The list: the same moment in the zone.
  await page.goto("/dashboard/payments");
  const row = page.locator(`[data-payment-id="${id}"]`);
  await expect(row.locator('[data-col="date"]')).toContainText(created.time);
  await expect(row.locator('[data-col="date"]')).toContainText("GMT-3");
  await expect(page.getByRole("columnheader", { name: "Created (UTC)" })).toHaveCount(0);

  // Refunds and chargebacks: a refund is a "Refund" link (its id only in the tooltip), filters in words.
  await page.getByRole("navigation", { name: "Dashboard", exact: true }).getByRole("link", { name: "Refunds and chargebacks", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Refunds and chargebacks" })).toBeVisible();
  const claimRow = page.getByTestId("claim-row");
  await expect(claimRow.getByRole("link", { name: "Refund", exact: true })).toHaveAttribute("title", /^CLM-/);
  await expect(claimRow).toContainText("Refunded");
  await expect(claimRow.locator('[data-col="date"]')).toContainText("GMT-3");
  const kind = page.getByLabel("Kind");
  await expect(kind.locator("option")).toHaveText(["Any", "Refunds", "Chargebacks", "PIX MED claims"]);
  await expect(kind.locator('option[value="user_dispute"]')).toHaveAttribute("title", "user_dispute");
  const status = page.getByLabel("Status");
  await expect(status.locator('option[value="open"]')).toHaveText("Open");
  await expect(status.locator('option[value="open"]')).toHaveAttribute("title", "open");
  for (const o of await status.locator("option").allTextContents()) expect(o, "a status option starts with a capital").toMatch(/^[A-Z]/);
  await expectNoJargon(page, [/CLM-/, "user_dispute", "Claims"]);
  await checkPage(page, info, "words-refunds");

  // Team roles in words.
  await page.goto("/dashboard/team");
  await expect(page.getByLabel("Role", { exact: true }).locator('option[value="viewer"]')).toHaveText("Viewer");
});

test("payouts and deposit accounts: plain labels with the technical name in a tooltip; an evidence error without field names; an MXN payment leads with $1,500.00 MXN", async ({ page }, info) => {
  test.setTimeout(120_000);
  const m = await newMerchant("words-mx", { timeZone: "America/Mexico_City" });
  const key = m.sandbox.secretKey;
  const mx = await api("/payments", key, { amount: 1500, currency: "MXN", paymentMethodId: "sbx_spei", userName: "Juan Pérez", documentId: "GODE561231GR8" });
  expect(mx.status, JSON.stringify(mx.body)).toBe(200);
  const card = await api("/payments", key, { amount: 40, paymentMethodId: "sbx_card" });
  expect((await api(`/payments/${card.body.transactionId}/simulate`, key, { action: "paid" })).status).toBe(200);
  expect((await api(`/payments/${card.body.transactionId}/simulate`, key, { action: "chargeback" })).status).toBe(200);

  await signIn(page, m.owner, { at: `/dashboard/payments/${mx.body.transactionId}` });
  await expect(page.getByTestId("payment-asked")).toHaveText("$1,500.00 MXN");
  await expect(page.getByTestId("payment-usd")).toHaveText(/ USD$/);
  await expect(page.locator("dt").filter({ hasText: /^Created$/ }).locator("xpath=following-sibling::dd")).toContainText(/GMT-[56]/);

  await page.goto("/dashboard/payouts");
  await expect(page.locator('[data-tech^="Transferable from pay-in"]')).toHaveText("Available to move from your sales");
  await expectNoJargon(page, ["Transferable from pay-in"]);
  await checkPage(page, info, "words-payouts");

  await page.goto("/dashboard/payouts/send");
  // The sandbox's sentence says what happens, not which rails (issue 41: the test rails are not offered).
  await expect(page.locator("#send-payout-note")).toContainText("In the sandbox no bank is called");
  await expect(page.locator("#send-payout-note")).not.toContainText("sbx_po_");

  await page.goto("/dashboard/deposit-accounts");
  await expect(page.getByLabel("Customer reference")).toBeVisible();
  await expect(page.locator('[data-tech="End user (endUserRef)"]')).toHaveText("Customer reference");
  await expectNoJargon(page, ["endUserRef", "End user (endUserRef)"]);
  await checkPage(page, info, "words-deposit-accounts");

  // A chargeback's evidence sent empty: the API's "Send at least one file in `files`…" in plain words.
  await page.goto("/dashboard/claims");
  await page.getByTestId("claim-row").getByRole("link", { name: "Chargeback", exact: true }).click();
  const form = page.getByRole("form", { name: "Send evidence" });
  await form.getByRole("button", { name: "Send evidence" }).click();
  await expect(form.getByText("Add at least one file or write a statement before sending.")).toBeVisible();
  await expectNoJargon(page, ["`files`", " in files", " in text"]);
  await checkPage(page, info, "words-evidence");
});
