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
  // Where a test runs is said by its tags (Playwright matches `grep` against the title and tags):
  //   untagged  behaviour (flows, roles, money moving, isolation): once, on the desktop;
  //   @layout   assertions that depend on the screen (what is in view, sideways scroll, charts,
  //             lines kept whole): on all three;
  //   @wide     the dashboard's layout at 1366 and 820 px (its lists are built for 820 px and up):
  //             desktop and tablet;
  //   @buyer    a buyer page's behaviour: once, on the phone (buyers pay on phones);
  //   @till     the QR counter screen on a tablet at the till: once, on the tablet.
  // Every page still gets its axe-core scan (checkPage) at least once, each buyer page on the phone.
  // Running every flow on all three projects cost twice the suite's time for the same assertions.
  projects: [
    // The merchant dashboard is built for desktops first: its flows run here, at 1280 px (some
    // specs resize to the 1366 px laptop); the buyer pages' layout tests and the keyboard-only checkout too.
    { name: "desktop", grepInvert: /@buyer|@till/, use: { ...devices["Desktop Chrome"], channel: undefined } },
    // The buyer pages are used on phones: every buyer test runs here. Of the dashboard, the
    // screen-dependent tests of the overview (its cards, charts and tooltips at 390 px), the lists
    // (no sideways scroll on any page of money out) and the Shops page.
    { name: "phone", grep: /@layout|@buyer/, use: { ...devices["Pixel 7"], channel: undefined } },
    // A 10" tablet in portrait (iPad Air's 820 × 1180 viewport), in Chromium: the screen-dependent
    // tests of the dashboard and the buyer pages, and the QR counter at the till.
    { name: "tablet", grep: /@layout|@wide|@till/, use: { ...devices["Galaxy Tab S4"], viewport: { width: 820, height: 1180 }, deviceScaleFactor: 2, channel: undefined } },
  ],
});
