// Pay-ins over real HTTP (API reference 2.1, 2.4, 2.12, 3.1, 3.5, 4.3, 4.4, 6-8; decisions.md
// Pay-ins, Sandbox-Simulate header, Refunds and claims): direct charge and hosted checkout in
// the sandbox, presentment currency, every rejection (and that it writes nothing), listing,
// simulation and the events outbox, the Sandbox-Simulate header, the balance derived from the
// ledger, refunds as claims, the catalog, and the sandbox provider's hosted page.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { api, API_URL, assertEnvelope, newMerchant, waitFor, type ApiResponse } from "./helpers.ts";
import { createMerchantWideKeys } from "@/lib/merchants/manage-keys";
import { PRODUCTION_RAILS } from "@/lib/rails/rails";
import { setShopPaymentMethods } from "@/lib/catalog/set-shop-methods";
import { settleDueBalances } from "@/lib/settlements/settle-balances";
import { db } from "@/lib/platform/db";
import { railExpiry } from "@/lib/catalog/expiry";
import { SANDBOX_RAILS } from "@/lib/rails/rails";
import type { CreatedMerchant } from "@/lib/merchants/create-merchant";

after(() => db().$disconnect());

type Tier = "starter" | "standard" | "premium";

// ---------------------------------------------------------------------------------------------
// Fixtures and expectations, computed independently of the app (integer cents, half-up).

const BUYER = {
  sbx_pix: { documentId: "529.982.247-25", userName: "Ana Souza", userEmail: "ana@example.com" },
  sbx_spei: { documentId: "GODE561231GR8", userName: "Diego Gomez" },
  sbx_pse: { documentId: "1020304050", userName: "Camila Rojas", userEmail: "camila@example.com" },
  sbx_card: {},
  sbx_cash: { userPhone: "+525512345678", userName: "Luis Perez", userEmail: "luis@example.com", documentId: "PEGL800101" },
  sbx_boleto: { documentId: "529.982.247-25", userName: "Ana Souza" },
  sbx_br_card: {},
} as const;
type SandboxRail = keyof typeof BUYER;
/** What a hosted checkout needs of the buyer on any rail (contract 4.4). */
const HOSTED_BUYER = { userName: "Ana Souza", userEmail: "ana@example.com", documentId: "529.982.247-25" };

/** Sandbox rates (lib/money/rates.ts) × 100, the rail's local currency, slug and settlement delay. */
const RAIL: Record<SandboxRail, { currency: string; rate100: bigint; method: string; delay: string; country: string; channel: string }> = {
  sbx_pix: { currency: "BRL", rate100: 540n, method: "pix", delay: "T+1", country: "BRA", channel: "ONLINE" },
  sbx_spei: { currency: "MXN", rate100: 1820n, method: "spei", delay: "T+1", country: "MEX", channel: "ONLINE" },
  sbx_pse: { currency: "COP", rate100: 410000n, method: "bank_transfer", delay: "T+1", country: "COL", channel: "ONLINE" },
  sbx_card: { currency: "USD", rate100: 100n, method: "card", delay: "T+2", country: "USA", channel: "CREDIT_CARD" },
  sbx_cash: { currency: "MXN", rate100: 1820n, method: "oxxo", delay: "T+3", country: "MEX", channel: "CASH" },
  sbx_boleto: { currency: "BRL", rate100: 540n, method: "boleto", delay: "T+3", country: "BRA", channel: "CASH" },
  sbx_br_card: { currency: "BRL", rate100: 540n, method: "card", delay: "T+2", country: "BRA", channel: "CREDIT_CARD" },
};
const SANDBOX_IDS = Object.keys(RAIL) as SandboxRail[];

const PLATFORM_BP: Record<Tier, bigint> = { starter: 390n, standard: 290n, premium: 240n };
const RESERVE_BP: Record<Tier, bigint> = { starter: 1000n, standard: 500n, premium: 0n };
const WITHDRAWAL_FEE: Record<Tier, number> = { starter: 2, standard: 1, premium: 0 };

const halfUp = (num: bigint, den: bigint) => (num * 2n + den) / (den * 2n);
const cents = (major: number) => BigInt(Math.round(major * 100));
const major = (c: bigint) => Number(c) / 100;

/** Fees, reserve and pending net of a charge (decisions.md Pay-ins), from the rail's catalog fee. */
function expectedPricing(amount: number, tier: Tier, railFee: { percent: number; flat: number }) {
  const a = cents(amount);
  const platformPercent = halfUp(a * PLATFORM_BP[tier], 10_000n);
  const platform = platformPercent + 30n;
  const provider = halfUp(a * BigInt(Math.round(railFee.percent * 100)), 10_000n);
  const network = cents(railFee.flat);
  const total = platform + provider + network;
  const reserve = a - total > 0n ? halfUp((a - total) * RESERVE_BP[tier], 10_000n) : 0n;
  return {
    fees: { platform: major(platform), provider: major(provider), network: major(network), total: major(total) },
    platformPercent: major(platformPercent),
    reserve: major(reserve),
    pending: major(a - total - reserve),
  };
}

/** USD amount × sandbox rate, half-up to the local minor unit (all these currencies have 2 decimals). */
const expectedLocal = (amount: number, rail: SandboxRail) => major(halfUp(cents(amount) * RAIL[rail].rate100, 100n));

/** Presentment: input ÷ rate × 0.98, half-up to cents. */
const expectedHeadline = (input: number, rate100: bigint) => major(halfUp(cents(input) * 100n * 9_800n, rate100 * 10_000n));

// ---------------------------------------------------------------------------------------------
// Small helpers.

const sk = (m: CreatedMerchant) => m.sandbox.secretKey;

function pay(key: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return api("/payments", { key, body, headers });
}

function okBody(rail: SandboxRail, extra: Record<string, unknown> = {}) {
  return { amount: 12.34, paymentMethodId: rail, ...BUYER[rail], ...extra };
}

function created(res: ApiResponse): any {
  assert.equal(res.status, 200, `expected 200, got ${res.status} ${res.text.slice(0, 400)}`);
  return res.body;
}

async function newPayment(m: CreatedMerchant, rail: SandboxRail = "sbx_card", extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return created(await pay(sk(m), okBody(rail, extra), headers));
}

async function simulate(m: CreatedMerchant, id: string, action: string) {
  return api(`/payments/${id}/simulate`, { key: sk(m), body: { action } });
}

/** A sandbox payment taken to completed through the simulate endpoint. */
async function paidPayment(m: CreatedMerchant, rail: SandboxRail = "sbx_card", extra: Record<string, unknown> = {}) {
  const p = await newPayment(m, rail, extra);
  const r = await simulate(m, p.transactionId, "paid");
  assert.equal(r.status, 200, r.text);
  return p;
}

const getPayment = async (m: CreatedMerchant, id: string) => (await api(`/payments/${id}`, { key: sk(m) })).body;

async function waitForStatus(m: CreatedMerchant, id: string, status: string, timeoutMs = 10_000) {
  return waitFor(async () => {
    const r = await api(`/payments/${id}`, { key: sk(m) });
    return r.body?.status === status && r.body;
  }, `payment ${id} to become ${status}`, timeoutMs);
}

const rowCount = (m: CreatedMerchant) => db().transaction.count({ where: { merchantId: m.merchantId } });

async function assertNoRows(m: CreatedMerchant) {
  assert.equal(await rowCount(m), 0, "a rejected request must not create a transaction");
}

