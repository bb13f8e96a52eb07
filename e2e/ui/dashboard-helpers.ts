// Set-up for the dashboard's browser tests: merchants and dashboard users through the operator
// CLI (the same lib/ use cases), API calls over real HTTP, and the page checks every page gets
// (a screenshot and an axe-core scan).
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";
import path from "node:path";
import { expect, type Page, type TestInfo } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";

const root = path.resolve(import.meta.dirname, "../..");
export const BASE_URL = process.env.BASE_URL ?? "http://127.0.0.1:3000";
export const PASSWORD = "correct horse battery staple";

// One operator CLI per Playwright worker (`scripts/cli.ts --stdin`), started on first use and
// ended with the worker (its input closes). A tsx start per call cost about 3 s, hundreds of times.
// It answers in the order it was asked, one line each.
let operator: { child: ChildProcessWithoutNullStreams; waiting: Array<(line: string) => void> } | undefined;

function startOperator() {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/cli.ts", "--stdin"], { cwd: root, env: process.env, stdio: ["pipe", "pipe", "pipe"] });
  const started = { child, waiting: [] as Array<(line: string) => void> };
  let stderr = "";
  child.stderr.on("data", (d) => (stderr = (stderr + d).slice(-4000)));
  createInterface({ input: child.stdout }).on("line", (line) => started.waiting.shift()?.(line));
  child.on("exit", (code) => {
    if (operator === started) operator = undefined;
    for (const w of started.waiting.splice(0)) w(JSON.stringify({ code: code ?? 1, error: `operator CLI exited: ${stderr}` }));
  });
  child.unref();
  return started;
}

/** One operator command (arguments as on the command line); its JSON result, or it throws. */
export async function cli(args: string[]): Promise<any> {
  const op = (operator ??= startOperator());
  const answer = new Promise<string>((resolve) => op.waiting.push(resolve));
  op.child.stdin.write(`${JSON.stringify(args)}\n`);
  const { code, data, error } = JSON.parse(await answer);
  if (code !== 0) throw new Error(`operator ${args[0]}: ${error ?? `exit ${code}`}`);
  return data;
}

export type TestMerchant = { merchantId: string; shopId: string; sandbox: { secretKey: string; publishableKey: string }; owner: string };

/** A premium merchant with an owner; `timeZone` sets its time zone (IANA name; UTC otherwise). */
export async function newMerchant(label: string, opts: { timeZone?: string } = {}): Promise<TestMerchant> {
  const tag = `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const owner = `owner-${tag}@example.test`;
  const zone = opts.timeZone ? ["--time-zone", opts.timeZone] : [];
  const m = await cli(["merchant:create", "--name", `Shop ${tag}`, "--tier", "premium", "--email", owner, "--password", PASSWORD, ...zone]);
  return { ...m, owner };
}

/** Registers the merchant's shop for QR collection (operator CLI qr:register). */
export async function registerQr(shopId: string, name = "Padaria Sol", city = "Sao Paulo"): Promise<void> {
  await cli(["qr:register", "--shop", shopId, "--name", name, "--city", city, "--mcc", "5812"]);
}

export async function newUser(merchantId: string, role: "owner" | "developer" | "viewer"): Promise<string> {
  const email = `${role}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.test`;
  await cli(["user:create", "--merchant", merchantId, "--email", email, "--password", PASSWORD, "--role", role]);
  return email;
}

export async function api(pathname: string, key: string, body?: unknown) {
  const res = await fetch(`${BASE_URL}/api/v1${pathname}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/**
 * A new sandbox merchant ready to settle: a USDT destination and `payments` paid sbx_card
 * payments of 80 USD (pending until the settlement delay passes or "settle now").
 */
export async function merchantWithPaidPayments(label: string, payments = 2): Promise<TestMerchant> {
  const m = await newMerchant(label);
  const key = m.sandbox.secretKey;
  const put = await fetch(`${BASE_URL}/api/v1/me/settlement-destination`, {
    method: "PUT",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ asset: "USDT", network: "TRON", address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" }),
  });
  expect(put.status).toBe(200);
  for (let i = 0; i < payments; i++) {
    const p = await api("/payments", key, { amount: 80, paymentMethodId: "sbx_card" });
    expect((await api(`/payments/${p.body.transactionId}/simulate`, key, { action: "paid" })).status).toBe(200);
  }
  return m;
}

/**
 * Signed in through the sign-in page's form, landing on the Overview. For tests about signing in;
 * the others use `signIn`.
 */
export async function signInWithForm(page: Page, email: string, password = PASSWORD) {
  await page.goto("/dashboard/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // Password checks are memory-hard on purpose: on a busy 2-core machine they take seconds.
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible({ timeout: 20_000 });
}

/**
 * Signed in as `email` in the page's browser context, then on `at` (the Overview unless given): the
 * same credentials check as the form (Auth.js' own credentials callback: password, throttle,
 * second factor) posted over HTTP, whose session cookie lands in the context. The sign-in page and
 * its form are what `signInWithForm` (the owner's flow in dashboard.spec.ts) and
 * dashboard-accounts.spec.ts drive; every other test skips them (a page load and a form post
 * each), and a test that starts on another page skips the Overview too.
 */
export async function signIn(page: Page, email: string, { password = PASSWORD, at = "/dashboard" }: { password?: string; at?: string } = {}) {
  const csrf = await page.request.get("/api/auth/csrf");
  expect(csrf.status(), "Auth.js' csrf endpoint").toBe(200);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await page.request.post("/api/auth/callback/credentials", { form: { csrfToken, email, password, callbackUrl: "/dashboard" }, maxRedirects: 0 });
  // Signed in: a redirect into the dashboard; refused: a redirect back to the sign-in page with an error.
  expect(res.status(), `sign-in of ${email}`).toBe(302);
  expect(res.headers().location ?? "", `sign-in of ${email}`).not.toMatch(/error=|sign-in/);
  await page.goto(at);
  if (at === "/dashboard") await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible({ timeout: 20_000 });
}

/** Of a longer page the screenshot keeps the top (the API reference's whole page took 7 s to capture). */
const SCREENSHOT_MAX_HEIGHT = 4000;

/**
 * Screenshot to e2e/screenshots/ and an axe-core scan that fails on serious or critical violations.
 * Axe reports violations only (`resultTypes`): the passes' node lists it would build otherwise are
 * never read.
 */
export async function checkPage(page: Page, info: TestInfo, name: string) {
  // Every page has a title. Right after a server action's re-render the document can be without
  // one for a moment (axe once caught it so in CI): wait for it, and fail if it never comes.
  await expect(page).toHaveTitle(/\S/);
  const { width, height } = await page.evaluate(() => ({ width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight }));
  await page.screenshot({ path: `e2e/screenshots/dashboard-${name}-${info.project.name}.png`, fullPage: true, clip: height > SCREENSHOT_MAX_HEIGHT ? { x: 0, y: 0, width, height: SCREENSHOT_MAX_HEIGHT } : undefined });
  const results = await new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")})`), `axe on ${name}`).toEqual([]);
}

/** Follows a link of the dashboard's side navigation. */
export async function nav(page: Page, name: string) {
  await page.getByRole("navigation", { name: "Dashboard", exact: true }).getByRole("link", { name, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
}

/** Switches the dashboard's language from the header's picker and waits for the page to be drawn in it. */
export async function switchLanguage(page: Page, locale: "en" | "es" | "pt-BR") {
  await page.getByTestId("language-switch").selectOption(locale);
  await expect(page.locator(`[lang="${locale}"][data-environment]`)).toBeVisible({ timeout: 15_000 });
}
