// The merchant's side of "a dashboard that is safe to click", on the desktop (the lists' layout
// on a tablet and a phone too): refunds reviewed and made once, a disputed payment that cannot be
// refunded, payouts reviewed, tables whose link column is whole and whose rows open their record,
// no sideways scroll, plain words instead of API jargon, and forms whose errors go away once
// fixed. Each page is screenshotted and scanned with axe-core (checkPage).
import { test, expect, type Page } from "@playwright/test";
import { api, checkPage, newMerchant, signIn } from "./dashboard-helpers";

test.describe.configure({ mode: "parallel" });

/** No sideways scroll of the page itself (a wide table scrolls inside its own region). */
async function expectNoHorizontalScroll(page: Page) {
  const { scroll, client, wide } = await page.evaluate(() => {
    const client = document.documentElement.clientWidth;
    // The outermost elements that stick out, to name the culprit when there is one.
    const clippedByAncestor = (e: Element) => {
      // Only an ancestor that also contains it clips it (an absolutely positioned element escapes
      // a scroll box that is not positioned).
      const absolute = getComputedStyle(e).position === "absolute";
      for (let a = e.parentElement; a; a = a.parentElement) {
        const style = getComputedStyle(a);
        if (style.overflowX !== "visible" && a.getBoundingClientRect().right <= client + 1 && (!absolute || style.position !== "static")) return true;
      }
      return false;
    };
    const wide = [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > client + 1 && !clippedByAncestor(e))
      .slice(-5)
      .map((e) => `${e.tagName.toLowerCase()}.${String(e.className).slice(0, 80)} "${(e.textContent ?? "").slice(0, 40)}"`);
    return { scroll: document.documentElement.scrollWidth, client, wide };
  });
  expect(scroll, `page width (${page.url()}): ${wide.join(" | ")}`).toBeLessThanOrEqual(client);
}

/** The link of every row in a table is shown whole: not cut by its cell or by the scroll region. */
async function expectLinksWhole(page: Page, rows: string) {
  const clipped = await page.locator(`[data-testid="${rows}"] a`).evaluateAll((links) =>
    links
      .filter((a) => {
        const r = a.getBoundingClientRect();
        const region = a.closest("[role=region]")?.getBoundingClientRect();
        return a.scrollWidth > a.clientWidth + 1 || (region !== undefined && (r.right > region.right + 1 || r.left < region.left - 1));
      })
      .map((a) => a.textContent),
  );
  expect(clipped, `clipped links in ${rows}`).toEqual([]);
}

async function completedPayment(key: string, amount: number, orderId: string) {
  const created = await api("/payments", key, { amount, paymentMethodId: "sbx_card", merchantOrderId: orderId });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id: string = created.body.transactionId;
  const paid = await api(`/payments/${id}/simulate`, key, { action: "paid" });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  return id;
}

