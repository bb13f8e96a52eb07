// The Brazilian sandbox selector offers the country's test rails (issue 24, point 3): PIX, boleto
// and card, so "pay another way" after a PIX leads somewhere else; on the phone, tablet and
// desktop, in pt-BR. Screenshot e2e/screenshots/checkout-sandbox-rails-br-*.png and axe-core.
import { test, expect } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { execFileSync } from "node:child_process";

const BASE = process.env.BASE_URL ?? "http://127.0.0.1:3000";
const customer = { firstName: "Ana", lastName: "Souza", email: "ana@example.com", phone: "+55 11 98765-4321" };
let key = "";

test.beforeAll(() => {
  const out = execFileSync(process.execPath, ["--import", "tsx", "scripts/cli.ts", "merchant:create", "--name", "Loja Verde", "--json"], { env: process.env, encoding: "utf8" });
  key = JSON.parse(out.trim().split("\n").pop()!).sandbox.secretKey;
});

test("a Brazilian sandbox checkout offers PIX, boleto and card; boleto can be picked", async ({ page }, info) => {
  const res = await fetch(`${BASE}/api/v1/checkout/sessions`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ amount: 150, currency: "BRL", country: "BR", customer }) });
  const s = (await res.json()) as { sessionId: string };
  await page.goto(`/checkout/${s.sessionId}?locale=pt-BR`);
  const radios = page.locator('input[name="paymentMethodId"]');
  expect((await radios.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).sort()).toEqual(["1002", "1006", "sbx_pix"]);
  await expect(page.locator('label[for="method-1002"]')).toContainText(/Boleto/);
  await expect(page.locator('label[for="method-1006"]')).toContainText(/Cart/);
  await page.screenshot({ path: `e2e/screenshots/checkout-sandbox-rails-br-${info.project.name}.png`, fullPage: true });
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);

  await page.locator('label[for="method-1002"]').click();
  await page.getByLabel("Número do documento").fill("529.982.247-25");
  await page.getByRole("button", { name: "Continuar para o pagamento" }).click();
  await expect(page.getByText("Vencimento", { exact: true })).toBeVisible({ timeout: 15_000 });
});
