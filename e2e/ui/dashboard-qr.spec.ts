// "Charge with QR" in the dashboard (the desktop project): staff type an amount, the QR shows with
// its status; the counter screen opens on a phone-sized page; "Simulate paid" turns both paid
// without a reload. A shop that is not an establishment gets an explanation, not an error.
import { test, expect, devices } from "@playwright/test";
import { checkPage, nav, newMerchant, registerQr, signIn } from "./dashboard-helpers";

test.describe.configure({ mode: "parallel" });

test("create a QR charge, open the counter screen on a phone, simulate paid: both pages turn paid", async ({ page, browser }, info) => {
  const m = await newMerchant("qr-staff");
  await registerQr(m.shopId);
  await signIn(page, m.owner);
  await nav(page, "Charge with QR");
  await checkPage(page, info, "qr-empty");
  const form = page.getByRole("form", { name: "New QR charge" });
  await form.getByLabel("Amount (BRL)").fill("18,90");
  await form.getByLabel("Order reference").fill("mesa-12");
  await form.getByRole("button", { name: "Show QR code" }).click();
  const current = page.getByRole("region", { name: "QR code" });
  await expect(current).toContainText(/R\$\s18,90/);
  await expect(current.getByRole("img", { name: /PIX QR code/ })).toBeVisible();
  await expect(page.getByTestId("qr-order-status")).toHaveText("Waiting for payment");
  await expect(page.getByTestId("qr-row")).toHaveCount(1);
  await checkPage(page, info, "qr-pending");

  const href = await current.getByRole("link", { name: "Open counter screen" }).getAttribute("href");
  const phone = await browser.newContext({ ...devices["Pixel 7"], locale: "pt-BR" });
  const screen = await phone.newPage();
  await screen.goto(new URL(href!, page.url()).toString());
  await expect(screen.getByRole("heading", { level: 1, name: "Escaneie para pagar com PIX" })).toBeVisible();

  await current.getByRole("button", { name: "Simulate paid" }).click();
  await expect(page.getByTestId("qr-order-status")).toHaveText("Paid");
  await expect(screen.getByRole("heading", { level: 1, name: "Pagamento recebido" })).toBeVisible({ timeout: 15_000 });
  await phone.close();
});

test("a shop that is not a QR establishment is told how to become one", async ({ page }) => {
  const m = await newMerchant("qr-none");
  await signIn(page, m.owner);
  await nav(page, "Charge with QR");
  await expect(page.getByText("This shop cannot charge with QR yet")).toBeVisible();
  await expect(page.getByRole("form", { name: "New QR charge" })).toHaveCount(0);
});
