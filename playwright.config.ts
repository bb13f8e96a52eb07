import { defineConfig, devices } from "@playwright/test";

// Browser tests run in Debian's Chromium (never a downloaded browser) against the server that
// `npm test` started (BASE_URL).
export default defineConfig({
  testDir: "e2e/ui",
  outputDir: "test-results/playwright",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  // Whole flows (sign in, several pages, axe on each) on a 2-core machine that also runs the server.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json"]],
  use: {
    baseURL: process.env.BASE_URL ?? "http://127.0.0.1:3000",
    // Recording a trace of every test cost about a quarter of the suite's time; a failure keeps
    // its screenshot, and `npx playwright test --trace on <spec>` records one when needed.
    trace: "off",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
    },
  },
  projects: [
    { name: "desktop", use: { ...devices["Desktop Chrome"], channel: undefined } },
    // The merchant dashboard is built for desktops and tablets; the buyer pages for phones too.
    // The overview (its cards, charts and tooltips at 390 px), the payments search and the
    // experience spec (staff checking a payment or a payout) and the Shops page also run on a phone.
    { name: "phone", testIgnore: /dashboard(?!-overview|-experience|-payments-search|-shops)[^/]*\.spec\.ts$/, use: { ...devices["Pixel 7"], channel: undefined } },
    // A 10" tablet in portrait (iPad Air's 820 × 1180 viewport), in Chromium: the dashboard and
    // the buyer's checkout.
    { name: "tablet", testMatch: /(dashboard|checkout).*\.spec\.ts$/, use: { ...devices["Galaxy Tab S4"], viewport: { width: 820, height: 1180 }, deviceScaleFactor: 2, channel: undefined } },
  ],
});
