// Card installments on the Shops page (issue 42): an owner changes the shop's plan on Brazil's
// test card (only 3x and 6x, at least R$ 10,00 each), sees it after a reload and in the catalog
// the API answers (GET /payment-methods?amount=…), is told beside the field what is wrong with a
// bad minimum, and goes back to the default plan. A viewer reads the plan and has no form, and the
// action called directly refuses a viewer, and an owner's call for another merchant's shop. The
// owner's view at 390 px keeps every control and text whole. Screenshots and axe-core (checkPage).
import { test, expect, type Page } from "@playwright/test";
import { api, BASE_URL, checkPage, newMerchant, newUser, signIn } from "./dashboard-helpers";
import { findLayoutProblems } from "./layout-checks";

// Sign-in is memory-hard (argon2id): on a loaded 2-core machine it alone can take most of a minute.
test.setTimeout(180_000);

const BRAZIL = "Card installments: Card, Brazil (test)";
const MEXICO = "Card installments: Card, Mexico (test)";
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

async function openShops(page: Page, email: string) {
  await signIn(page, email, { at: "/dashboard/shops" });
  await expect(page.getByRole("heading", { level: 1, name: "Shops" })).toBeVisible({ timeout: 20_000 });
}

async function brazilOffer(secretKey: string, amount: number) {
  const r = await api(`/payment-methods?amount=${amount}`, secretKey);
  expect(r.status).toBe(200);
  return r.body.methods.find((m: { paymentMethodId: string }) => m.paymentMethodId === "sbx_br_card").installments;
}

/**
 * Calls a server action of the Shops page as the browser would, with the page's session: its id
 * read from the page's client chunks (as e2e/api/dashboard-session.ts does), the `{ok, …}` it answers.
 */