async function events(merchantId: string) {
  return db().event.findMany({ where: { merchantId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

/** Event rows about one object (a transaction or a claim id). */
async function eventsAbout(merchantId: string, objectId: string) {
  return (await events(merchantId)).filter((e) => (e.payload as any)?.data?.object?.id === objectId);
}

/** The outbox payload shape of decisions.md (Webhooks): {id evt_, type, createdAt, environment, apiVersion, data:{object}}. */
function assertEventShape(row: { id: string; type: string; payload: unknown }, environment = "sandbox") {
  const p = row.payload as any;
  assert.deepEqual(Object.keys(p).sort(), ["apiVersion", "createdAt", "data", "environment", "id", "type"]);
  assert.match(p.id, /^evt_\w{24}$/);
  assert.equal(p.id, row.id);
  assert.equal(p.type, row.type);
  assert.equal(p.environment, environment);
  assert.equal(p.apiVersion, "2026-05-01");
  assert.ok(!Number.isNaN(Date.parse(p.createdAt)), "createdAt is ISO-8601");
  assert.deepEqual(Object.keys(p.data).sort(), ["object", "previousStatus", "sequence"]);
}

const sortedTypes = (rows: Array<{ type: string }>) => rows.map((r) => r.type).sort();

async function balance(m: CreatedMerchant) {
  const r = await api("/me/balance", { key: sk(m) });
  assert.equal(r.status, 200, r.text);
  return r.body;
}

/**
 * `npm test` runs two test files at once, and other files (ledger-property, providers) call the
 * settlement and reserve-release jobs for every merchant with `now` days ahead. Those two moves
 * (a payment's net pending -> available, its reserve -> available) can hit this file's payments
 * at any moment, so bucket checks allow exactly them: pending is as expected or 0, the reserve
 * as expected or 0, frozen exact, and the total exact.
 */
function assertBuckets(actual: Record<string, number>, expected: { available: number; pending: number; reserve: number; frozen: number }) {
  assert.equal(actual.frozen, expected.frozen, "frozen");
  assert.ok(actual.pending === expected.pending || actual.pending === 0, `pending ${actual.pending}, expected ${expected.pending} (or 0 once settled)`);
  assert.ok(actual.reserve === expected.reserve || actual.reserve === 0, `reserve ${actual.reserve}, expected ${expected.reserve} (or 0 once released)`);
  const total = (b: { available: number; pending: number; reserve: number }) => cents(b.available) + cents(b.pending) + cents(b.reserve);
  assert.equal(total(actual as any), total(expected), `available + pending + reserve: ${JSON.stringify(actual)} vs ${JSON.stringify(expected)}`);
}

async function catalogFee(m: CreatedMerchant, id: string) {
  const r = await api("/payment-methods", { key: sk(m) });
  const entry = r.body.methods.find((x: any) => x.paymentMethodId === id);
  assert.ok(entry, `catalog lists ${id}`);
  return entry.fee as { percent: number; flat: number };
}

/**
 * Promise.all for polling loops: waits for every one to end before rethrowing the first failure,
 * so no loop outlives its test (and the database disconnect of `after`).
 */
async function settleAll<T>(promises: Promise<T>[]): Promise<T[]> {
  const results = await Promise.allSettled(promises);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<T>).value);
}

/** A non-API path of the app (icons, pages, links). */
const page = (url: string, init: RequestInit = {}) => fetch(url.startsWith("http") ? url : `${API_URL}${url}`, { redirect: "manual", ...init });

/**
 * Moves one payment's settlement date into the past and runs the settlement job for that date
 * only: T+N cannot elapse in a test, and a `now` in 2001 settles this payment and nothing else.
 */
async function settleNow(transactionId: string) {
  await db().transaction.update({ where: { id: transactionId }, data: { settleAt: new Date("2001-01-01T00:00:00Z") } });
  // Another runner (the server's ticker, another test's job call) may hold the row at this
  // moment and settle it itself: wait for the outcome, not for our own call.
  await waitFor(async () => {
    await settleDueBalances({ now: new Date("2001-01-02T00:00:00Z") });
    return (await db().transaction.findUniqueOrThrow({ where: { id: transactionId } })).settlementStatus === "settled";
  }, "the payment settled");
}

// =============================================================================================

describe("POST /payments: direct charge in the sandbox", () => {
  for (const rail of SANDBOX_IDS) {
    test(`${rail}: 200 with the 4.4 shape, FX, fees, settlement, working URLs`, async () => {
      const m = await newMerchant({ tier: "standard" });
      const before = Date.now();
      const body = okBody(rail, { merchantOrderId: `order-${rail}`, tag1: "alpha", tag2: "béta ✓", tag3: "x".repeat(200) });
      const r = await pay(sk(m), body);
      const p = await created(r);

      assert.match(p.transactionId, /^tx_[0-9A-Za-z]{24}$/);
      assert.equal(p.status, "pending");
      assert.equal(p.amount, 12.34);
      assert.equal(p.currency, "USD");
      assert.equal("inputCurrency" in p, false, "no presentment fields for a USD charge");
      assert.equal("inputAmount" in p, false);
      assert.equal(p.amountLocal, expectedLocal(12.34, rail));
      assert.equal(p.currencyLocal, RAIL[rail].currency);
      assert.equal(p.paymentMethodId, rail);
      assert.equal(p.paymentMethod, RAIL[rail].method);
      assert.equal(typeof p.paymentMethodName, "string");
      assert.ok(p.paymentMethodName.length > 0);
      assert.deepEqual(p.paymentData, { method: RAIL[rail].method });
      assert.equal(p.merchantOrderId, `order-${rail}`);
      assert.equal(p.tag1, "alpha");
      assert.equal(p.tag2, "béta ✓");
      assert.equal(p.tag3, "x".repeat(200));

      const price = expectedPricing(12.34, "standard", await catalogFee(m, rail));
      assert.deepEqual(p.fees, price.fees);
      assert.deepEqual(p.settlement, { type: "delayed", delay: RAIL[rail].delay, reserve: price.reserve, status: "pending" });

      // Each rail's own deadline (decisions.md, Pay-ins): card and PIX 30 min, SPEI 24 h, vouchers 3 days.
      const minutes = railExpiry(SANDBOX_RAILS.find((r) => r.paymentMethodId === rail)!).defaultMinutes;
      const expires = Date.parse(p.expiresAt);
      assert.ok(expires >= before + minutes * 60_000 - 5_000 && expires <= Date.now() + minutes * 60_000 + 5_000, `expiresAt ${p.expiresAt} ≈ now + ${minutes} min`);
      const got = await getPayment(m, p.transactionId);
      assert.equal(Date.parse(got.expiresAt) - Date.parse(got.timestamps.created), minutes * 60_000);

      // Direct charge: the provider page, never the service's checkout link.
      assert.equal("checkoutUrl" in p, false);
      assert.equal(p.logoUrl, p.iconUrl);
      for (const url of [p.logoUrl, p.paymentFormUrl]) assert.match(url, /^https?:\/\//, "absolute URL");
      const icon = await page(p.iconUrl);
      assert.equal(icon.status, 200);
      assert.match(icon.headers.get("content-type") ?? "", /^image\/svg\+xml/);
      const form = await page(p.paymentFormUrl);
      assert.equal(form.status, 200);
      assert.match(form.headers.get("content-type") ?? "", /text\/html/);
      const html = await form.text();
      assert.ok(html.includes("Test mode"), "the sandbox page says it is in test mode");
      assert.ok(html.includes(p.transactionId));

      // Exactly one pending row for this merchant, in the sandbox.
      const rows = await db().transaction.findMany({ where: { merchantId: m.merchantId } });
      assert.equal(rows.length, 1);
      assert.equal(rows[0]!.environment, "sandbox");
      assert.equal(rows[0]!.status, "pending");
    });
  }

  test("POST /transactions behaves identically; GET /transactions/{id} equals GET /payments/{id}", async () => {
    const m = await newMerchant();
    const body = okBody("sbx_pix", { merchantOrderId: "same", tag1: "t" });
    const a = await created(await pay(sk(m), body));
    const b = await created(await api("/transactions", { key: sk(m), body }));
    assert.deepEqual(Object.keys(b).sort(), Object.keys(a).sort());
    const strip = (x: any) => ({ ...x, transactionId: undefined, expiresAt: undefined, paymentFormUrl: undefined });
    assert.deepEqual(strip(b), strip(a));
    assert.ok(b.paymentFormUrl.endsWith(b.transactionId));
    for (const id of [a.transactionId, b.transactionId]) {
      const viaPayments = await api(`/payments/${id}`, { key: sk(m) });
      const viaTransactions = await api(`/transactions/${id}`, { key: sk(m) });
      assert.equal(viaTransactions.status, 200);
      assert.deepEqual(viaTransactions.body, viaPayments.body);
    }
    // The alias validates like the original.
    const bad = await api("/transactions", { key: sk(m), body: { paymentMethodId: "sbx_card" } });
    assertEnvelope(bad, "missing_field", 400);
    assert.equal(bad.body.error.param, "amount");
    assert.equal(await rowCount(m), 2);
  });

  test("hostedCheckout: checkoutUrl /c/<txId> (with returnUrl), no paymentFormUrl; the link 307s to the provider page", async () => {
    const m = await newMerchant();
    const returnUrl = "https://shop.example/thanks?order=42&x=a b";
    const p = await created(await pay(sk(m), okBody("sbx_card", { hostedCheckout: true, returnUrl, ...HOSTED_BUYER })));
    assert.equal("paymentFormUrl" in p, false);
    const link = new URL(p.checkoutUrl);
    assert.equal(link.pathname, `/c/${p.transactionId}`);
    assert.equal(link.searchParams.get("returnUrl"), returnUrl);
    assert.equal(link.origin, new URL(p.logoUrl).origin);

    const providerPage = (await getPayment(m, p.transactionId)).paymentFormUrl;
    assert.ok(providerPage, "the transaction still knows its provider page");
    const res = await page(p.checkoutUrl);
    assert.equal(res.status, 307);
    assert.equal(res.headers.get("location"), providerPage);
    assert.equal((await page(providerPage)).status, 200);

    const plain = await created(await pay(sk(m), okBody("sbx_card", { hostedCheckout: true, ...HOSTED_BUYER })));
    assert.equal(new URL(plain.checkoutUrl).search, "");
    assert.equal(new URL(plain.checkoutUrl).pathname, `/c/${plain.transactionId}`);

    // returnUrl alone (without hostedCheckout) does not turn the answer into a checkout link.
    const direct = await created(await pay(sk(m), okBody("sbx_card", { returnUrl })));
    assert.equal("checkoutUrl" in direct, false);
    assert.ok(direct.paymentFormUrl);
  });

  test("hostedCheckout without the buyer (contract 4.4): 422 missing_required_fields naming userName, userEmail, documentId; nothing created", async () => {
    const m = await newMerchant();
    const orderId = `hosted-${Date.now()}`;
    const r = await pay(sk(m), okBody("sbx_card", { hostedCheckout: true, merchantOrderId: orderId }));
    assertEnvelope(r, "missing_required_fields", 422);
    assert.deepEqual(r.body.error.details.missingFields.map((f: { key: string }) => f.key).sort(), ["documentId", "userEmail", "userName"]);
    const partly = await pay(sk(m), okBody("sbx_card", { hostedCheckout: true, merchantOrderId: orderId, userName: "Ana Souza" }));
    assertEnvelope(partly, "missing_required_fields", 422);
    assert.deepEqual(partly.body.error.details.missingFields.map((f: { key: string }) => f.key).sort(), ["documentId", "userEmail"]);
    assert.equal(await db().transaction.count({ where: { merchantId: m.merchantId, merchantOrderId: orderId } }), 0);
  });

  test("/c/<txId> of an unknown or malformed id: 404", async () => {
    assert.equal((await page("/c/tx_000000000000000000000000")).status, 404);
    assert.equal((await page("/c/nope")).status, 404);
  });

  test("a retry with the same Idempotency-Key replays the same payment; one row", async () => {
    const m = await newMerchant();
    const idem = randomUUID();
    const first = await pay(sk(m), okBody("sbx_spei"), { "idempotency-key": idem });
    const second = await pay(sk(m), okBody("sbx_spei"), { "idempotency-key": idem });
    assert.equal(first.status, 200);
    assert.equal(second.headers.get("idempotent-replayed"), "true");
    assert.deepEqual(second.body, first.body);
    assert.equal(await rowCount(m), 1);
    assertEnvelope(await pay(sk(m), okBody("sbx_spei", { amount: 99 }), { "idempotency-key": idem }), "idempotency_conflict", 409);
    assert.equal(await rowCount(m), 1);
  });

  test("country: ISO-2 and ISO-3 in any case are stored as ISO-3; absent, it is the rail's", async () => {
    const m = await newMerchant();
    for (const country of ["BR", "BRA", "br"]) {
      const p = await created(await pay(sk(m), okBody("sbx_pix", { country })));
      assert.equal((await getPayment(m, p.transactionId)).country, "BRA");
    }
    const card = await newPayment(m, "sbx_card");
    assert.equal((await getPayment(m, card.transactionId)).country, "USA");
    const spei = await newPayment(m, "sbx_spei");
    assert.equal((await getPayment(m, spei.transactionId)).country, "MEX");
  });

  test("legacy paymentMethod slug routes by slug and country; neither id nor slug: 400 missing_field paymentMethodId", async () => {
    const m = await newMerchant();
    const pix = await created(await pay(sk(m), { amount: 10, paymentMethod: "pix", country: "BR", ...BUYER.sbx_pix }));
    assert.equal(pix.paymentMethod, "pix");
    assert.equal(pix.currencyLocal, "BRL");
    const card = await created(await pay(sk(m), { amount: 10, paymentMethod: "card" }));
    assert.equal(card.currencyLocal, "USD", "country defaults to USA");
    // The id wins over the slug.
    const both = await created(await pay(sk(m), { amount: 10, paymentMethodId: "sbx_card", paymentMethod: "pix" }));
    assert.equal(both.paymentMethodId, "sbx_card");
    assert.equal(await rowCount(m), 3);

    const none = await pay(sk(m), { amount: 10 });
    assertEnvelope(none, "missing_field", 400);
    assert.equal(none.body.error.param, "paymentMethodId");
    const nowhere = await pay(sk(m), { amount: 10, paymentMethod: "boleto", country: "US" });
    assertEnvelope(nowhere, "cascade_exhausted", 422);
    assert.equal(nowhere.body.error.details.reason, "no_provider_for_method_region");
    assert.equal(await rowCount(m), 3);
  });

  test("a production catalog id is chargeable in the sandbox; with a country it does not serve: 400 unsupported_country", async () => {
    const m = await newMerchant();
    const p = await created(await pay(sk(m), { amount: 10, paymentMethodId: "1003", documentId: "GODE561231GR8", userName: "Diego Gomez" }));
    assert.equal(p.paymentMethodId, "1003");
    assert.equal(p.currencyLocal, "MXN");
    assert.equal(p.amountLocal, 182);
    const wrong = await pay(sk(m), { amount: 10, paymentMethodId: "1003", country: "BR", documentId: "GODE561231GR8", userName: "Diego Gomez" });
    assertEnvelope(wrong, "unsupported_country", 400);
    assert.equal(wrong.body.error.param, "country");
    assert.equal(await rowCount(m), 1);
  });
});

describe("presentment currency", () => {
  test("the price rule through the ledger: 150 BRL asked on PIX is 150 BRL paid; the USD credit carries the markup", async () => {
    const m = await newMerchant();
    const p = await created(await pay(sk(m), { amount: 150, currency: "BRL", paymentMethodId: "sbx_pix", ...BUYER.sbx_pix }));
    assert.equal(p.amountLocal, 150);
    assert.equal(p.amount, expectedHeadline(150, 540n)); // 150 ÷ 5.40 × 0.98 = 27.222… -> 27.22
    const paid = await api(`/payments/${p.transactionId}/simulate`, { key: sk(m), body: { action: "paid" } });
    assert.equal(paid.status, 200, paid.text);
    const bal = (await api("/me/balance", { key: sk(m) })).body;
    assert.deepEqual(bal.ledgerWarnings, []);
    assert.equal(bal.feeSummary.grossVolume, p.amount);
    // A refund in the buyer's currency takes its share of the USD credit: 50 of 150 BRL -> 9.07 USD.
    const refund = await api(`/payments/${p.transactionId}/refund`, { key: sk(m), body: { amount: 50 } });
    assert.equal(refund.status, 200, refund.text);
    assert.equal(refund.body.amount, 50);
    assert.equal(refund.body.amountUsd, 9.07);
  });

  test("non-USD currency: inputCurrency/inputAmount echoed; amount = input ÷ rate × 0.98, half-up; the buyer pays what was asked", async () => {
    const m = await newMerchant();
    const brl = await created(await pay(sk(m), { amount: 100, currency: "BRL", paymentMethodId: "sbx_pix", ...BUYER.sbx_pix }));
    assert.equal(brl.inputCurrency, "BRL");
    assert.equal(brl.inputAmount, 100);
    assert.equal(brl.currency, "USD");
    assert.equal(brl.amount, expectedHeadline(100, 540n)); // 18.148… -> 18.15
    assert.equal(brl.amount, 18.15);
    // The price rule (decisions.md, Money): in the rail's own currency the buyer pays exactly what
    // was asked; the 2 % markup lowers only the USD credit (18.15, not 18.52).
    assert.equal(brl.amountLocal, 100);
    assert.equal(brl.currencyLocal, "BRL");
    const got = await getPayment(m, brl.transactionId);
    assert.equal(got.inputCurrency, "BRL");
    assert.equal(got.inputAmount, 100);
    assert.equal(got.amount, 18.15);

    // Lower case is accepted; another currency than the rail's works too.
    const mxn = await created(await pay(sk(m), { amount: 1000, currency: "mxn", paymentMethodId: "sbx_card" }));
    assert.equal(mxn.inputCurrency, "MXN");
    assert.equal(mxn.inputAmount, 1000);
    assert.equal(mxn.amount, expectedHeadline(1000, 1820n)); // 53.846… -> 53.85
    // Another currency than the rail's is converted for the buyer at the mid rate: 1000 ÷ 18.20.
    assert.equal(mxn.amountLocal, 54.95);

    const exact = await created(await pay(sk(m), { amount: 540, currency: "BRL", paymentMethodId: "sbx_card" }));
    assert.equal(exact.amount, 98);

    // A currency without minor units: 10,000 CLP ÷ 950 × 0.98 = 10.3157… -> 10.32; decimals are refused.
    const clp = await created(await pay(sk(m), { amount: 10000, currency: "CLP", paymentMethodId: "sbx_card" }));
    assert.equal(clp.amount, 10.32);
    assert.equal(clp.inputAmount, 10000);
    assertEnvelope(await pay(sk(m), { amount: 10.5, currency: "CLP", paymentMethodId: "sbx_card" }), "amount_invalid", 400);

    // USD sent explicitly is not a presentment currency.
    const usd = await created(await pay(sk(m), { amount: 10, currency: "USD", paymentMethodId: "sbx_card" }));
    assert.equal("inputCurrency" in usd, false);
    assert.equal(usd.amount, 10);
  });

  test("unknown currency: 400 unsupported_currency; not a 3-letter code: 400 invalid_request; nothing created", async () => {
    const m = await newMerchant();
    const r = await pay(sk(m), { amount: 10, currency: "XYZ", paymentMethodId: "sbx_card" });
    assertEnvelope(r, "unsupported_currency", 400);
    assert.equal(r.body.error.param, "currency");
    const shape = await pay(sk(m), { amount: 10, currency: "US", paymentMethodId: "sbx_card" });
    assertEnvelope(shape, "invalid_request", 400);
    assert.equal(shape.body.error.param, "currency");
    // A presentment amount with more decimals than its currency allows.
    assertEnvelope(await pay(sk(m), { amount: 10.005, currency: "BRL", paymentMethodId: "sbx_card" }), "amount_invalid", 400);
    await assertNoRows(m);
  });

  // Production FX rates are a table shared by every test file (e2e/api/providers.test.ts seeds
  // the rails' currencies); no test seeds EUR, so a EUR presentment charge has no rate.
  test("production, a presentment currency without an FX rate: 422 fx_unavailable naming it; nothing created", async () => {
    const m = await newMerchant();
    const r = await pay(m.production.secretKey, { amount: 10, currency: "EUR", paymentMethodId: "1003", documentId: "GODE561231GR8", userName: "Diego Gomez" });
    assertEnvelope(r, "fx_unavailable", 422);
    assert.equal(r.body.error.param, "currency");
    assert.deepEqual(r.body.error.details, { currency: "EUR" });
    await assertNoRows(m);
    // The sandbox has fixed rates, EUR included.
    const sandbox = await created(await pay(sk(m), { amount: 10, currency: "EUR", paymentMethodId: "sbx_card" }));
    assert.equal(sandbox.amount, expectedHeadline(10, 92n));
  });
});

describe("POST /payments: rejected requests create nothing", () => {
  test("amount 0, -5, \"10\", null, true, 10.001 USD: 400 amount_invalid", async () => {
    const m = await newMerchant();
    for (const amount of [0, -5, "10", null, true, 10.001, -0.01]) {
      const r = await pay(sk(m), { amount, paymentMethodId: "sbx_card" });
      assertEnvelope(r, "amount_invalid", 400);
      assert.equal(r.body.error.param, "amount", `amount ${JSON.stringify(amount)}`);
    }
    await assertNoRows(m);
  });

  test("amount absent: 400 missing_field param amount", async () => {
    const m = await newMerchant();
    const r = await pay(sk(m), { paymentMethodId: "sbx_card" });
    assertEnvelope(r, "missing_field", 400);
    assert.equal(r.body.error.param, "amount");
    await assertNoRows(m);
  });

  test("below and above the rail's limits: 422 amount_out_of_limits with details.limit and boundViolated", async () => {
    const m = await newMerchant();
    const low = await pay(sk(m), { amount: 0.99, paymentMethodId: "sbx_card" });
    assertEnvelope(low, "amount_out_of_limits", 422);
    assert.equal(low.body.error.details.boundViolated, "min");
    assert.equal(low.body.error.details.limit.min, 1);
    assert.equal(low.body.error.details.limit.max, 100000);

    // 600 USD = 10,920 MXN, over OXXO's 10,000 MXN.
    const high = await pay(sk(m), okBody("sbx_cash", { amount: 600 }));
    assertEnvelope(high, "amount_out_of_limits", 422);
    assert.equal(high.body.error.details.boundViolated, "max");
    assert.equal(high.body.error.details.limit.min, 10);
    assert.equal(high.body.error.details.limit.max, 10000);

    // Within the local bounds but over the rail's USD cap (sbx_cash: 500 USD).
    const usdCap = await pay(sk(m), okBody("sbx_cash", { amount: 500.01 }));
    assertEnvelope(usdCap, "amount_out_of_limits", 422);
    assert.equal(usdCap.body.error.details.boundViolated, "max");
    assert.equal(usdCap.body.error.details.limit.max, 500);

    // The bounds themselves are accepted.
    await created(await pay(sk(m), { amount: 1, paymentMethodId: "sbx_card" }));
    await created(await pay(sk(m), okBody("sbx_cash", { amount: 500 })));
    assert.equal(await rowCount(m), 2);
  });

  test("a USD headline over 100,000 (also through presentment): 422 amount_out_of_limits", async () => {
    const m = await newMerchant();
    const usd = await pay(sk(m), { amount: 100000.01, paymentMethodId: "sbx_card" });
    assertEnvelope(usd, "amount_out_of_limits", 422);
    assert.equal(usd.body.error.details.boundViolated, "max");
    assert.equal(usd.body.error.details.limit.max, 100000);
    // 500,000,000 COP ÷ 4100 × 0.98 ≈ 119,512 USD.
    const cop = await pay(sk(m), { amount: 500_000_000, currency: "COP", paymentMethodId: "sbx_card" });
    assertEnvelope(cop, "amount_out_of_limits", 422);
    assert.equal(cop.body.error.details.boundViolated, "max");
    await assertNoRows(m);
    await created(await pay(sk(m), { amount: 100000, paymentMethodId: "sbx_card" }));
  });

  test("sbx_pix without buyer data: 422 missing_required_fields, reason missing, items {key,type,label,help}", async () => {
    const m = await newMerchant();
    const r = await pay(sk(m), { amount: 10, paymentMethodId: "sbx_pix" });
    assertEnvelope(r, "missing_required_fields", 422);
    const d = r.body.error.details;
    assert.equal(d.reason, "missing");
    assert.deepEqual(d.missingFields.map((f: any) => f.key).sort(), ["documentId", "userEmail", "userName"]);
    for (const f of d.missingFields) {
      assert.deepEqual(Object.keys(f).sort(), ["help", "key", "label", "type"]);
      for (const v of Object.values(f)) assert.ok(typeof v === "string" && v.length > 0);
    }
    // Only what is absent is named.
    const partial = await pay(sk(m), { amount: 10, paymentMethodId: "sbx_pix", userName: "Ana Souza", userEmail: "ana@example.com", documentId: "   " });
    assertEnvelope(partial, "missing_required_fields", 422);
    assert.deepEqual(partial.body.error.details.missingFields.map((f: any) => f.key), ["documentId"]);
    assert.equal(partial.body.error.param, "documentId");
    await assertNoRows(m);
  });

  test("invalid CPF (all-equal digits, wrong check digit), one-word name, bad email: reason malformed", async () => {
    const m = await newMerchant();
    for (const documentId of ["111.111.111-11", "529.982.247-24", "529982247250", "11.222.333/0001-82"]) {
      const r = await pay(sk(m), { ...okBody("sbx_pix"), documentId });
      assertEnvelope(r, "missing_required_fields", 422);
      assert.equal(r.body.error.details.reason, "malformed", documentId);
      assert.deepEqual(r.body.error.details.malformedFields.map((f: any) => f.key), ["documentId"]);
      assert.deepEqual(Object.keys(r.body.error.details.malformedFields[0]).sort(), ["help", "key", "label", "type"]);
      assert.equal("missingFields" in r.body.error.details, false);
    }
    const name = await pay(sk(m), { ...okBody("sbx_pix"), userName: "Ana", userEmail: "not-an-email" });
    assertEnvelope(name, "missing_required_fields", 422);
    assert.deepEqual(name.body.error.details.malformedFields.map((f: any) => f.key).sort(), ["userEmail", "userName"]);
    // Missing and malformed together: reason missing, both lists present.
    const mixed = await pay(sk(m), { amount: 10, paymentMethodId: "sbx_pix", documentId: "111.111.111-11", userName: "Ana Souza" });
    assertEnvelope(mixed, "missing_required_fields", 422);
    assert.equal(mixed.body.error.details.reason, "missing");
    assert.deepEqual(mixed.body.error.details.missingFields.map((f: any) => f.key), ["userEmail"]);
    assert.deepEqual(mixed.body.error.details.malformedFields.map((f: any) => f.key), ["documentId"]);
    await assertNoRows(m);
  });

  test("valid CPF (formatted or bare) and valid CNPJ are accepted", async () => {
    const m = await newMerchant();
    for (const documentId of ["529.982.247-25", "52998224725", "11.222.333/0001-81", "11222333000181"]) {
      await created(await pay(sk(m), { ...okBody("sbx_pix"), documentId }));
    }
    assert.equal(await rowCount(m), 4);
  });

  test("sbx_spei: RFC (person, company) and CURP shapes accepted; other shapes malformed; name required", async () => {
    const m = await newMerchant();
    for (const documentId of ["GODE561231GR8", "ABC680524P76", "GODE561231HDFRRN09", "gode561231gr8"]) {
      await created(await pay(sk(m), { amount: 10, paymentMethodId: "sbx_spei", userName: "Diego Gomez", documentId }));
    }
    assert.equal(await rowCount(m), 4);
    for (const documentId of ["ABC123", "GODE561331GR8", "GODE561231ZDFRRN09", "52998224725"]) {
      const r = await pay(sk(m), { amount: 10, paymentMethodId: "sbx_spei", userName: "Diego Gomez", documentId });
      assertEnvelope(r, "missing_required_fields", 422);
      assert.equal(r.body.error.details.reason, "malformed", documentId);
    }
    const noName = await pay(sk(m), { amount: 10, paymentMethodId: "sbx_spei", documentId: "GODE561231GR8" });
    assertEnvelope(noName, "missing_required_fields", 422);
    assert.deepEqual(noName.body.error.details.missingFields.map((f: any) => f.key), ["userName"]);
    // Card needs no buyer data at all.
    await created(await pay(sk(m), { amount: 10, paymentMethodId: "sbx_card" }));
    assert.equal(await rowCount(m), 5);
  });

  test("unknown paymentMethodId: 422 cascade_exhausted, no_provider_for_method_region, paymentMethodEnabledForShop false", async () => {
    const m = await newMerchant();
    for (const id of ["9999", "sbx_nope"]) {
      const r = await pay(sk(m), { amount: 10, paymentMethodId: id });
      assertEnvelope(r, "cascade_exhausted", 422);
      assert.equal(r.body.error.details.reason, "no_provider_for_method_region");
      assert.equal(r.body.error.details.paymentMethodEnabledForShop, false);
    }
    await assertNoRows(m);
  });

  test("a rail disabled for the shop: 403 method_not_enabled_for_shop", async () => {
    const m = await newMerchant();
    await setShopPaymentMethods(m.shopId, { enable: [], disable: ["1003"] });
    const r = await pay(sk(m), { amount: 10, paymentMethodId: "1003", documentId: "GODE561231GR8", userName: "Diego Gomez" });
    assertEnvelope(r, "method_not_enabled_for_shop", 403);
    assert.equal(r.body.error.param, "paymentMethodId");
    await assertNoRows(m);
    // Another merchant's shop is unaffected.
    const other = await newMerchant();
    await created(await pay(sk(other), { amount: 10, paymentMethodId: "1003", documentId: "GODE561231GR8", userName: "Diego Gomez" }));
  });

  test("country ZZ: 400 invalid_request param country", async () => {
    const m = await newMerchant();
    for (const country of ["ZZ", "ZZZ"]) {
      const r = await pay(sk(m), { amount: 10, paymentMethodId: "sbx_card", country });
      assertEnvelope(r, "invalid_request", 400);
      assert.equal(r.body.error.param, "country");
    }
    await assertNoRows(m);
  });

  test("schema violations: over-long tag, non-boolean hostedCheckout, non-http returnUrl: 400 invalid_request", async () => {
    const m = await newMerchant();
    const cases: Array<[string, Record<string, unknown>]> = [
      ["tag1", { tag1: "x".repeat(201) }],
      ["merchantOrderId", { merchantOrderId: "x".repeat(121) }],
      ["hostedCheckout", { hostedCheckout: "yes" }],
      ["returnUrl", { hostedCheckout: true, returnUrl: "javascript:alert(1)" }],
      ["userName", { userName: "x ".repeat(61) + "y" }],
    ];
    for (const [param, extra] of cases) {
      const r = await pay(sk(m), { amount: 10, paymentMethodId: "sbx_card", ...extra });
      assertEnvelope(r, "invalid_request", 400);
      assert.equal(r.body.error.param, param);
    }
    await assertNoRows(m);
  });

  test("Sandbox-Simulate with an unknown value: 400 invalid_request param Sandbox-Simulate", async () => {
    const m = await newMerchant();
    const r = await pay(sk(m), okBody("sbx_card"), { "sandbox-simulate": "bogus" });
    assertEnvelope(r, "invalid_request", 400);
    assert.equal(r.body.error.param, "Sandbox-Simulate");
    await assertNoRows(m);
  });

  test("publishable key: 403 key_kind_not_allowed", async () => {
    const m = await newMerchant();
    assertEnvelope(await pay(m.sandbox.publishableKey, okBody("sbx_card")), "key_kind_not_allowed", 403);
    await assertNoRows(m);
  });

  test("merchant-wide key: shopId required (401 shop_required), must be the merchant's (404 shop_not_found); a shop key cannot name another shop (403)", async () => {
    const m = await newMerchant();
    const other = await newMerchant();
    const wide = await createMerchantWideKeys({ merchantId: m.merchantId, environment: "sandbox" });
    assertEnvelope(await pay(wide.secretKey, okBody("sbx_card")), "shop_required", 401);
    assertEnvelope(await pay(wide.secretKey, okBody("sbx_card", { shopId: other.shopId })), "shop_not_found", 404);
    assertEnvelope(await pay(sk(m), okBody("sbx_card", { shopId: other.shopId })), "forbidden", 403);
    assertEnvelope(await pay(sk(m), okBody("sbx_card", { merchantId: other.merchantId })), "forbidden", 403);
    await assertNoRows(m);
    await assertNoRows(other);
    const p = await created(await pay(wide.secretKey, okBody("sbx_card", { shopId: m.shopId })));
    const row = await db().transaction.findUniqueOrThrow({ where: { id: p.transactionId } });
    assert.equal(row.shopId, m.shopId);
    assert.equal((await getPayment(m, p.transactionId)).id, p.transactionId);
  });
});

describe("GET /payments and GET /payments/{id}", () => {
  test("newest first in the offset envelope; limit clamped; pages = ceil(total/limit)", async () => {
    const m = await newMerchant();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await newPayment(m, "sbx_card", { merchantOrderId: `o${i}` })).transactionId);
    const newestFirst = [...ids].reverse();

    const all = await api("/payments", { key: sk(m) });
    assert.equal(all.status, 200);
    assert.deepEqual(Object.keys(all.body).sort(), ["data", "hasMore", "nextCursor", "pagination", "previousCursor"]);
    assert.deepEqual(all.body.data.map((t: any) => t.id), newestFirst);
    assert.deepEqual(all.body.pagination, { total: 3, limit: 50, offset: 0, pages: 1 });

    const page1 = await api("/payments?limit=2", { key: sk(m) });
    assert.deepEqual(page1.body.data.map((t: any) => t.id), newestFirst.slice(0, 2));
    assert.deepEqual(page1.body.pagination, { total: 3, limit: 2, offset: 0, pages: 2 });
    const page2 = await api("/payments?limit=2&offset=2", { key: sk(m) });
    assert.deepEqual(page2.body.data.map((t: any) => t.id), newestFirst.slice(2));
    assert.deepEqual(page2.body.pagination, { total: 3, limit: 2, offset: 2, pages: 2 });
    const beyond = await api("/payments?offset=10", { key: sk(m) });
    assert.deepEqual(beyond.body.data, []);
    assert.equal(beyond.body.pagination.total, 3);

    const clamps: Array<[string, number, number]> = [
      ["limit=0", 1, 3],
      ["limit=1000", 100, 1],
      ["limit=abc", 50, 1],
      ["limit=-3", 1, 3],
    ];
    for (const [q, limit, pages] of clamps) {
      const r = await api(`/payments?${q}`, { key: sk(m) });
      assert.equal(r.status, 200, q);
      assert.equal(r.body.pagination.limit, limit, q);
      assert.equal(r.body.pagination.pages, pages, q);
      assert.equal(r.body.data.length, Math.min(limit, 3), q);
    }
    assert.equal((await api("/payments?offset=-4", { key: sk(m) })).body.pagination.offset, 0);

    // A list item is the same object GET /payments/{id} answers; the legacy alias lists the same.
    const one = await api(`/payments/${ids[0]}`, { key: sk(m) });
    assert.deepEqual(all.body.data.find((t: any) => t.id === ids[0]), one.body);
    const legacy = await api("/transactions", { key: sk(m) });
    assert.deepEqual(legacy.body, all.body);
  });

  test("the transaction object of 2.1", async () => {
    const m = await newMerchant();
    const p = await newPayment(m, "sbx_pix", { merchantOrderId: "shape", tag2: "two" });
    const t = await getPayment(m, p.transactionId);
    assert.equal(t.id, p.transactionId);
    assert.equal("transactionId" in t, false);
    assert.equal(t.status, "pending");
    assert.equal(t.country, "BRA");
    for (const k of ["amount", "currency", "amountLocal", "currencyLocal", "paymentMethodId", "paymentMethod", "paymentMethodName", "logoUrl", "iconUrl", "fees", "settlement", "paymentData", "merchantOrderId", "tag1", "tag2", "tag3", "expiresAt", "paymentFormUrl"]) {
      assert.deepEqual(t[k], p[k], k);
    }
    assert.ok(!Number.isNaN(Date.parse(t.timestamps.created)));
    assert.equal(t.timestamps.completed, null);
    assert.equal(t.refundedAmountLocal, 0);
  });

  test("every filter: status, paymentMethodId, country (ISO-2 and ISO-3), merchantOrderId, method", async () => {
    const m = await newMerchant();
    const card = await newPayment(m, "sbx_card", { merchantOrderId: "ord-card" });
    const pix = await newPayment(m, "sbx_pix", { merchantOrderId: "ord-pix" });
    const spei = await newPayment(m, "sbx_spei", { merchantOrderId: "ord-spei" });
    const cash = await newPayment(m, "sbx_cash", { merchantOrderId: "ord-cash" });
    await simulate(m, card.transactionId, "paid");
    await simulate(m, pix.transactionId, "failed");

    const ids = async (q: string) => {
      const r = await api(`/payments?${q}`, { key: sk(m) });
      assert.equal(r.status, 200, `${q}: ${r.text}`);
      assert.equal(r.body.pagination.total, r.body.data.length);
      return r.body.data.map((t: any) => t.id).sort();
    };
    const sorted = (...xs: any[]) => xs.map((x) => x.transactionId).sort();
    assert.deepEqual(await ids("status=completed"), sorted(card));
    assert.deepEqual(await ids("status=failed"), sorted(pix));
    assert.deepEqual(await ids("status=pending"), sorted(spei, cash));
    assert.deepEqual(await ids("status=refunded"), []);
    assert.deepEqual(await ids("paymentMethodId=sbx_pix"), sorted(pix));
    assert.deepEqual(await ids("country=MX"), sorted(spei, cash));
    assert.deepEqual(await ids("country=MEX"), sorted(spei, cash));
    assert.deepEqual(await ids("country=br"), sorted(pix));
    assert.deepEqual(await ids("country=COL"), []);
    assert.deepEqual(await ids("merchantOrderId=ord-spei"), sorted(spei));
    assert.deepEqual(await ids("merchantOrderId=ord"), [], "merchantOrderId matches exactly");
    assert.deepEqual(await ids("method=oxxo"), sorted(cash));
    assert.deepEqual(await ids("method=card"), sorted(card));
    assert.deepEqual(await ids("status=pending&country=MEX&method=spei"), sorted(spei));
  });

  test("invalid filter values: 400 invalid_request naming the parameter", async () => {
    const m = await newMerchant();
    for (const [q, param] of [["status=paid", "status"], ["method=cash", "method"], ["country=ZZ", "country"]] as const) {
      const r = await api(`/payments?${q}`, { key: sk(m) });
      assertEnvelope(r, "invalid_request", 400);
      assert.equal(r.body.error.param, param);
    }
  });

  test("unknown ids and another merchant's: 404 transaction_not_found (also on the alias)", async () => {
    const a = await newMerchant();
    const b = await newMerchant();
    const p = await newPayment(a);
    assertEnvelope(await api(`/payments/${p.transactionId}`, { key: sk(b) }), "transaction_not_found", 404);
    assertEnvelope(await api(`/transactions/${p.transactionId}`, { key: sk(b) }), "transaction_not_found", 404);
    assertEnvelope(await api("/payments/tx_000000000000000000000000", { key: sk(a) }), "transaction_not_found", 404);
    assertEnvelope(await api("/payments/nope", { key: sk(a) }), "transaction_not_found", 404);
    assert.equal((await api("/payments", { key: sk(b) })).body.pagination.total, 0);
  });

  test("sandbox payments are invisible to the same merchant's production key", async () => {
    const m = await newMerchant();
    const p = await newPayment(m);
    assertEnvelope(await api(`/payments/${p.transactionId}`, { key: m.production.secretKey }), "transaction_not_found", 404);
    const list = await api("/payments", { key: m.production.secretKey });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body, { data: [], pagination: { total: 0, limit: 50, offset: 0, pages: 0 }, hasMore: false, nextCursor: null, previousCursor: null });
    assert.equal((await api("/payments", { key: sk(m) })).body.pagination.total, 1);
  });

  test("a merchant-wide key lists and reads the merchant's payments", async () => {
    const m = await newMerchant();
    const p = await newPayment(m);
    const wide = await createMerchantWideKeys({ merchantId: m.merchantId, environment: "sandbox" });
    const list = await api("/payments", { key: wide.secretKey });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.data.map((t: any) => t.id), [p.transactionId]);
    assert.equal((await api(`/payments/${p.transactionId}`, { key: wide.secretKey })).status, 200);
  });

  test("publishable key: 403 key_kind_not_allowed on list and get", async () => {
    const m = await newMerchant();
    const p = await newPayment(m);
    assertEnvelope(await api("/payments", { key: m.sandbox.publishableKey }), "key_kind_not_allowed", 403);
    assertEnvelope(await api(`/payments/${p.transactionId}`, { key: m.sandbox.publishableKey }), "key_kind_not_allowed", 403);
  });
});

