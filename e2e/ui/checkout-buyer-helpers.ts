// Shared set-up of the buyer-page browser tests (checkout-buyer-*.spec.ts; not a spec itself):
// each spec's merchant (made in its beforeAll through the worker's CLI), buyer data, API, SQL and
// simulated-provider calls, the axe-core scan and screenshot of a page, and the layout checks (fits
// the width, the phone's screen, reading groups kept whole).
import { expect, type Page, type TestInfo } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import pg from "pg";
import { cli } from "./dashboard-helpers";

export const BASE = process.env.BASE_URL ?? "http://127.0.0.1:3000";
export const CPF = "52998224725";
export const CURP = "PEPJ800101HDFRRN09";
export const customer = { firstName: "Ana", lastName: "Souza", email: "ana@example.com", phone: "+55 11 98765-4321" };
export const mxBuyer = { userName: "Juan Pérez", userEmail: "juan@example.com", userPhone: "+52 55 1234 5678", documentId: CURP };

// The merchant's sandbox and production keys, set by newBuyerMerchant (each spec's beforeAll).
export let key = "";
export let liveKey = "";
/** One merchant (Loja Azul) per spec and worker, through the worker's operator CLI. */
export async function newBuyerMerchant() {
  const m = await cli(["merchant:create", "--name", "Loja Azul"]);
  key = m.sandbox.secretKey;
  liveKey = m.production.secretKey;
}

export async function api(path: string, body?: unknown, bearer = key): Promise<{ status: number; body: any }> {
  const res = await fetch(`${BASE}/api/v1${path}`, { method: body === undefined ? "GET" : "POST", headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

export async function sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await c.connect();
  try {
    return (await c.query(text, params)).rows as T[];
  } finally {
    await c.end();
  }
}

/** The simulated provider's control API (scripts/psp/control-api.ts). */
export async function psp(path: string, body: unknown) {
  const res = await fetch(`${process.env.PROVIDER_PAGOSUR_URL}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
}

/** No serious or critical axe-core violation on the page as it is. */
export async function expectAxeClean(page: Page) {
  // Violations only: the passes' node lists axe would build otherwise are never read.
  const results = await new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join("; ")})`)).toEqual([]);
}

export async function checkPage(page: Page, info: TestInfo, name: string) {
  await expectAxeClean(page);
  await page.screenshot({ path: `e2e/screenshots/checkout-buyer-${name}-${info.project.name}.png`, fullPage: true });
}

/** No horizontal scroll: the page is no wider than the screen. */
export async function fitsWidth(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
}

export const money = (locale: string, currency: string, major: number) => new Intl.NumberFormat(locale, { style: "currency", currency }).format(major);
export const phone = async (page: Page, info: TestInfo) => {
  if (info.project.name === "phone") await page.setViewportSize({ width: 390, height: 844 });
};

/** A merchant of its own (a webhook registered on one must not change what another test's buyer reads). */
export async function newMerchantKey(name: string): Promise<string> {
  return (await cli(["merchant:create", "--name", name])).sandbox.secretKey;
}
/** The value of `testId` is written in groups, each on one line inside the screen (never broken inside). */
export async function expectGroupsWhole(page: Page, testId: string, atLeast: number) {
  const field = page.getByTestId(testId);
  const groups = await field.locator('[data-testid="reading-group"]').evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      const line = parseFloat(getComputedStyle(el).lineHeight);
      return { text: el.textContent ?? "", height: r.height, line, right: r.right, width: window.innerWidth };
    }),
  );
  expect(groups.length).toBeGreaterThanOrEqual(atLeast);
  for (const g of groups) {
    expect(g.height, `"${g.text}" on one line`).toBeLessThan(g.line * 1.5);
    expect(g.right, `"${g.text}" inside the screen`).toBeLessThanOrEqual(g.width);
  }
  expect((await field.innerText()).replace(/\s/g, "")).toBe(groups.map((g) => g.text).join(""));
}
