// Answering a chargeback in the dashboard, in Debian's Chromium (the desktop project): the claims
// list links the chargeback with its due date, the claim page takes a PDF and a statement (both
// listed, the file downloadable as sent), a file that is not a PDF/PNG/JPEG or is over 5 MiB is
// refused next to the field, and the sandbox "won" decides it. Pages screenshotted and scanned with axe-core (checkPage).
import { test, expect } from "@playwright/test";
import PDFDocument from "pdfkit";
import { api, checkPage, nav, newMerchant, signIn } from "./dashboard-helpers";

/** A real one-page PDF (pdfkit), as a merchant's invoice would be. */
function invoicePdf(): Promise<Buffer> {
  const doc = new PDFDocument({ size: "A4" });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on("end", () => resolve(Buffer.concat(chunks))));
  doc.fontSize(14).text("Invoice 0042: delivered and signed for on 3 May.");
  doc.end();
  return done;
}

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
  await nav(page, "Refunds and chargebacks");
  const row = page.getByTestId("claim-row").first();
  // The answer window counts down in whole days, never promising more than is left.
  await expect(row.getByTestId("due-countdown")).toHaveText(/^Evidence due: \d+ days left · due /);
  await row.getByRole("link", { name: "Chargeback" }).click();
  await expect(page.getByTestId("claim-status")).toHaveText(/open/i);
  await checkPage(page, info, "claim-open");

  const form = page.getByRole("form", { name: "Send evidence" });
  // A text file named .pdf: its bytes decide, and it is refused next to the field.
  await form.getByLabel("Files").setInputFiles({ name: "invoice.pdf", mimeType: "application/pdf", buffer: Buffer.from("not a pdf at all") });
  await form.getByRole("button", { name: "Send evidence" }).click();
  await expect(form.getByText(/is not a PDF, PNG or JPEG/)).toBeVisible();

  // Over 5 MiB: refused next to the field before it is sent.
  await form.getByLabel("Files").setInputFiles({ name: "scan.pdf", mimeType: "application/pdf", buffer: Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(6 * 1024 * 1024, 0x20)]) });
  await form.getByRole("button", { name: "Send evidence" }).click();
  await expect(form.getByText(/at most 5 MiB/)).toBeVisible();

  const pdf = await invoicePdf();
  await form.getByLabel("Files").setInputFiles({ name: "invoice.pdf", mimeType: "application/pdf", buffer: pdf });
  await form.getByLabel("Statement").fill("Delivered on 3 May, signed for by the buyer.");
  await form.getByRole("button", { name: "Send evidence" }).click();
  await expect(form.getByRole("status")).toContainText("2 item(s)");
  const evidence = page.getByRole("list", { name: "Evidence sent" });
  await expect(evidence.getByRole("link", { name: "invoice.pdf" })).toBeVisible();
  await expect(evidence).toContainText("Delivered on 3 May");
  const [download] = await Promise.all([page.waitForEvent("download"), evidence.getByRole("link", { name: "invoice.pdf" }).click()]);
  expect(download.suggestedFilename()).toBe("invoice.pdf");
  const saved = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const c of saved) chunks.push(c as Buffer);
  expect(Buffer.concat(chunks).equals(pdf)).toBe(true);
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
  await signIn(page, m.owner, { at: `/dashboard/claims/${claims.body.data[0].id}` });
  await page.getByRole("button", { name: "Accept chargeback…" }).click();
  await page.getByRole("button", { name: "Yes, accept and lose it" }).dblclick();
  await expect(page.getByTestId("claim-status")).toHaveText(/lost/i);
  const after = await api(`/claims/${claims.body.data[0].id}`, key);
  expect(after.body.claim.status).toBe("lost");
  expect(after.body.claim.history.filter((h: { status: string }) => h.status === "lost")).toHaveLength(1);
});