describe("POST /payments/{id}/simulate (3.1) and the events outbox", () => {
  test("paid: pending -> completed, payment.completed + payment.captured carrying the transaction", async () => {
    const m = await newMerchant();
    const p = await newPayment(m, "sbx_pix");
    const r = await simulate(m, p.transactionId, "paid");
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { id: p.transactionId, status: "completed", eventsFired: ["payment.completed", "payment.captured"] });
    const t = await getPayment(m, p.transactionId);
    assert.equal(t.status, "completed");
    assert.ok(Date.parse(t.timestamps.completed) >= Date.parse(t.timestamps.created));

    const rows = await events(m.merchantId);
    assert.deepEqual(sortedTypes(rows), ["payment.captured", "payment.completed"]);
    for (const e of rows) {
      assertEventShape(e);
      assert.deepEqual((e.payload as any).data.object, t, "data.object is the transaction as GET returns it");
    }
  });

  test("failed: pending -> failed, payment.failed", async () => {
    const m = await newMerchant();
    const p = await newPayment(m, "sbx_spei");
    const r = await simulate(m, p.transactionId, "failed");
    assert.deepEqual(r.body, { id: p.transactionId, status: "failed", eventsFired: ["payment.failed"] });
    const t = await getPayment(m, p.transactionId);
    assert.equal(t.status, "failed");
    const rows = await events(m.merchantId);
    assert.deepEqual(sortedTypes(rows), ["payment.failed"]);
    assertEventShape(rows[0]!);
    assert.deepEqual((rows[0]!.payload as any).data.object, t);
    // Nothing reached the ledger.
    const b = await balance(m);
    assert.deepEqual(b.balance, { available: 0, pending: 0, frozen: 0, reserve: 0 });
  });

  test("expired: pending -> expired, payment.failed", async () => {
    const m = await newMerchant();
    const p = await newPayment(m, "sbx_cash");
    const r = await simulate(m, p.transactionId, "expired");
    assert.deepEqual(r.body, { id: p.transactionId, status: "expired", eventsFired: ["payment.failed"] });
    const rows = await events(m.merchantId);
    assert.deepEqual(sortedTypes(rows), ["payment.failed"]);
    assertEventShape(rows[0]!);
    assert.equal((rows[0]!.payload as any).data.object.id, p.transactionId);
    assert.equal((rows[0]!.payload as any).data.object.status, "expired");
  });

  test("refunded: completed -> refunded, payment.refunded; the ledger stays consistent", async () => {
    const m = await newMerchant();
    const p = await paidPayment(m, "sbx_pix");
    const r = await simulate(m, p.transactionId, "refunded");
    assert.deepEqual(r.body, { id: p.transactionId, status: "refunded", eventsFired: ["payment.refunded"] });
    const t = await getPayment(m, p.transactionId);
    assert.equal(t.status, "refunded");
    assert.equal(t.refundedAmountLocal, t.amountLocal);
    const rows = await eventsAbout(m.merchantId, p.transactionId);
    assert.deepEqual(sortedTypes(rows), ["payment.captured", "payment.completed", "payment.refunded"]);
    const refunded = rows.find((e) => e.type === "payment.refunded")!;
    assertEventShape(refunded);
    assert.deepEqual((refunded.payload as any).data.object, t);
    const b = await balance(m);
    assert.deepEqual(b.ledgerWarnings, []);
    assert.equal(b.balance.pending, 0, "the refunded amount left this payment's pending net");
    assert.equal(b.balance.frozen, 0);
  });

  test("chargeback: completed stays completed, chargeback.created + claim.opened carrying the claim", async () => {
    const m = await newMerchant();
    const p = await paidPayment(m, "sbx_card", { amount: 40 });
    const r = await simulate(m, p.transactionId, "chargeback");
    assert.deepEqual(r.body, { id: p.transactionId, status: "completed", eventsFired: ["chargeback.created", "claim.opened"] });
    assert.equal((await getPayment(m, p.transactionId)).status, "completed");

    const all = await events(m.merchantId);
    const claimEvents = all.filter((e) => e.type === "chargeback.created" || e.type === "claim.opened");
    assert.deepEqual(sortedTypes(claimEvents), ["chargeback.created", "claim.opened"]);
    const claimId = (claimEvents[0]!.payload as any).data.object.id;
    assert.match(claimId, /^CLM-/);
    const claim = await api(`/claims/${claimId}`, { key: sk(m) });
    assert.equal(claim.status, 200);
    assert.equal(claim.body.claim.kind, "chargeback");
    assert.equal(claim.body.claim.status, "open");
    assert.equal(claim.body.claim.transactionId, p.transactionId);
    assert.equal(claim.body.claim.amount, 40);
    assert.equal(claim.body.claim.amountUsd, 40);
    for (const e of claimEvents) {
      assertEventShape(e);
      assert.deepEqual((e.payload as any).data.object, claim.body.claim, "data.object is the claim as GET /claims returns it");
    }
    // The disputed amount is frozen against the open claim.
    const b = await balance(m);
    assert.equal(b.balance.frozen, 40);
    assert.deepEqual(b.ledgerWarnings, []);
    // A full refund must wait for the open claim.
    assertEnvelope(await simulate(m, p.transactionId, "refunded"), "invalid_request", 400);
  });

  test("five concurrent paid simulations: one completion, one ledger posting, events once", async () => {
    const m = await newMerchant();
    const p = await newPayment(m, "sbx_card", { amount: 100 });
    const results = await Promise.all(Array.from({ length: 5 }, () => simulate(m, p.transactionId, "paid")));
    for (const r of results) assert.ok(r.status === 200 || r.body?.error?.code === "invalid_request", r.text);
    assert.equal(results.filter((r) => r.body.eventsFired?.length).length, 1, "exactly one call fired the events");
    assert.deepEqual(sortedTypes(await events(m.merchantId)), ["payment.captured", "payment.completed"]);
    const b = await balance(m);
    assertBuckets(b.balance, { available: 0, pending: expectedPricing(100, "premium", await catalogFee(m, "sbx_card")).pending, reserve: 0, frozen: 0 });
    assert.deepEqual(b.ledgerWarnings, []);
  });

  test("actions the status does not allow: 400 invalid_request, no change, no event", async () => {
    const m = await newMerchant();
    const pending = await newPayment(m);
    const completed = await paidPayment(m);
    const failed = await newPayment(m);
    await simulate(m, failed.transactionId, "failed");
    const before = (await events(m.merchantId)).length;
    const cases: Array<[any, string, string]> = [
      [completed, "paid", "completed"],
      [completed, "failed", "completed"],
      [completed, "expired", "completed"],
      [pending, "refunded", "pending"],
      [pending, "chargeback", "pending"],
      [failed, "paid", "failed"],
      [failed, "expired", "failed"],
      [failed, "refunded", "failed"],
    ];
    for (const [p, action, status] of cases) {
      const r = await simulate(m, p.transactionId, action);
      assertEnvelope(r, "invalid_request", 400);
      assert.equal(r.body.error.details.status, status, `${action} on ${status}`);
      assert.equal((await getPayment(m, p.transactionId)).status, status);
    }
    assert.equal((await events(m.merchantId)).length, before);
  });

  test("bad action: 400; production key: 400 production_key_refused; unknown or another merchant's id: 404", async () => {
    const m = await newMerchant();
    const other = await newMerchant();
    const p = await newPayment(m);
    const bad = await simulate(m, p.transactionId, "capture");
    assertEnvelope(bad, "invalid_request", 400);
    assert.equal(bad.body.error.param, "action");
    const none = await api(`/payments/${p.transactionId}/simulate`, { key: sk(m), body: {} });
    assertEnvelope(none, "missing_field", 400);
    assert.equal(none.body.error.param, "action");
    assertEnvelope(await api(`/payments/${p.transactionId}/simulate`, { key: m.production.secretKey, body: { action: "paid" } }), "production_key_refused", 400);
    assertEnvelope(await simulate(m, "tx_000000000000000000000000", "paid"), "transaction_not_found", 404);
    assertEnvelope(await simulate(other, p.transactionId, "paid"), "transaction_not_found", 404);
    assertEnvelope(await api(`/payments/${p.transactionId}/simulate`, { key: m.sandbox.publishableKey, body: { action: "paid" } }), "key_kind_not_allowed", 403);
    assert.equal((await getPayment(m, p.transactionId)).status, "pending");
    assert.deepEqual(await events(m.merchantId), []);
  });
});

