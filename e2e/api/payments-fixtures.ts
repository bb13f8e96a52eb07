// Shared set-up of the pay-in API tests (payments-*.test.ts; not a test file itself): the sandbox
// rails' buyers, the expected prices computed independently of the app (integer cents, half-up),
// and small request helpers. Every test makes its own merchant, so the files run in any order.
import assert from "node:assert/strict";
import { api, API_URL, waitFor, type ApiResponse } from "./helpers.ts";
import { settleDueBalances } from "@/lib/settlements/settle-balances";
import { db } from "@/lib/platform/db";
import type { CreatedMerchant } from "@/lib/merchants/create-merchant";

export type Tier = "starter" | "standard" | "premium";

// ---------------------------------------------------------------------------------------------
// Fixtures and expectations, computed independently of the app (integer cents, half-up).

export const BUYER = {
  sbx_pix: { documentId: "529.982.247-25", userName: "Ana Souza", userEmail: "ana@example.com" },
  sbx_spei: { documentId: "GODE561231GR8", userName: "Diego Gomez" },
  sbx_pse: { documentId: "1020304050", userName: "Camila Rojas", userEmail: "camila@example.com" },
  sbx_card: {},
  sbx_cash: { userPhone: "+525512345678", userName: "Luis Perez", userEmail: "luis@example.com", documentId: "PEGL800101" },
  sbx_boleto: { documentId: "529.982.247-25", userName: "Ana Souza" },
  sbx_br_card: {},
  sbx_mx_card: {},
} as const;
export type SandboxRail = keyof typeof BUYER;
/** What a hosted checkout needs of the buyer on any rail (contract 4.4). */
export const HOSTED_BUYER = { userName: "Ana Souza", userEmail: "ana@example.com", documentId: "529.982.247-25" };

/** Sandbox rates (lib/money/rates.ts) × 100, the rail's local currency, slug and settlement delay. */
export const RAIL: Record<SandboxRail, { currency: string; rate100: bigint; method: string; delay: string; country: string; channel: string }> = {
  sbx_pix: { currency: "BRL", rate100: 540n, method: "pix", delay: "T+1", country: "BRA", channel: "ONLINE" },
  sbx_spei: { currency: "MXN", rate100: 1820n, method: "spei", delay: "T+1", country: "MEX", channel: "ONLINE" },
  sbx_pse: { currency: "COP", rate100: 410000n, method: "bank_transfer", delay: "T+1", country: "COL", channel: "ONLINE" },
  sbx_card: { currency: "USD", rate100: 100n, method: "card", delay: "T+2", country: "USA", channel: "CREDIT_CARD" },
  sbx_cash: { currency: "MXN", rate100: 1820n, method: "oxxo", delay: "T+3", country: "MEX", channel: "CASH" },
  sbx_boleto: { currency: "BRL", rate100: 540n, method: "boleto", delay: "T+3", country: "BRA", channel: "CASH" },
  sbx_br_card: { currency: "BRL", rate100: 540n, method: "card", delay: "T+2", country: "BRA", channel: "CREDIT_CARD" },
  sbx_mx_card: { currency: "MXN", rate100: 1820n, method: "card", delay: "T+2", country: "MEX", channel: "CREDIT_CARD" },
};
export const SANDBOX_IDS = Object.keys(RAIL) as SandboxRail[];

export const PLATFORM_BP: Record<Tier, bigint> = { starter: 390n, standard: 290n, premium: 240n };
export const RESERVE_BP: Record<Tier, bigint> = { starter: 1000n, standard: 500n, premium: 0n };
export const WITHDRAWAL_FEE: Record<Tier, number> = { starter: 2, standard: 1, premium: 0 };

export const halfUp = (num: bigint, den: bigint) => (num * 2n + den) / (den * 2n);
export const cents = (major: number) => BigInt(Math.round(major * 100));
export const major = (c: bigint) => Number(c) / 100;

