// The Shops page, in Debian's Chromium (desktop at 1366 px; the owner's view on a tablet and a phone too): an owner sees every
// shop of the merchant (the one merchant:create opened and one from shop:create) with its status,
// its keys per environment and its payment methods; a developer is told only owners see it.
// Screenshots and an axe-core scan (checkPage).
import { test, expect, type Page } from "@playwright/test";
import { checkPage, cli, nav, newMerchant, newUser, signIn } from "./dashboard-helpers";

async function createShop(merchantId: string, name: string) {
  return (await cli(["shop:create", "--merchant", merchantId, "--name", name])) as { shopId: string; sandbox: { publishableKey: string; secretKey: string }; production: { publishableKey: string; secretKey: string } };
}

test.describe.configure({ mode: "parallel" });

// Sign-in is memory-hard (argon2id): on a loaded 2-core machine it alone can take most of a minute.
test.setTimeout(180_000);

test.beforeEach(async ({ page }, info) => {
  if (info.project.name === "desktop") await page.setViewportSize({ width: 1366, height: 900 });
});

/** The side navigation on desktop and tablet; on a phone it sits in a menu, so go by URL. */
async function openShops(page: Page, phone: boolean) {
  if (phone) {
    await page.goto("/dashboard/shops");
    await expect(page.getByRole("heading", { level: 1, name: "Shops" })).toBeVisible();
  } else await nav(page, "Shops");
}

test("an owner sees each shop with its status, keys per environment and methods", { tag: "@layout" }, async ({ page }, info) => {
  const m = await newMerchant("shops");
  const second = await createShop(m.merchantId, "Outlet Norte");
  await signIn(page, m.owner);
  await openShops(page, info.project.name === "phone");
  const first = page.getByRole("region", { name: `Shop ${m.owner.replace(/^owner-|@example\.test$/g, "")}`, exact: true });
  const outlet = page.getByRole("region", { name: "Outlet Norte", exact: true });
  await expect(outlet).toBeVisible();
  await expect(first).toBeVisible();
  await expect(outlet).toContainText(second.shopId);
  await expect(outlet).toContainText("Active");
  const keys = outlet.getByRole("table", { name: "Keys of Outlet Norte" });
  await expect(keys.getByRole("row", { name: /Sandbox/ })).toContainText(second.sandbox.publishableKey);
  await expect(keys.getByRole("row", { name: /Production/ })).toContainText(second.production.publishableKey);
  // The secret is never on the page: only its last four characters.
  await expect(keys).toContainText(`sk_test_…${second.sandbox.secretKey.slice(-4)}`);
  await expect(page.locator("body")).not.toContainText(second.sandbox.secretKey);
  await expect(outlet.getByRole("list", { name: "Methods on for Outlet Norte" }).getByRole("listitem").first()).toBeVisible();
  await expect(first).toContainText(m.shopId);
  await checkPage(page, info, "shops");
});

test("a developer does not see the Shops page", async ({ page }) => {
  const m = await newMerchant("shops-dev");
  const dev = await newUser(m.merchantId, "developer");
  await signIn(page, dev);
  await expect(page.locator('a[href="/dashboard/shops"]')).toHaveCount(0);
  await page.goto("/dashboard/shops");
  await expect(page.getByText("Only owners see the shops")).toBeVisible();
});