describe("Sandbox-Simulate header (delays × SANDBOX_DELAY_SCALE)", () => {
  const outcome = async (value: string, rail: SandboxRail = "sbx_card") => {
    const m = await newMerchant();
    const p = await newPayment(m, rail, {}, { "sandbox-simulate": value });
    assert.equal(p.status, "pending", "the create answer is always pending");
    return { m, p };
  };

  test("paid: completed after the scaled 5 s, with payment.completed", async () => {
    const { m, p } = await outcome("paid", "sbx_pix");
    const t = await waitForStatus(m, p.transactionId, "completed");
    assert.ok(Date.parse(t.timestamps.completed) - Date.parse(t.timestamps.created) >= 50, "not before its delay");
    await waitFor(async () => (await eventsAbout(m.merchantId, p.transactionId)).some((e) => e.type === "payment.completed"), "payment.completed");
  });

  test("failed: failed, with payment.failed", async () => {
    const { m, p } = await outcome("failed");
    await waitForStatus(m, p.transactionId, "failed");
    assert.deepEqual(sortedTypes(await eventsAbout(m.merchantId, p.transactionId)), ["payment.failed"]);
  });

  test("expired: expired, with payment.failed", async () => {
    const { m, p } = await outcome("expired", "sbx_spei");
    await waitForStatus(m, p.transactionId, "expired");
    assert.deepEqual(sortedTypes(await eventsAbout(m.merchantId, p.transactionId)), ["payment.failed"]);
  });

  // Five payments, because the failure depends on which of the two due actions the job runner
  // happens to take first.
  test(
    "chargeback: paid, then a chargeback claim opens; the payment stays completed",
    async () => {
      const m = await newMerchant();
      const ps = [];
      for (let i = 0; i < 5; i++) ps.push(await newPayment(m, "sbx_card", {}, { "sandbox-simulate": "chargeback" }));
      await settleAll(ps.map((p) => waitForStatus(m, p.transactionId, "completed")));
      await settleAll(
        ps.map(async (p) => {
          const opened = await waitFor(
            async () => (await events(m.merchantId)).find((e) => e.type === "chargeback.created" && (e.payload as any).data.object.transactionId === p.transactionId),
            `chargeback.created for ${p.transactionId}`,
            3_000,
          );
          const claim = (opened.payload as any).data.object;
          assert.equal(claim.kind, "chargeback");
          assert.equal(claim.status, "open");
          assert.equal(claim.amount, p.amountLocal);
          assert.ok((await events(m.merchantId)).some((e) => e.type === "claim.opened" && (e.payload as any).data.object.id === claim.id));
          assert.equal((await getPayment(m, p.transactionId)).status, "completed");
        }),
      );
    },
  );

  test("slow_payment: completed, not before 60 s × scale (600 ms)", async () => {
    const { m, p } = await outcome("slow_payment");
    const t = await waitForStatus(m, p.transactionId, "completed");
    const took = Date.parse(t.timestamps.completed) - Date.parse(t.timestamps.created);
    assert.ok(took >= 600, `completed ${took} ms after creation`);
  });

  test("without the header a sandbox payment stays pending (nothing is scheduled)", async () => {
    const m = await newMerchant();
    const p = await newPayment(m);
    // Another payment with a header, created after it, finishes: the ticker has run since.
    const q = await newPayment(m, "sbx_card", {}, { "sandbox-simulate": "paid" });
    await waitForStatus(m, q.transactionId, "completed");
    assert.equal((await getPayment(m, p.transactionId)).status, "pending");
  });
});