/** Fees, reserve and pending net of a charge (decisions.md Pay-ins), from the rail's catalog fee. */
export function expectedPricing(amount: number, tier: Tier, railFee: { percent: number; flat: number }) {
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
export const expectedLocal = (amount: number, rail: SandboxRail) => major(halfUp(cents(amount) * RAIL[rail].rate100, 100n));

/** Presentment: input ÷ rate × 0.98, half-up to cents. */
export const expectedHeadline = (input: number, rate100: bigint) => major(halfUp(cents(input) * 100n * 9_800n, rate100 * 10_000n));

// ---------------------------------------------------------------------------------------------
// Small helpers.

export const sk = (m: CreatedMerchant) => m.sandbox.secretKey;

export function pay(key: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return api("/payments", { key, body, headers });
}

export function okBody(rail: SandboxRail, extra: Record<string, unknown> = {}) {
  return { amount: 12.34, paymentMethodId: rail, ...BUYER[rail], ...extra };
}

export function created(res: ApiResponse): any {
  assert.equal(res.status, 200, `expected 200, got ${res.status} ${res.text.slice(0, 400)}`);
  return res.body;
}

export async function newPayment(m: CreatedMerchant, rail: SandboxRail = "sbx_card", extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return created(await pay(sk(m), okBody(rail, extra), headers));
}

export async function simulate(m: CreatedMerchant, id: string, action: string) {
  return api(`/payments/${id}/simulate`, { key: sk(m), body: { action } });
}

/** A sandbox payment taken to completed through the simulate endpoint. */
export async function paidPayment(m: CreatedMerchant, rail: SandboxRail = "sbx_card", extra: Record<string, unknown> = {}) {
  const p = await newPayment(m, rail, extra);
  const r = await simulate(m, p.transactionId, "paid");
  assert.equal(r.status, 200, r.text);
  return p;
}

export const getPayment = async (m: CreatedMerchant, id: string) => (await api(`/payments/${id}`, { key: sk(m) })).body;

export async function waitForStatus(m: CreatedMerchant, id: string, status: string, timeoutMs = 10_000) {
  return waitFor(async () => {
    const r = await api(`/payments/${id}`, { key: sk(m) });
    return r.body?.status === status && r.body;
  }, `payment ${id} to become ${status}`, timeoutMs);
}

export const rowCount = (m: CreatedMerchant) => db().transaction.count({ where: { merchantId: m.merchantId } });

export async function assertNoRows(m: CreatedMerchant) {
  assert.equal(await rowCount(m), 0, "a rejected request must not create a transaction");
}

export async function events(merchantId: string) {
  return db().event.findMany({ where: { merchantId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

/** Event rows about one object (a transaction or a claim id). */
export async function eventsAbout(merchantId: string, objectId: string) {
  return (await events(merchantId)).filter((e) => (e.payload as any)?.data?.object?.id === objectId);
}

/** The outbox payload shape of decisions.md (Webhooks): {id evt_, type, createdAt, environment, apiVersion, data:{object}}. */
export function assertEventShape(row: { id: string; type: string; payload: unknown }, environment = "sandbox") {
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

export const sortedTypes = (rows: Array<{ type: string }>) => rows.map((r) => r.type).sort();

export async function balance(m: CreatedMerchant) {
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
export function assertBuckets(actual: Record<string, number>, expected: { available: number; pending: number; reserve: number; frozen: number }) {
  assert.equal(actual.frozen, expected.frozen, "frozen");
  assert.ok(actual.pending === expected.pending || actual.pending === 0, `pending ${actual.pending}, expected ${expected.pending} (or 0 once settled)`);
  assert.ok(actual.reserve === expected.reserve || actual.reserve === 0, `reserve ${actual.reserve}, expected ${expected.reserve} (or 0 once released)`);
  const total = (b: { available: number; pending: number; reserve: number }) => cents(b.available) + cents(b.pending) + cents(b.reserve);
  assert.equal(total(actual as any), total(expected), `available + pending + reserve: ${JSON.stringify(actual)} vs ${JSON.stringify(expected)}`);
}

export async function catalogFee(m: CreatedMerchant, id: string) {
  const r = await api("/payment-methods", { key: sk(m) });
  const entry = r.body.methods.find((x: any) => x.paymentMethodId === id);
  assert.ok(entry, `catalog lists ${id}`);
  return entry.fee as { percent: number; flat: number };
}

/**
 * Promise.all for polling loops: waits for every one to end before rethrowing the first failure,
 * so no loop outlives its test (and the database disconnect of `after`).
 */
export async function settleAll<T>(promises: Promise<T>[]): Promise<T[]> {
  const results = await Promise.allSettled(promises);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<T>).value);
}

/** A non-API path of the app (icons, pages, links). */
export const page = (url: string, init: RequestInit = {}) => fetch(url.startsWith("http") ? url : `${API_URL}${url}`, { redirect: "manual", ...init });

/**
 * Moves one payment's settlement date into the past and runs the settlement job for that date
 * only: T+N cannot elapse in a test, and a `now` in 2001 settles this payment and nothing else.
 */
export async function settleNow(transactionId: string) {
  await db().transaction.update({ where: { id: transactionId }, data: { settleAt: new Date("2001-01-01T00:00:00Z") } });
  // Another runner (the server's ticker, another test's job call) may hold the row at this
  // moment and settle it itself: wait for the outcome, not for our own call.
  await waitFor(async () => {
    await settleDueBalances({ now: new Date("2001-01-02T00:00:00Z") });
    return (await db().transaction.findUniqueOrThrow({ where: { id: transactionId } })).settlementStatus === "settled";
  }, "the payment settled");
}