async function callShopsAction(page: Page, name: string, args: unknown[]): Promise<{ ok: boolean; error?: { code: string; param?: string } }> {
  const html = await (await page.request.get("/dashboard/shops")).text();
  let id: string | undefined;
  for (const src of [...html.matchAll(/src="(\/_next\/static\/[^"]+\.js)"/g)].map((m) => m[1]!)) {
    id = new RegExp(`"([0-9a-f]{40,})"[^"]{0,200}"${name}"`).exec(await (await page.request.get(src)).text())?.[1];
    if (id) break;
  }
  expect(id, `server action ${name} in the Shops page's chunks`).toBeTruthy();
  const res = await page.request.post("/dashboard/shops", { headers: { "next-action": id!, origin: BASE_URL, accept: "text/x-component", "content-type": "text/plain;charset=UTF-8" }, data: JSON.stringify(args) });
  const line = /\{"ok":(true|false),.*$/m.exec(await res.text());
  expect(line, "an action result").toBeTruthy();
  return JSON.parse(line![0]);
}

const THREE_ONLY = { counts: ["3"], minInstallment: "10.00", paidBy: "merchant" };

test("an owner offers only 3x and 6x of at least R$ 10,00 on Brazil's test card, is told of a bad minimum, and goes back to the default", async ({ page }, info) => {
  const m = await newMerchant("installments");
  await openShops(page, m.owner);
  const brazil = page.getByRole("region", { name: BRAZIL, exact: true });
  await expect(brazil).toContainText("Default plan");
  await expect(brazil.getByRole("list").first()).toContainText("2x: 2.49%");
  await expect(page.getByRole("region", { name: MEXICO, exact: true })).toContainText("3x, 6x, 9x, 12x");

  const form = brazil.getByRole("form", { name: "Change the installment plan on Card, Brazil (test)" });
  for (const n of range(2, 12)) await form.getByRole("checkbox", { name: `${n}x`, exact: true }).setChecked(n === 3 || n === 6);
  await form.getByLabel("Minimum per installment (BRL)").fill("10,00");
  await expect(form.getByRole("radio", { name: /The shop \(sem juros/ })).toBeChecked();
  await form.getByRole("button", { name: "Save plan" }).click();
  await expect(brazil.getByRole("status")).toHaveText("Plan saved.");
  const current = brazil.getByRole("definition").first();
  await expect(current).toHaveText("3x, 6x");
  await expect(brazil).toContainText(/Minimum per installment\s*R\$\s10,00/);
  await expect(brazil).toContainText("Own plan");
  await checkPage(page, info, "installments-saved");

  await page.reload();
  await expect(page.getByRole("region", { name: BRAZIL, exact: true }).getByRole("definition").first()).toHaveText("3x, 6x");
  await expect(page.getByRole("region", { name: BRAZIL, exact: true })).toContainText(/R\$\s10,00/);
  // The catalog buyers' checkouts read: R$ 60,00 is 3 of R$ 20,00 or 6 of R$ 10,00.
  const offer = await brazilOffer(m.sandbox.secretKey, 60);
  expect([offer.counts, offer.minInstallment, offer.paidBy]).toEqual([[3, 6], 10, "merchant"]);
  expect(offer.options.map((o: { count: number; amount: number }) => [o.count, o.amount])).toEqual([[3, 20], [6, 10]]);

  // A minimum that is not an amount is refused beside its field, in plain words; nothing changes.
  const again = page.getByRole("region", { name: BRAZIL, exact: true }).getByRole("form", { name: "Change the installment plan on Card, Brazil (test)" });
  const min = again.getByLabel("Minimum per installment (BRL)");
  await min.fill("ten reais");
  await again.getByRole("button", { name: "Save plan" }).click();
  await expect(min).toHaveAttribute("aria-invalid", "true");
  await expect(min).toBeFocused();
  await expect(again.getByText("Enter the minimum per installment as an amount in BRL above zero, with at most two decimals (for example 5.00).")).toBeVisible();
  await checkPage(page, info, "installments-error");
  await min.fill("0");
  await again.getByRole("button", { name: "Save plan" }).click();
  await expect(again.getByText(/as an amount in BRL above zero/)).toBeVisible();
  expect((await brazilOffer(m.sandbox.secretKey, 60)).minInstallment).toBe(10);

  // No count chosen: said in the browser, nothing sent.
  for (const n of [3, 6]) await again.getByRole("checkbox", { name: `${n}x`, exact: true }).uncheck();
  await again.getByRole("button", { name: "Save plan" }).click();
  await expect(again.getByText("Choose at least one number of installments.")).toBeVisible();

  const region = page.getByRole("region", { name: BRAZIL, exact: true });
  await region.getByRole("button", { name: "Back to the default plan" }).click();
  await expect(region.getByRole("status")).toHaveText("Back to the default plan.");
  await expect(region.getByRole("definition").first()).toHaveText(range(2, 12).map((n) => `${n}x`).join(", "));
  await expect(region).toContainText("Default plan");
  await expect(region.getByRole("button", { name: "Back to the default plan" })).toHaveCount(0);
  const back = await brazilOffer(m.sandbox.secretKey, 60);
  expect([back.counts, back.minInstallment]).toEqual([range(2, 12), 5]);

  // Scope: another merchant's shop is no shop of this owner's, and a production rail is not the sandbox's.
  const other = await newMerchant("installments-other");
  expect((await callShopsAction(page, "setInstallmentPlanAction", [other.shopId, "sbx_br_card", THREE_ONLY])).error).toMatchObject({ code: "shop_not_found", param: "shopId" });
  expect((await callShopsAction(page, "setInstallmentPlanAction", [m.shopId, "1006", THREE_ONLY])).error).toMatchObject({ code: "installments_unavailable" });
  expect((await brazilOffer(other.sandbox.secretKey, 60)).counts).toEqual(range(2, 12));
});

test("a viewer reads the installment plans and has no form to change them", async ({ page }, info) => {
  const m = await newMerchant("installments-viewer");
  const viewer = await newUser(m.merchantId, "viewer");
  await openShops(page, viewer);
  const brazil = page.getByRole("region", { name: BRAZIL, exact: true });
  await expect(brazil.getByRole("definition").first()).toHaveText(range(2, 12).map((n) => `${n}x`).join(", "));
  await expect(brazil).toContainText("The shop (sem juros / sin intereses)");
  await expect(brazil).toContainText("Only owners change the installment plan.");
  await expect(page.getByRole("button", { name: "Save plan" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Back to the default plan" })).toHaveCount(0);
  // Keys stay the owners'.
  await expect(page.locator("body")).not.toContainText(m.sandbox.publishableKey);
  await checkPage(page, info, "installments-viewer");
  // Called directly, the action refuses the viewer and nothing changes.
  expect((await callShopsAction(page, "setInstallmentPlanAction", [m.shopId, "sbx_br_card", THREE_ONLY])).error).toMatchObject({ code: "forbidden" });
  expect((await callShopsAction(page, "resetInstallmentPlanAction", [m.shopId, "sbx_br_card"])).error).toMatchObject({ code: "forbidden" });
  expect((await brazilOffer(m.sandbox.secretKey, 60)).counts).toEqual(range(2, 12));
});

test("the owner's installment forms at 390 px: every control and text whole", { tag: "@layout" }, async ({ page }, info) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const m = await newMerchant("installments-narrow");
  await openShops(page, m.owner);
  // Measured on the page (about:blank on an emulated phone lays out at 980 px).
  expect(await page.evaluate(() => document.documentElement.clientWidth)).toBe(390);
  const mexico = page.getByRole("region", { name: MEXICO, exact: true });
  await expect(mexico.getByRole("form", { name: "Change the installment plan on Card, Mexico (test)" })).toBeVisible();
  await expect(mexico.getByRole("checkbox", { name: "18x", exact: true })).not.toBeChecked();
  // The installment boxes themselves: nothing of theirs past the window's edge or cut.
  const problems = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    for (const region of document.querySelectorAll("section[aria-labelledby]")) {
      if (!region.querySelector("h3")?.textContent?.startsWith("Card installments")) continue;
      if (region.scrollWidth > region.clientWidth + 1) out.push(`${region.querySelector("h3")!.textContent}: scrolls sideways`);
      for (const el of region.querySelectorAll("*")) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue;
        if (r.left < -1 || r.right > width + 1) out.push(`${el.tagName.toLowerCase()} "${(el.textContent ?? "").trim().slice(0, 40)}" past the window (${Math.round(r.left)}-${Math.round(r.right)} of ${width})`);
        if (el instanceof HTMLButtonElement && r.height > 48) out.push(`button "${el.textContent}" broken across lines`);
      }
    }
    return out;
  });
  expect(problems).toEqual([]);
  // The whole page's check, which also judges the keys and methods above (not this spec's): told, not failed on.
  const whole = await page.evaluate(findLayoutProblems);
  if (whole.length) info.annotations.push({ type: "layout", description: whole.join("\n") });
  await checkPage(page, info, "installments-390");
});