describe("GET /me/balance", () => {
  test("a new merchant: zeros everywhere, no movements", async () => {
    const m = await newMerchant({ tier: "standard" });
    const b = await balance(m);
    assert.equal(b.merchantId, m.merchantId);
    assert.equal(b.currency, "USD");
    assert.deepEqual(b.balance, { available: 0, pending: 0, frozen: 0, reserve: 0 });
    assert.deepEqual(b.ledgerWarnings, []);
    assert.deepEqual(b.movements, []);
    assert.deepEqual(b.reserveSchedule, []);
    assert.equal(b.feeSummary.grossVolume, 0);
  });

  for (const tier of ["standard", "premium", "starter"] as const) {
    test(`${tier}: after a paid payment, pending = amount − fees − reserve; reserve per tier`, async () => {
      const m = await newMerchant({ tier });
      const p = await paidPayment(m, "sbx_card", { amount: 100 });
      const price = expectedPricing(100, tier, await catalogFee(m, "sbx_card"));
      assert.deepEqual(p.fees, price.fees);
      assert.equal(p.settlement.reserve, price.reserve);

      const b = await balance(m);
      assert.equal(b.tier, tier);
      assert.equal(typeof b.trustScore, "number");
      assertBuckets(b.balance, { available: 0, pending: price.pending, reserve: price.reserve, frozen: 0 });
      assert.deepEqual(b.ledgerWarnings, []);
      assert.equal(b.rollingReservePct, Number(RESERVE_BP[tier]) / 100);
      assert.equal(b.withdrawalFeeUsd, WITHDRAWAL_FEE[tier]);
      assert.deepEqual(b.feeSummary, {
        grossVolume: 100,
        platformFees: price.platformPercent,
        flatFees: 0.3,
        chargebackFees: 0,
        totalFees: price.fees.total,
        netBalance: major(cents(100) - cents(price.fees.total)),
      });

      assert.ok(b.movements.length > 0);
      for (const mv of b.movements) {
        assert.deepEqual(Object.keys(mv).sort(), ["amount", "bucket", "claimId", "createdAt", "id", "transactionId", "type"]);
        assert.match(mv.id, /^ent_/);
        assert.ok(!Number.isNaN(Date.parse(mv.createdAt)));
        assert.equal(mv.transactionId, p.transactionId);
        assert.equal(mv.claimId, null);
      }
      const completion = b.movements.filter((mv: any) => mv.type === "payment_completed");
      const byBucket = Object.fromEntries(completion.map((mv: any) => [mv.bucket, mv.amount]));
      assert.deepEqual(byBucket, price.reserve > 0 ? { pending: price.pending, reserve: price.reserve } : { pending: price.pending });

      if (b.balance.reserve > 0) {
        assert.equal(b.reserveSchedule.length, 1);
        assert.equal(b.reserveSchedule[0].amount, price.reserve);
        const inDays = (Date.parse(b.reserveSchedule[0].releaseAt) - Date.now()) / 86_400_000;
        assert.ok(inDays > 88 && inDays <= 90, `reserve released in ~90 days, got ${inDays.toFixed(2)}`);
      } else {
        assert.deepEqual(b.reserveSchedule, []);
      }
    });
  }

  test("pending and failed payments do not move the balance", async () => {
    const m = await newMerchant();
    await newPayment(m);
    const f = await newPayment(m);
    await simulate(m, f.transactionId, "failed");
    const b = await balance(m);
    assert.deepEqual(b.balance, { available: 0, pending: 0, frozen: 0, reserve: 0 });
    assert.equal(b.feeSummary.grossVolume, 0);
  });

  test("sandbox and production balances are separate; publishable key: 403 key_kind_not_allowed", async () => {
    const m = await newMerchant();
    await paidPayment(m);
    const live = await api("/me/balance", { key: m.production.secretKey });
    assert.equal(live.status, 200);
    assert.deepEqual(live.body.balance, { available: 0, pending: 0, frozen: 0, reserve: 0 });
    assert.deepEqual(live.body.movements, []);
    assertEnvelope(await api("/me/balance", { key: m.sandbox.publishableKey }), "key_kind_not_allowed", 403);
  });
});

