// Every dashboard page whole on a 1366 x 768 laptop (the desktop project, resized) and an
// 820 x 1180 tablet (issue 41 point 1): with the longest values the data allows (a long shop
// name, long e-mails, a partially refunded and disputed payment, the largest amounts each rail
// takes in MXN, BRL and COP, a long webhook URL, long names of recipients and payers), no cell
// is cut, no control is off-screen or an empty box, and no page scrolls sideways
// (`findLayoutProblems` in layout-checks.ts, proved first on planted faults). The API
// reference is a document page of its own layout and is checked for sideways scroll only.
// Screenshots and axe-core on each page (checkPage).
import { test, expect, type Page, type TestInfo } from "@playwright/test";
import { api, BASE_URL, checkPage, cli, PASSWORD, registerQr, signIn, type TestMerchant } from "./dashboard-helpers";
import { expectWhole, findLayoutProblems } from "./layout-checks";
import { settleDueBalances } from "../../lib/settlements/settle-balances";
import { closeDueSettlements } from "../../lib/settlements/close-due-settlements";

test.describe.configure({ mode: "parallel" });

async function laptopOrTablet(page: Page, info: TestInfo) {
  if (info.project.name === "desktop") await page.setViewportSize({ width: 1366, height: 768 });
}

test("the checker reports a planted clip, ellipsis, off-screen control, empty select, broken label and sideways scroll; a clean page has none", { tag: "@wide" }, async ({ page }, info) => {
  await laptopOrTablet(page, info);
  await page.setContent(`<!doctype html><html><head><meta name="viewport" content="width=device-width"></head><body style="margin:0;font:14px sans-serif">
    <table><tr><td data-col="created" style="max-width:40px;overflow:hidden;white-space:nowrap">Dec 2, 2026, 14:05 GMT-3</td>
      <td data-col="email" style="max-width:60px"><span style="display:block;overflow:hidden;text-overflow:ellipsis;white-space:nowrap">maria.fernanda@example.com</span></td>
      <td data-col="name" style="width:30px;max-width:30px;white-space:nowrap">Distribuidora</td></tr></table>
    <div data-testid="team-row"><select aria-label="Role" style="width:12px"><option>Developer</option></select></div>
    <button style="position:absolute;left:3000px;top:0">Remove</button>
    <button style="width:12px;padding:0;overflow-wrap:anywhere">Copy</button>
    <div data-testid="scroller" style="width:200px;overflow-x:auto"><div style="width:600px;display:flex;justify-content:space-between">Last rolled <a href="#">Roll key</a></div></div>
    <span class="sr-only" style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap">visually hidden labels are not judged</span>
    </body></html>`);
  const problems = await page.evaluate(findLayoutProblems);
  const has = (re: RegExp) => expect(problems.some((p) => re.test(p)), `${re} in ${JSON.stringify(problems, null, 1)}`).toBe(true);
  has(/^the page scrolls sideways/);
  has(/^content clipped: .*td\[data-col=created\] "Dec 2, 2026/);
  has(/^text cut with an ellipsis: .*span "maria\.fernanda@example\.com"/);
  has(/^text runs out of its cell: .*td\[data-col=name\] "Distribuidora"/);
  has(/^select narrower than its choice: .*\[data-testid=team-row\] > select/);
  has(/^control outside the window: button "Remove"/);
  has(/^control's words broken across lines: button "Copy"/);
  has(/^scrolls sideways \(content behind the edge\): div\[data-testid=scroller\]/);
  has(/^control behind the edge of a box: .*a "Roll key"/);
  expect(problems.filter((p) => p.includes("visually hidden"))).toEqual([]);

  await page.setContent(`<!doctype html><html><head><meta name="viewport" content="width=device-width"></head><body style="margin:0;font:14px sans-serif">
    <table><tr><td>Dec 2, 2026, 14:05 GMT-3</td><td style="overflow-wrap:anywhere">maria.fernanda@example.com</td></tr></table>
    <select aria-label="Role"><option>Developer</option></select> <button>Remove</button>
    <pre style="width:100px;overflow-x:auto">{"a code line may scroll": true}</pre></body></html>`);
  expect(await page.evaluate(findLayoutProblems)).toEqual([]);
});

// The longest values the API and the rails allow (rails.ts limits at the sandbox rates).
const LONG_NAME = "María Fernanda de los Ángeles López García de la Cruz";
const LONG_EMAIL = (tag: string) => `maria.fernanda.lopez.garcia.de.la.cruz+facturacion-${tag}@distribuidora-del-valle.com.mx`;
const LONG_ORDER = (i: number) => `pedido-sucursal-centro-historico-cdmx-2026-12-${i}-${Date.now()}`.padEnd(120, "x").slice(0, 120);
// A loopback literal (the sandbox accepts it; a made-up host would have to resolve), with a long path.
const LONG_URL = "http://127.0.0.1:9/integraciones/distribuidora-de-alimentos-organicos-del-valle/api/v2/notificaciones/pagos-latinoamerica/webhooks/recibir?sucursal=centro-historico&canal=tienda-en-linea";
const SPEI_RECIPIENT = { name: LONG_NAME, account: "002010077777777771", bankCode: "002", documentType: "RFC", documentId: "LOAA800101AB1" };

async function ok(what: string, r: Promise<{ status: number; body: any }>) {
  const { status, body } = await r;
  expect(status, `${what}: ${JSON.stringify(body)}`).toBeLessThan(300);
  return body;
}

async function paid(key: string, body: Record<string, unknown>): Promise<string> {
  const p = await ok("payment", api("/payments", key, body));
  await ok("paid", api(`/payments/${p.transactionId}/simulate`, key, { action: "paid" }));
  return p.transactionId;
}

type Seeded = { m: TestMerchant; disputed: string; claimId: string; payoutId: string; accountId: string; webhookId: string; inboxId: string };

/** One merchant with every kind of record, each carrying the longest values it may. */
async function seed(): Promise<Seeded> {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const owner = LONG_EMAIL(`owner-${tag}`);
  const merchantName = `Distribuidora de Alimentos Orgánicos del Valle de México ${tag}`;
  const m: TestMerchant = { ...(await cli(["merchant:create", "--name", merchantName, "--tier", "premium", "--email", owner, "--password", PASSWORD, "--time-zone", "America/Sao_Paulo"])), owner };
  const key = m.sandbox.secretKey;
  await cli(["shop:create", "--merchant", m.merchantId, "--name", `Sucursal Centro Histórico de la Ciudad de México ${tag}`]);
  await cli(["user:create", "--merchant", m.merchantId, "--email", LONG_EMAIL(`dev-${tag}`), "--password", PASSWORD, "--role", "developer"]);
  await cli(["user:create", "--merchant", m.merchantId, "--email", LONG_EMAIL(`viewer-${tag}`), "--password", PASSWORD, "--role", "viewer"]);
  const put = await fetch(`${BASE_URL}/api/v1/me/settlement-destination`, { method: "PUT", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ asset: "USDT", network: "TRON", address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" }) });
  expect(put.status).toBe(200);
  const buyer = { userName: LONG_NAME, userEmail: LONG_EMAIL(`buyer-${tag}`) };

  // The largest each rail takes: USD by card, MXN by SPEI (25,000 USD at 18.20), BRL by PIX, COP by PSE (12,000 USD at 4,100).
  const disputed = await paid(key, { amount: 99_999.99, paymentMethodId: "sbx_card", merchantOrderId: LONG_ORDER(1), ...buyer });
  await ok("partial refund", api(`/payments/${disputed}/refund`, key, { amount: 30 }));
  await ok("chargeback", api(`/payments/${disputed}/simulate`, key, { action: "chargeback" }));
  await paid(key, { amount: 454_999.99, currency: "MXN", paymentMethodId: "sbx_spei", merchantOrderId: LONG_ORDER(2), documentId: "GODE561231GR8", ...buyer });
  await paid(key, { amount: 99_999.99, currency: "BRL", paymentMethodId: "sbx_pix", merchantOrderId: LONG_ORDER(3), documentId: "52998224725", ...buyer });
  await paid(key, { amount: 49_199_999.99, currency: "COP", paymentMethodId: "sbx_pse", merchantOrderId: LONG_ORDER(4), documentId: "1020304050", ...buyer });
  for (let i = 5; i < 8; i++) await paid(key, { amount: 99_999.99, paymentMethodId: "sbx_card", merchantOrderId: LONG_ORDER(i), ...buyer });
  const claims = await ok("claims", api(`/claims?transactionId=${disputed}`, key));
  const claimId = claims.data.find((c: { type: string }) => c.type === "chargeback")?.id ?? claims.data[0].id;

  const account = await ok("deposit account", api("/me/deposit-accounts", key, { endUserRef: `cliente-mayorista-${tag}`, name: LONG_NAME, email: LONG_EMAIL(`payer-${tag}`) }));
  const accountId = account.account.id as string;
  await ok("deposit", api(`/me/deposit-accounts/${accountId}/simulate-deposit`, key, { amount: 454_999.99, payerName: LONG_NAME, payerBank: "BBVA Bancomer, S.A., Institución de Banca Múltiple", trackingKey: "MBAN01002611260000123456789012" }));

  const webhookId = (await ok("webhook", api("/webhooks", key, { url: LONG_URL, events: ["*"] }))).id as string;
  const inboxId = (await ok("inbox", api("/webhooks", key, { events: ["*"] }))).id as string;

  await ok("fund payouts", api("/me/payout/fund-sandbox", key, { currency: "MXN", amount: 450_000 }));
  const payout = await ok("payout", api("/me/payout/send", key, { methodId: "sbx_po_mx_spei", amount: 449_999.99, recipient: SPEI_RECIPIENT }));
  const payoutId = (payout.payout?.id ?? payout.id) as string;
  const topup = await ok("top-up", api("/me/payout/topups", key, { asset: "USDT", network: "TRON" }));
  await ok("top-up transfer", api(`/me/payout/topups/${topup.topup.id}/simulate`, key, { amount: 99_999.99 }));

  await registerQr(m.shopId, "Panadería y Pastelería La Espiga de Oro", "Ciudad de México");
  await ok("qr order", api("/qr/orders", key, { amount: 9_999.99, merchantOrderId: LONG_ORDER(9).slice(0, 60) }));

  const rules = [
    { name: "Pagos grandes por SPEI de clientes mayoristas del Valle de México y Bajío".slice(0, 80), paymentMethodId: "sbx_spei", when: { minAmountUsd: 10_000, countries: ["MEX"], currencies: ["MXN"] }, strategy: "split", providers: [{ provider: "sandbox", weight: 1000 }] },
  ];
  const routing = await fetch(`${BASE_URL}/api/v1/me/routing`, { method: "PUT", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ rules }) });
  expect(routing.status, await routing.clone().text()).toBeLessThan(300);

  // Settled days: the balances' delay passes, a withdrawal takes part, the day's batch closes the rest (a clock ahead).
  const later = new Date(Date.now() + 4 * 86_400_000);
  await settleDueBalances({ now: later, merchantId: m.merchantId });
  await ok("withdrawal", api("/me/withdrawals", key, { amountUsd: 99_999.99 }));
  await closeDueSettlements({ now: later, merchantIds: [m.merchantId] });
  return { m, disputed, claimId, payoutId, accountId, webhookId, inboxId };
}

/** Every page of the signed-in dashboard, with what to wait for before judging it. */
function pages(s: Seeded): Array<{ name: string; path: string }> {
  return [
    { name: "overview", path: "/dashboard" },
    { name: "payments", path: "/dashboard/payments" },
    { name: "payment", path: `/dashboard/payments/${s.disputed}` },
    { name: "claims", path: "/dashboard/claims" },
    { name: "claim", path: `/dashboard/claims/${s.claimId}` },
    { name: "settlements", path: "/dashboard/settlements" },
    { name: "withdrawals", path: "/dashboard/withdrawals" },
    { name: "payouts", path: "/dashboard/payouts" },
    { name: "payout", path: `/dashboard/payouts/${s.payoutId}` },
    { name: "payouts-send", path: "/dashboard/payouts/send" },
    { name: "payouts-funding", path: "/dashboard/payouts/funding" },
    { name: "topups", path: "/dashboard/topups" },
    { name: "deposit-accounts", path: "/dashboard/deposit-accounts" },
    { name: "deposit-account", path: `/dashboard/deposit-accounts/${s.accountId}` },
    { name: "qr", path: "/dashboard/qr" },
    { name: "webhooks", path: "/dashboard/webhooks" },
    { name: "webhook", path: `/dashboard/webhooks/${s.webhookId}` },
    { name: "webhook-inbox", path: `/dashboard/webhooks/${s.inboxId}` },
    { name: "routing", path: "/dashboard/routing" },
    { name: "routing-analytics", path: "/dashboard/routing/analytics" },
    { name: "developers", path: "/dashboard/developers" },
    { name: "shops", path: "/dashboard/shops" },
    { name: "team", path: "/dashboard/team" },
    { name: "security", path: "/dashboard/security" },
    { name: "password", path: "/dashboard/password" },
    { name: "two-factor", path: "/dashboard/two-factor" },
  ];
}

test("every dashboard page keeps its cells whole and its controls in reach with the longest values", { tag: "@wide" }, async ({ page }, info) => {
  test.setTimeout(600_000);
  await laptopOrTablet(page, info);
  const s = await seed();
  await signIn(page, s.m.owner);
  for (const p of pages(s)) {
    await test.step(p.name, async () => {
      await page.goto(p.path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible({ timeout: 20_000 });
      // Fonts change widths: judge the page as it will stay.
      await page.evaluate(() => document.fonts.ready);
      await expect.soft(async () => expectWhole(page, p.name)).toPass({ timeout: 5_000 });
      await checkPage(page, info, `clipping-${p.name}`);
    });
  }
  // The API reference is a document page (code samples scroll in their own boxes): no sideways scroll of the page.
  await page.goto("/dashboard/api-reference");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible({ timeout: 20_000 });
  const doc = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: document.documentElement.clientWidth }));
  expect.soft(doc.scroll, "the API reference scrolls sideways").toBeLessThanOrEqual(doc.width + 1);
});
