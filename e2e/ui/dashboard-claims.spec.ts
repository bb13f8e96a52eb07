// Answering a chargeback in the dashboard, in Debian's Chromium (desktop and tablet): the claims
// list links the chargeback with its due date, the claim page takes a PDF and a statement (both
// listed, the file downloadable), a file that is not a PDF/PNG/JPEG is refused next to the field,
// and the sandbox "won" decides it. Pages screenshotted and scanned with axe-core (checkPage).
import { test, expect } from "@playwright/test";
import { api, checkPage, nav, newMerchant, signIn } from "./dashboard-helpers";

test.describe.configure({ mode: "parallel" });

test("upload evidence to a chargeback, then win it in the sandbox", async ({ page }, info) => {
  const m = await newMerchant("dispute");
  const key = m.sandbox.secretKey;
  const made = await api("/payments", key, { amount: 42, paymentMethodId: "sbx_card" });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const id = made.body.transactionId;
  expect((await api(`/payments/${id}/simulate`, key, { action: "paid" })).status).toBe(200);
  expect((await api(`/payments/${id}/simulate`, key, { action: "chargeback" })).status).toBe(200);

  await signIn(page, m.owner);
  await nav(page, "Claims");
  const row = page.getByTestId("claim-row").first();
  await expect(row).toContainText("evidence due");
  await row.getByRole("link", { name: /^CLM-/ }).click();
  await expect(page.getByTestId("claim-status")).toHaveText(/open/i);
  await checkPage(page, info, "claim-open");

  const form = page.getByRole("form", { name: "Send evidence" });
  // A text file named .pdf: its bytes decide, and it is refused next to the field.
  await form.getByLabel("Files").setInputFiles({ name: "invoice.pdf", mimeType: "application/pdf", buffer: Buffer.from("not a pdf at all") });
  await form.getByRole("button", { name: "Send evidence" }).click();
  await expect(form.getByText(/is not a PDF, PNG or JPEG/)).toBeVisible();

  await form.getByLabel("Files").setInputFiles({ name: "invoice.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") });
  await form.getByLabel("Statement").fill("Delivered on 3 May, signed for by the buyer.");
  await form.getByRole("button", { name: "Send evidence" }).click();
  await expect(form.getByRole("status")).toContainText("2 item(s)");
  const evidence = page.getByRole("list", { name: "Evidence sent" });
  await expect(evidence.getByRole("link", { name: "invoice.pdf" })).toBeVisible();
  await expect(evidence).toContainText("Delivered on 3 May");
  const [download] = await Promise.all([page.waitForEvent("download"), evidence.getByRole("link", { name: "invoice.pdf" }).click()]);
  expect(download.suggestedFilename()).toBe("invoice.pdf");
  await checkPage(page, info, "claim-evidence");

  await page.getByRole("button", { name: "Simulate won" }).click();
  await expect(page.getByTestId("claim-status")).toHaveText(/won/i);
  await expect(page.getByRole("form", { name: "Send evidence" })).toHaveCount(0);
});

test("accept a chargeback behind a confirmation: it is lost once", async ({ page }) => {
  const m = await newMerchant("accept");
  const key = m.sandbox.secretKey;
  const made = await api("/payments", key, { amount: 30, paymentMethodId: "sbx_card" });
  const id = made.body.transactionId;
  await api(`/payments/${id}/simulate`, key, { action: "paid" });
  await api(`/payments/${id}/simulate`, key, { action: "chargeback" });
  const claims = await api(`/claims?transactionId=${id}`, key);
  await signIn(page, m.owner);
  await page.goto(`/dashboard/claims/${claims.body.data[0].id}`);
  await page.getByRole("button", { name: "Accept chargeback…" }).click();
  await page.getByRole("button", { name: "Yes, accept and lose it" }).dblclick();
  await expect(page.getByTestId("claim-status")).toHaveText(/lost/i);
  const after = await api(`/claims/${claims.body.data[0].id}`, key);
  expect(after.body.claim.status).toBe("lost");
  expect(after.body.claim.history.filter((h: { status: string }) => h.status === "lost")).toHaveLength(1);
});