describe("refunds (POST /payments/{id}/refund) and claims (GET /claims/{id})", () => {
  const refund = (m: CreatedMerchant, id: string, body?: unknown, headers: Record<string, string> = {}) =>
    api(`/payments/${id}/refund`, { key: sk(m), method: "POST", body, headers });

  const waitResolved = (m: CreatedMerchant, claimId: string) =>
    waitFor(async () => {
      const r = await api(`/claims/${claimId}`, { key: sk(m) });
      return r.body?.claim?.status === "resolved" && r.body.claim;
    }, `claim ${claimId} resolved`);

  test("partial refund in local currency: 200 refund (2.12); frozen, then auto-resolved; the payment stays completed", async () => {
    const m = await newMerchant(); // premium: no reserve
    const p = await paidPayment(m, "sbx_pix", { amount: 100 }); // 540.00 BRL
    const idem = randomUUID();
    const r = await refund(m, p.transactionId, { amount: 54, reason: "requested_by_customer" }, { "idempotency-key": idem });
    assert.equal(r.status, 200, r.text);
    assert.match(r.body.refundId, /^CLM-[0-9A-Z]+$/);
    assert.deepEqual({ ...r.body, refundId: undefined, createdAt: undefined }, {
      refundId: undefined,
      transactionId: p.transactionId,
      amount: 54,
      amountUsd: 10,
      currency: "BRL",
      status: "pending",
      reason: "requested_by_customer",
      createdAt: undefined,
    });
    assert.ok(!Number.isNaN(Date.parse(r.body.createdAt)));

    // The same key and body replays the same refund; one claim.
    const replay = await refund(m, p.transactionId, { amount: 54, reason: "requested_by_customer" }, { "idempotency-key": idem });
    assert.equal(replay.headers.get("idempotent-replayed"), "true");
    assert.deepEqual(replay.body, r.body);
    assert.equal(await db().claim.count({ where: { transactionId: p.transactionId } }), 1);
    assertEnvelope(await refund(m, p.transactionId, { amount: 55, reason: "requested_by_customer" }, { "idempotency-key": idem }), "idempotency_conflict", 409);
    assert.equal(await db().claim.count({ where: { transactionId: p.transactionId } }), 1);

    const claim = await waitResolved(m, r.body.refundId);
    assert.equal(claim.id, r.body.refundId);
    assert.equal(claim.kind, "user_dispute");
    assert.equal(claim.transactionId, p.transactionId);
    assert.equal(claim.amount, 54);
    assert.equal(claim.amountUsd, 10);
    assert.equal(claim.currency, "BRL");
    assert.equal(claim.reason, "requested_by_customer");
    assert.deepEqual(claim.history.map((h: any) => h.status), ["pending", "resolved"]);
    assert.ok(Date.parse(claim.resolvedAt) >= Date.parse(claim.createdAt));

    const t = await getPayment(m, p.transactionId);
    assert.equal(t.status, "completed");
    assert.equal(t.refundedAmountLocal, 54);

    // The amount was frozen, then left the balance; nothing stays frozen.
    const b = await balance(m);
    assert.deepEqual(b.ledgerWarnings, []);
    assertBuckets(b.balance, { available: 0, pending: major(cents(expectedPricing(100, "premium", await catalogFee(m, "sbx_pix")).pending) - 1000n), reserve: 0, frozen: 0 });
    const moves = (type: string) => b.movements.filter((x: any) => x.type === type && x.claimId === r.body.refundId);
    assert.deepEqual(moves("refund_freeze").filter((x: any) => x.bucket === "frozen").map((x: any) => x.amount), [10], "the refund was frozen first");
    // From this payment's pending net (or from available, had a settlement run already).
    assert.equal(moves("refund_freeze").filter((x: any) => x.bucket !== "frozen").reduce((sum: number, x: any) => sum + x.amount, 0), -10);
    assert.deepEqual(moves("refund_resolved").map((x: any) => [x.bucket, x.amount]), [["frozen", -10]], "then left the balance from frozen");

    const evs = await events(m.merchantId);
    const resolved = evs.filter((e) => e.type === "claim.resolved");
    assert.equal(resolved.length, 1);
    assertEventShape(resolved[0]!);
    assert.deepEqual((resolved[0]!.payload as any).data.object, claim);
    const refunded = evs.filter((e) => e.type === "payment.refunded");
    assert.equal(refunded.length, 1);
    assertEventShape(refunded[0]!);
    assert.equal((refunded[0]!.payload as any).data.object.id, p.transactionId);
    assert.equal((refunded[0]!.payload as any).data.object.refundedAmountLocal, 54);
  });

  test("refunds up to the captured amount: over-refund 422; the last refund (no body) makes the payment refunded", async () => {
    const m = await newMerchant();
    // A second, settled payment funds `available`: fees make a payment's own net smaller than its amount.
    const funding = await paidPayment(m, "sbx_card", { amount: 100 });
    await settleNow(funding.transactionId);
    const p = await paidPayment(m, "sbx_card", { amount: 100 });
    const net = expectedPricing(100, "premium", await catalogFee(m, "sbx_card")).pending; // 94.30
    assertBuckets((await balance(m)).balance, { available: net, pending: net, reserve: 0, frozen: 0 });

    const first = await refund(m, p.transactionId, { amount: 30 });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.reason, null);
    // While the first is pending, the remaining amount already excludes it.
    const over = await refund(m, p.transactionId, { amount: 70.01 });
    assertEnvelope(over, "amount_out_of_limits", 422);
    assert.equal(over.body.error.details.boundViolated, "max");
    assert.equal(over.body.error.details.limit.max, 70);
    await waitResolved(m, first.body.refundId);
    assert.equal((await getPayment(m, p.transactionId)).status, "completed");

    const rest = await refund(m, p.transactionId);
    assert.equal(rest.status, 200, rest.text);
    assert.equal(rest.body.amount, 70);
    assert.equal(rest.body.amountUsd, 70);
    assert.equal(rest.body.currency, "USD");
    await waitResolved(m, rest.body.refundId);
    const t = await waitForStatus(m, p.transactionId, "refunded");
    assert.equal(t.refundedAmountLocal, 100);

    const b = await balance(m);
    assert.deepEqual(b.ledgerWarnings, []);
    // 100 USD left: this payment's unsettled net (94.30) and 5.70 from available (the same total had
    // a settlement run in between).
    assert.deepEqual(b.balance, { available: major(cents(net) - 570n), pending: 0, frozen: 0, reserve: 0 });

    const evs = await events(m.merchantId);
    assert.equal(evs.filter((e) => e.type === "payment.refunded" && (e.payload as any).data.object.id === p.transactionId).length, 2);
    assert.deepEqual(
      evs.filter((e) => e.type === "claim.resolved").map((e) => (e.payload as any).data.object.id).sort(),
      [first.body.refundId, rest.body.refundId].sort(),
    );
    const last = evs.filter((e) => e.type === "payment.refunded").at(-1)!;
    assert.equal((last.payload as any).data.object.status, "refunded");

    // Nothing is left to refund.
    assertEnvelope(await refund(m, p.transactionId, { amount: 1 }), "invalid_request", 400);
  });

  test("two concurrent refunds that together exceed the payment: exactly one is accepted", async () => {
    const m = await newMerchant();
    const p = await paidPayment(m, "sbx_card", { amount: 100 });
    const results = await Promise.all([1, 2].map(() => refund(m, p.transactionId, { amount: 60 })));
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 422]);
    assertEnvelope(results.find((r) => r.status === 422)!, "amount_out_of_limits", 422);
    assert.equal(await db().claim.count({ where: { transactionId: p.transactionId } }), 1);
    await waitResolved(m, results.find((r) => r.status === 200)!.body.refundId);
    assert.equal((await getPayment(m, p.transactionId)).refundedAmountLocal, 60);
    assert.deepEqual((await balance(m)).ledgerWarnings, []);
  });

  // Premium (no reserve): a concurrent reserve release (see assertBuckets) cannot change the
  // outcome, and a concurrent settlement changes only where the money sits, not the shortfall.
  test("a full refund right after payment: 422 balance_insufficient (the net after fees is all there is); nothing frozen", async () => {
    const m = await newMerchant({ tier: "premium" });
    const p = await paidPayment(m, "sbx_card", { amount: 100 });
    const net = expectedPricing(100, "premium", await catalogFee(m, "sbx_card")).pending; // 94.30
    const full = await refund(m, p.transactionId);
    assertEnvelope(full, "balance_insufficient", 422);
    assert.equal(full.body.error.details.shortfallUsd, 5.7, "the fees are not the merchant's to give back");
    assert.ok([0, net].includes(full.body.error.details.availableUsd), `availableUsd ${full.body.error.details.availableUsd}`);
    // One cent more than the net is still too much; the net itself can be refunded.
    const cent = await refund(m, p.transactionId, { amount: major(cents(net) + 1n) });
    assertEnvelope(cent, "balance_insufficient", 422);
    assert.equal(cent.body.error.details.shortfallUsd, 0.01);
    assert.equal(await db().claim.count({ where: { transactionId: p.transactionId } }), 0, "no claim for a refused refund");
    assertBuckets((await balance(m)).balance, { available: 0, pending: net, reserve: 0, frozen: 0 });
    assert.equal((await getPayment(m, p.transactionId)).refundedAmountLocal, 0);

    const ok = await refund(m, p.transactionId, { amount: net });
    assert.equal(ok.status, 200, ok.text);
    await waitResolved(m, ok.body.refundId);
    const b = await balance(m);
    assert.deepEqual(b.balance, { available: 0, pending: 0, frozen: 0, reserve: 0 });
    assert.deepEqual(b.ledgerWarnings, []);
    assert.equal((await getPayment(m, p.transactionId)).status, "completed", "5.70 of 100 is still unrefunded");
  });

  test("refund of a pending or failed payment: 400 invalid_request; bad amounts: 400 amount_invalid", async () => {
    const m = await newMerchant();
    const pending = await newPayment(m);
    const r = await refund(m, pending.transactionId, { amount: 1 });
    assertEnvelope(r, "invalid_request", 400);
    assert.equal(r.body.error.details.status, "pending");
    const failed = await newPayment(m);
    await simulate(m, failed.transactionId, "failed");
    assertEnvelope(await refund(m, failed.transactionId), "invalid_request", 400);

    const p = await paidPayment(m, "sbx_spei");
    for (const amount of [0, -1, "x", "5", null, 1.001]) {
      const bad = await refund(m, p.transactionId, { amount });
      assertEnvelope(bad, "amount_invalid", 400);
      assert.equal(bad.body.error.param, "amount", JSON.stringify(amount));
    }
    const longReason = await refund(m, p.transactionId, { amount: 1, reason: "x".repeat(501) });
    assertEnvelope(longReason, "invalid_request", 400);
    assert.equal(longReason.body.error.param, "reason");
    assert.equal(await db().claim.count({ where: { merchantId: m.merchantId } }), 0);
  });

  test("unknown ids and other merchants' payments and claims: 404; publishable key: 403", async () => {
    const a = await newMerchant();
    const b = await newMerchant();
    const p = await paidPayment(a, "sbx_card", { amount: 50 });
    const r = await refund(a, p.transactionId, { amount: 5 });
    assert.equal(r.status, 200, r.text);
    assertEnvelope(await refund(b, p.transactionId, { amount: 5 }), "transaction_not_found", 404);
    assertEnvelope(await refund(a, "tx_000000000000000000000000", { amount: 5 }), "transaction_not_found", 404);
    assertEnvelope(await api(`/payments/${p.transactionId}/refund`, { key: a.production.secretKey, method: "POST", body: { amount: 5 } }), "transaction_not_found", 404);
    assertEnvelope(await api(`/payments/${p.transactionId}/refund`, { key: a.sandbox.publishableKey, method: "POST", body: { amount: 5 } }), "key_kind_not_allowed", 403);

    assert.equal((await api(`/claims/${r.body.refundId}`, { key: sk(a) })).status, 200);
    assertEnvelope(await api(`/claims/${r.body.refundId}`, { key: sk(b) }), "claim_not_found", 404);
    assertEnvelope(await api(`/claims/${r.body.refundId}`, { key: a.production.secretKey }), "claim_not_found", 404);
    assertEnvelope(await api("/claims/CLM-UNKNOWN0000000000", { key: sk(a) }), "claim_not_found", 404);
    assertEnvelope(await api(`/claims/${r.body.refundId}`, { key: a.sandbox.publishableKey }), "key_kind_not_allowed", 403);
  });
});