test("refunds: reviewed first, an empty amount explained, a double click refunds once, the form resets, the status follows", async ({ page }, info) => {
  test.setTimeout(120_000);
  const m = await newMerchant("refund-review");
  const id = await completedPayment(m.sandbox.secretKey, 40, `rr-${Date.now()}`);
  await signIn(page, m.owner, { at: `/dashboard/payments/${id}` });
  await expect(page.getByTestId("payment-status")).toHaveText("Completed");
  await expect(page.getByText(/reference \d/)).toHaveCount(0);

  // The amount starts at what remains; emptied, it is explained in place instead of refunding everything.
  const amount = page.getByLabel(/^Amount \(/);
  const remaining = await amount.inputValue();
  expect(Number(remaining)).toBeGreaterThan(0);
  await amount.fill("");
  await page.getByRole("button", { name: "Review refund" }).click();
  await expect(page.getByText(/^Enter the amount to refund/)).toBeVisible();
  await expect(amount).toBeFocused();
  await expect(page.getByTestId("payment-claim")).toHaveCount(0);

  // Too much: checked against what remains before any confirmation is asked, next to the
  // amount, and gone as soon as it is edited.
  await amount.fill("100000");
  await page.getByRole("button", { name: "Review refund" }).click();
  const review = page.getByRole("group", { name: "Review: Refund" });
  await expect(amount).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText(/^Only .* can still be refunded/)).toBeVisible();
  await expect(review).toHaveCount(0);
  await expect(page.getByText(/`/)).toHaveCount(0);
  await amount.fill("5");
  await expect(amount).not.toHaveAttribute("aria-invalid", "true");

  // Review, Back keeps the value; then a double click on the confirmation refunds once.
  await page.getByRole("button", { name: "Review refund" }).click();
  await expect(review).toContainText("Refund $5.00 USD");
  await checkPage(page, info, "refund-review");
  await review.getByRole("button", { name: "Back" }).click();
  await expect(amount).toHaveValue("5");
  await page.getByRole("button", { name: "Review refund" }).click();
  await review.getByRole("button", { name: "Refund now" }).dblclick();
  await expect(page.getByRole("status").filter({ hasText: /^Refund of \$5\.00 USD/ })).toBeVisible();
  await expect(page.getByTestId("payment-claim")).toHaveCount(1);
  // The field is back at what now remains, not at the 5 just refunded.
  await expect(amount).not.toHaveValue("5");
  // The message follows the refund to its end, and the payment reads partially refunded.
  await expect(page.getByRole("status").filter({ hasText: /^Refund of \$5\.00 USD: refunded\./ })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("payment-status")).toHaveText("Partially refunded");
  const claims = await api(`/claims?transactionId=${id}`, m.sandbox.secretKey);
  expect(claims.body.data).toHaveLength(1);
  await checkPage(page, info, "payment-partially-refunded");
  // The list says it too (the API keeps `completed`).
  await page.goto("/dashboard/payments");
  await expect(page.locator(`[data-payment-id="${id}"]`)).toContainText("Partially refunded");
});

test("a payment with an open chargeback reads disputed and offers no refund", async ({ page }, info) => {
  test.setTimeout(120_000);
  const m = await newMerchant("disputed");
  const id = await completedPayment(m.sandbox.secretKey, 30, `cb-${Date.now()}`);
  await signIn(page, m.owner, { at: `/dashboard/payments/${id}` });
  await expect(page.getByRole("button", { name: "Review refund" })).toBeVisible();
  await page.getByRole("button", { name: "Simulate chargeback" }).click();
  await expect(page.getByTestId("payment-status")).toHaveText("Disputed");
  await expect(page.getByRole("button", { name: "Review refund" })).toHaveCount(0);
  await expect(page.getByText(/A chargeback is open on this payment/)).toBeVisible();
  await checkPage(page, info, "payment-disputed");
});

test("lists: the record's link is whole, a row opens its record, no sideways scroll", { tag: "@layout" }, async ({ page }) => {
  test.setTimeout(180_000);
  const m = await newMerchant("lists");
  const key = m.sandbox.secretKey;
  const recipient = { name: "Ana López", account: "002180001234567896", bankCode: "002", documentType: "RFC", documentId: "LOAA800101AB1" };
  const sent = await api("/me/payout/send", key, { methodId: "sbx_po_mx_spei", amount: 10, recipient });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const paid = await completedPayment(key, 20, `ls-${Date.now()}`);
  expect((await api(`/payments/${paid}/refund`, key, { amount: 1 })).status).toBeLessThan(300);
  await signIn(page, m.owner);

  // Payouts list: the id link whole, a click on the row's recipient opens the payout.
  await page.goto("/dashboard/payouts");
  await expect(page.getByTestId("payout-row")).toHaveCount(1);
  await expectLinksWhole(page, "payout-row");
  await expectNoHorizontalScroll(page);
  await page.getByTestId("payout-row").getByRole("cell", { name: /Ana López/ }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/payouts/${sent.body.payout.id}$`));
  await expect(page.getByText("Tracking key (clave de rastreo)")).toBeVisible();
  await expectNoHorizontalScroll(page);

  // Claims list: the same, and its reason in words.
  await page.goto("/dashboard/claims");
  await expect(page.getByTestId("claim-row")).toHaveCount(1);
  await expectLinksWhole(page, "claim-row");
  await expectNoHorizontalScroll(page);
  // A click on the row outside its links (the date: the kind stacks under the link below lg).
  await page.getByTestId("claim-row").locator('td[data-col="date"]').click();
  await expect(page).toHaveURL(/\/dashboard\/claims\/clm_|\/dashboard\/claims\/\w+/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

  // Every page of money out, and the payments list: no sideways scroll at this width.
  for (const path of ["/dashboard/payments", "/dashboard/payouts/funding", "/dashboard/payouts/send", "/dashboard/settlements", "/dashboard/withdrawals", "/dashboard/topups", "/dashboard/webhooks", "/dashboard/developers"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectNoHorizontalScroll(page);
  }
});

test("payouts are reviewed, a double click sends once, and the sandbox's sentence stays in the sandbox", async ({ page }, info) => {
  test.setTimeout(120_000);
  const m = await newMerchant("send-review");
  const key = m.sandbox.secretKey;
  const recipient = { name: "Ana López", account: "002180001234567896", bankCode: "002", documentType: "RFC", documentId: "LOAA800101AB1" };
  await signIn(page, m.owner);

  // The send form: a CLABE with a wrong check digit is refused before anything is sent; the
  // review shows what leaves; the sandbox sentence shows here. The sandbox offers the methods
  // that debit the balance (issue 41): MXN is funded first.
  expect((await api("/me/payout/fund-sandbox", key, { currency: "MXN", amount: 100 })).status).toBe(200);
  await page.goto("/dashboard/payouts/send");
  await expect(page.getByText("In the sandbox no bank is called", { exact: false })).toBeVisible();
  await expect(page.getByLabel("Method")).toHaveValue("po_mx_spei");
  await page.getByLabel(/^Amount \(/).fill("12");
  await page.getByLabel("Beneficiary name").fill(recipient.name);
  await page.getByLabel("CLABE").fill("002180001234567890");
  await page.getByLabel("Document number").fill(recipient.documentId);
  await page.getByRole("button", { name: "Review payout" }).click();
  await expect(page.getByLabel("CLABE")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("CLABE")).toBeFocused();
  await expect(page.getByRole("group", { name: "Review the payout" })).toHaveCount(0);
  await page.getByLabel("CLABE").fill(recipient.account);
  await page.getByRole("button", { name: "Review payout" }).click();
  const review = page.getByRole("group", { name: "Review the payout" });
  await expect(review).toContainText("$12.00 MXN");
  await expect(review).toContainText(recipient.account);
  await checkPage(page, info, "payout-send-review");
  await review.getByRole("button", { name: "Send payout" }).dblclick();
  await expect(page.getByRole("status").filter({ hasText: /^Payout of \$12\.00 MXN is processing\./ })).toBeVisible();
  const list = await api("/me/payout/send?limit=10", key);
  expect(list.body.data.filter((p: { amount: number }) => p.amount === 12)).toHaveLength(1);

  // Production: the sandbox-only sentence is gone.
  await page.goto("/dashboard");
  await page.getByRole("switch", { name: "Sandbox mode" }).click();
  await expect(page.getByRole("switch", { name: "Sandbox mode" })).toHaveAttribute("aria-checked", "false");
  await page.goto("/dashboard/payouts/send");
  await expect(page.getByRole("heading", { level: 1, name: "Payouts" })).toBeVisible();
  await expect(page.getByText(/In the sandbox no bank is called/)).toHaveCount(0);
  await checkPage(page, info, "payout-send-production");
});

test("plain words: no backticks or reference numbers on the pages; a form's error leaves once the field is fixed; the settlement destination is set from the dashboard", async ({ page }, info) => {
  test.setTimeout(120_000);
  const m = await newMerchant("plain");
  await signIn(page, m.owner, { at: "/dashboard/api-reference" });
  await expect(page.getByText("/payments/{id}/refund").first()).toBeVisible();
  expect(await page.locator("main").innerText()).not.toContain("`");

  // Transfer with nothing typed: the field's own message, no JSON names, gone once typed in.
  await page.goto("/dashboard/payouts/funding");
  await page.getByRole("button", { name: "Transfer", exact: true }).click();
  const field = page.getByLabel("Amount (USD)", { exact: true });
  await expect(field).toHaveAttribute("aria-invalid", "true");
  const described = await field.getAttribute("aria-describedby");
  const message = page.locator(`[id="${described!.split(" ").pop()}"]`);
  await expect(message).not.toContainText("`");
  await field.fill("1");
  await expect(field).not.toHaveAttribute("aria-invalid", "true");

  // Settlement destination: a wrong address is refused on the address, a right one is saved after review.
  await page.goto("/dashboard/settlements");
  await expect(page.getByText(/PUT \/api\/v1/)).toHaveCount(0);
  await page.getByLabel("Address").fill("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6X");
  await page.getByRole("button", { name: "Set destination" }).click();
  await page.getByRole("group", { name: "Review: Set the settlement destination" }).getByRole("button", { name: "Save destination" }).click();
  await expect(page.getByLabel("Address")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("Address").fill("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t");
  await page.getByRole("button", { name: "Set destination" }).click();
  await page.getByRole("group", { name: "Review: Set the settlement destination" }).getByRole("button", { name: "Save destination" }).click();
  await expect(page.getByTestId("settlement-destination")).toContainText("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t");
  await checkPage(page, info, "settlements-destination");
});
