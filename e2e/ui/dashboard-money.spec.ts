// Money as the store asked it (issue 41, point 4), at 1366 and 820 px (@wide): in the overview's
// recent payments, the payments list and a payment's page, a payment leads with the amount the
// store asked in its currency's own format (R$ 100,00), USD beside it; a payment asked in USD
// leads with USD, what the buyer paid beside it; and no page mixes in the old "100.00 BRL"
// format. Screenshots and axe-core on each page (checkPage).
import { test, expect, type Page } from "@playwright/test";
import { api, checkPage, newMerchant, signIn } from "./dashboard-helpers";

test.beforeEach(async ({ page }, info) => {
  if (info.project.name === "desktop") await page.setViewportSize({ width: 1366, height: 768 });
});

const CPF = "52998224725";
const BUYER = { userName: "Ana Souza", userEmail: "ana@example.com", documentId: CPF };

/** An amount written the old way, its code after bare digits ("18.15 USD", "100.00 BRL"). */
const OLD_FORMAT = /(?<![$\d.,])\d[\d,]*\.\d{2}\s(?:USD|BRL|MXN)\b/;

async function expectOneFormat(page: Page) {
  const text = await page.locator("main").innerText();
  expect(text, `an amount in the old format on ${page.url()}`).not.toMatch(OLD_FORMAT);
}

async function paid(key: string, body: Record<string, unknown>): Promise<string> {
  const made = await api("/payments", key, body);
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  expect((await api(`/payments/${made.body.transactionId}/simulate`, key, { action: "paid" })).status).toBe(200);
  return made.body.transactionId;
}

test("lists and the overview lead with the amount the store asked, in its own format, USD beside it; one format per page", { tag: "@wide" }, async ({ page }, info) => {
  test.setTimeout(120_000);
  const m = await newMerchant("money");
  const key = m.sandbox.secretKey;
  const inBrl = await paid(key, { amount: 100, currency: "BRL", paymentMethodId: "sbx_pix", ...BUYER });
  const inUsd = await paid(key, { amount: 20, paymentMethodId: "sbx_pix", ...BUYER });

  const expectRows = async () => {
    const brl = page.locator(`[data-payment-id="${inBrl}"]`);
    await expect(brl.getByTestId("row-amount-lead")).toHaveText(/^R\$\s100,00$/);
    await expect(brl.getByTestId("row-amount-beside")).toHaveText(/^\$\d+\.\d{2} USD$/);
    const usd = page.locator(`[data-payment-id="${inUsd}"]`);
    await expect(usd.getByTestId("row-amount-lead")).toHaveText("$20.00 USD");
    await expect(usd.getByTestId("row-amount-beside")).toHaveText(/^R\$\s\d+,\d{2}$/);
    // The asked amount is on top, the other beneath it, both inside the cell.
    const [lead, beside] = [await brl.getByTestId("row-amount-lead").boundingBox(), await brl.getByTestId("row-amount-beside").boundingBox()];
    expect(lead!.y + lead!.height, "the asked amount above the USD one").toBeLessThanOrEqual(beside!.y + 1);
  };

  await signIn(page, m.owner);
  await expectRows();
  await expect(page.getByRole("definition").filter({ hasText: /USD/ }).first()).toHaveText(/^-?\$[\d,]+\.\d{2} USD$/);
  await expectOneFormat(page);
  await checkPage(page, info, "money-overview");

  await page.goto("/dashboard/payments");
  await expectRows();
  await expectOneFormat(page);
  await checkPage(page, info, "money-payments");

  await page.goto(`/dashboard/payments/${inBrl}`);
  await expect(page.getByTestId("payment-asked")).toHaveText(/^R\$\s100,00$/);
  await expect(page.getByTestId("payment-usd")).toHaveText(/^\$\d+\.\d{2} USD$/);
  await expect(page.locator("dt").filter({ hasText: "Paid by the buyer" }).locator("xpath=following-sibling::dd")).toHaveText(/^R\$\s100,00$/);
  await expectOneFormat(page);
  await checkPage(page, info, "money-payment");
});