describe("GET /payment-methods", () => {
  test("sandbox: the seven test rails first, all routable, absolute icon URLs that resolve; counts", async () => {
    const m = await newMerchant();
    const r = await api("/payment-methods", { key: sk(m) });
    assert.equal(r.status, 200);
    const b = r.body;
    assert.deepEqual(b.shop, { id: m.shopId, name: b.shop.name });
    assert.equal(b.environment, "sandbox");
    assert.deepEqual(b.filters, { country: null, channel: null, method: null });
    assert.deepEqual(b.methods.slice(0, 7).map((x: any) => x.paymentMethodId), ["sbx_pix", "sbx_spei", "sbx_pse", "sbx_card", "sbx_cash", "sbx_boleto", "sbx_br_card"]);
    for (const x of b.methods.slice(7)) assert.match(x.paymentMethodId, /^\d{4}$/);
    assert.equal(b.count, b.methods.length);
    assert.equal(b.totalAvailable, b.methods.filter((x: any) => x.enabled).length);
    assert.equal(b.routableCount, b.methods.filter((x: any) => x.routable).length);
    for (const x of b.methods.slice(0, 7)) {
      const rail = RAIL[x.paymentMethodId as SandboxRail];
      assert.equal(x.routable, true);
      assert.equal(x.enabled, true);
      assert.equal(x.unroutableReason, null);
      assert.equal(x.method, rail.method);
      assert.equal(x.countryIso3, rail.country);
      assert.equal(x.channel, rail.channel);
      assert.deepEqual(x.currencies, [rail.currency]);
      assert.equal(x.currencyLimits[0].currency, rail.currency);
    }
    const icons = new Set<string>(b.methods.map((x: any) => x.iconUrl));
    for (const url of icons) {
      assert.match(url, /^https?:\/\//);
      const res = await page(url);
      assert.equal(res.status, 200, url);
      assert.match(res.headers.get("content-type") ?? "", /^image\/svg\+xml/);
    }
    for (const x of b.methods) assert.ok(x.iconUrl.endsWith(x.imageUrl), "imageUrl is the relative form of iconUrl");
    // A publishable key may read the catalog.
    assert.deepEqual((await api("/payment-methods", { key: m.sandbox.publishableKey })).body, b);
  });

  test("filters: country (ISO-2 and ISO-3), channel, method; invalid values: 400 invalid_request", async () => {
    const m = await newMerchant();
    const list = async (q: string) => {
      const r = await api(`/payment-methods?${q}`, { key: sk(m) });
      assert.equal(r.status, 200, `${q}: ${r.text}`);
      assert.equal(r.body.count, r.body.methods.length);
      return r.body;
    };
    const br = await list("country=BR");
    assert.equal(br.filters.country, "BRA");
    assert.ok(br.methods.length > 0 && br.methods.every((x: any) => x.countryIso3 === "BRA" && x.country === "BR"));
    assert.equal(br.methods[0].paymentMethodId, "sbx_pix");
    assert.deepEqual((await list("country=BRA")).methods, br.methods);
    const cash = await list("channel=CASH");
    assert.equal(cash.filters.channel, "CASH");
    assert.ok(cash.methods.every((x: any) => x.channel === "CASH"));
    assert.ok(cash.methods.some((x: any) => x.paymentMethodId === "sbx_cash"));
    const spei = await list("method=spei");
    assert.ok(spei.methods.every((x: any) => x.method === "spei"));
    assert.deepEqual(spei.methods.map((x: any) => x.paymentMethodId), ["sbx_spei", "1003"]);
    const combined = await list("country=MX&channel=CASH");
    assert.deepEqual(combined.methods.map((x: any) => x.paymentMethodId), ["sbx_cash", "1004"]);
    assert.equal((await list("country=AR")).count, 0);
    // totalAvailable counts the shop's whole catalog, not the filtered page.
    assert.equal(combined.totalAvailable, (await list("")).totalAvailable);

    for (const [q, param] of [["channel=PHONE", "channel"], ["method=cash", "method"], ["country=ZZ", "country"]] as const) {
      const r = await api(`/payment-methods?${q}`, { key: sk(m) });
      assertEnvelope(r, "invalid_request", 400);
      assert.equal(r.body.error.param, param);
    }
  });

  test("a rail disabled for the shop is listed with enabled false, routable false, reason method_not_enabled_for_shop", async () => {
    const m = await newMerchant();
    const before = (await api("/payment-methods", { key: sk(m) })).body;
    await setShopPaymentMethods(m.shopId, { enable: [], disable: ["1004"] });
    // The server drops its cached shop methods when PostgreSQL's NOTIFY reaches it: soon, not
    // necessarily before this process's next request.
    const after = await waitFor(async () => {
      const body = (await api("/payment-methods", { key: sk(m) })).body;
      return body.methods.find((x: any) => x.paymentMethodId === "1004")?.enabled === false && body;
    }, "the server to see the disabled rail");
    const oxxo = after.methods.find((x: any) => x.paymentMethodId === "1004");
    assert.equal(oxxo.enabled, false);
    assert.equal(oxxo.routable, false);
    assert.equal(oxxo.unroutableReason, "method_not_enabled_for_shop");
    assert.equal(after.totalAvailable, before.totalAvailable - 1);
    assert.equal(after.routableCount, before.routableCount - 1);
  });

  test("production: only the 4-digit ids; routable exactly where a provider of the rail is configured; merchant-wide key: 401 shop_required", async () => {
    const m = await newMerchant();
    await setShopPaymentMethods(m.shopId, { enable: [], disable: ["1002"] });
    const r = await api("/payment-methods", { key: m.production.secretKey });
    assert.equal(r.status, 200);
    assert.equal(r.body.environment, "production");
    // The test server's provider configuration is its environment, which this process shares.
    const configured = (code: string) => !!process.env[`PROVIDER_${code.toUpperCase()}_URL`] && !!process.env[`PROVIDER_${code.toUpperCase()}_SECRET`];
    const live = PRODUCTION_RAILS.filter((x) => !x.retired);
    assert.deepEqual(r.body.methods.map((x: any) => x.paymentMethodId), live.map((x) => x.paymentMethodId));
    for (const x of r.body.methods) {
      assert.match(x.paymentMethodId, /^\d{4}$/);
      const rail = live.find((y) => y.paymentMethodId === x.paymentMethodId)!;
      const enabled = x.paymentMethodId !== "1002";
      const routable = enabled && rail.providers.some(configured);
      assert.equal(x.enabled, enabled, x.paymentMethodId);
      assert.equal(x.routable, routable, x.paymentMethodId);
      assert.equal(x.unroutableReason, !enabled ? "method_not_enabled_for_shop" : routable ? null : "no_provider_configured", x.paymentMethodId);
    }
    assert.equal(r.body.routableCount, r.body.methods.filter((x: any) => x.routable).length);
    assert.equal(r.body.totalAvailable, live.length - 1);
    const wide = await createMerchantWideKeys({ merchantId: m.merchantId, environment: "sandbox" });
    assertEnvelope(await api("/payment-methods", { key: wide.secretKey }), "shop_required", 401);
  });
});

describe("the sandbox provider's hosted page", () => {
  const action = (id: string, value: string) =>
    page(`/pay/sandbox/${id}/action`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `action=${value}` });

  test("the page shows the instructions; POST action=paid: 303 to the result page, payment completed, events fired", async () => {
    const m = await newMerchant();
    const p = await newPayment(m, "sbx_spei");
    const html = await (await page(p.paymentFormUrl)).text();
    assert.ok(html.includes("Test mode"));
    assert.ok(html.includes("CLABE"));
    assert.ok(html.includes("Simulate paid"));

    const res = await action(p.transactionId, "paid");
    assert.equal(res.status, 303);
    assert.equal(new URL(res.headers.get("location")!).pathname, `/c/${p.transactionId}/result`);
    assert.equal((await getPayment(m, p.transactionId)).status, "completed");
    assert.deepEqual(sortedTypes(await events(m.merchantId)), ["payment.captured", "payment.completed"]);
    const after = await (await page(p.paymentFormUrl)).text();
    assert.ok(after.includes("completed"));
    assert.ok(!after.includes("Simulate paid"), "no buttons once the payment is final");
    // A late click changes nothing.
    assert.equal((await action(p.transactionId, "failed")).status, 303);
    assert.equal((await getPayment(m, p.transactionId)).status, "completed");
  });

  test("after a hosted-checkout payment completes, the page links back to the merchant's returnUrl", async () => {
    const m = await newMerchant();
    const returnUrl = "https://shop.example/return?order=7";
    const p = await newPayment(m, "sbx_pix", { hostedCheckout: true, returnUrl });
    const providerPage = (await page(p.checkoutUrl)).headers.get("location")!;
    assert.ok(!(await (await page(providerPage)).text()).includes(returnUrl), "no way back while pending");
    assert.equal((await action(p.transactionId, "paid")).status, 303);
    const html = await (await page(providerPage)).text();
    assert.ok(html.includes(`href="${returnUrl}"`), "a link back to the merchant");
  });

  test("POST action=failed: payment failed; unknown action 400; unknown payment 404", async () => {
    const m = await newMerchant();
    const p = await newPayment(m);
    assert.equal((await action(p.transactionId, "refunded")).status, 400);
    assert.equal((await getPayment(m, p.transactionId)).status, "pending");
    assert.equal((await action(p.transactionId, "failed")).status, 303);
    assert.equal((await getPayment(m, p.transactionId)).status, "failed");
    assert.equal((await action("tx_000000000000000000000000", "paid")).status, 404);
    assert.equal((await page("/pay/sandbox/tx_000000000000000000000000")).status, 404);
  });
});
