// Payouts over real HTTP (API reference 2.9-2.11, 3.3, 4.7, 6, 7, 8; decisions.md Payouts): the
// catalog, the balance, sandbox funding, transfer from the pay-in balance, swap quotes, send
// with every rule and error code, 40 parallel sends against a balance of 10 sends, simulation,
// events, and in production dispatch through the simulated providers with signed PAID /
// REJECTED / REFUNDED webhooks, and the simulated driver when no provider is configured.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHmac, randomUUID } from "node:crypto";
import { api, assertEnvelope, extraServer, newMerchant, waitFor } from "./helpers.ts";
import { signedNotice } from "./provider-notices.ts";
import { db } from "@/lib/platform/db";
import { setRate } from "@/lib/money/rates";
import { clabeCheckDigit } from "@/lib/rails/document-rules";
import { settleDueBalances } from "@/lib/settlements/settle-balances";
import { setShopDepositMethods } from "@/lib/deposits/set-shop-deposit-methods";
import { dispatchStalePayouts } from "@/lib/payouts/dispatch-payout";
import type { CreatedMerchant } from "@/lib/merchants/create-merchant";

after(() => db().$disconnect());

const PAGOSUR = process.env.PROVIDER_PAGOSUR_URL!;
const DAY = 86_400_000;
const sk = (m: CreatedMerchant) => m.sandbox.secretKey;
const email = () => `beneficiary-${randomUUID().slice(0, 8)}@example.com`;
const clabe = (first17 = "00218001234567890") => first17 + clabeCheckDigit(first17);
const speiRecipient = (extra: Record<string, unknown> = {}) => ({ name: "Carlos Ruiz", account: clabe(), bankCode: "002", documentId: "GODE561231GR8", documentType: "RFC", email: email(), ...extra });
const pixRecipient = (extra: Record<string, unknown> = {}) => ({ name: "Ana Souza", account: "529.982.247-25", accountType: "CPF", documentId: "52998224725", documentType: "CPF", ...extra });
const coRecipient = (extra: Record<string, unknown> = {}) => ({ name: "Camila Rojas", account: "00123456789", bankCode: "007", accountType: "SAVINGS", documentId: "1020304050", documentType: "CC", ...extra });

const send = (key: string, body: Record<string, unknown>, headers: Record<string, string> = {}) => api("/me/payout/send", { key, body, headers });
const balanceOf = async (key: string, currency: string) => {
  const r = await api("/me/payout/balance", { key });
  assert.equal(r.status, 200, r.text);
  return r.body.balances.find((b: any) => b.currency === currency) ?? null;
};
async function fund(key: string, currency: string, amount: number) {
  const r = await api("/me/payout/fund-sandbox", { key, body: { currency, amount } });
  assert.equal(r.status, 200, r.text);
  return r.body;
}
async function simulate(key: string, id: string, action: string) {
  return api(`/me/payout/send/${id}/simulate`, { key, body: { action } });
}
async function pagosur(path: string, body: unknown) {
  const r = await fetch(`${PAGOSUR}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  assert.equal(r.status, 200, `${path}: ${await r.clone().text()}`);
  return r.json() as Promise<any>;
}
/** Ledger sum of one payout account and currency for the merchant. */
async function ledger(merchantId: string, environment: "sandbox" | "production", account: string, currency: string): Promise<bigint> {
  const r = await db().ledgerEntry.aggregate({ where: { merchantId, environment, account, currency }, _sum: { amount: true } });
  return r._sum.amount ?? 0n;
}

/** Production pay-in money: a SPEI transfer reported by the provider, settled. 1820 MXN = 100 USD. */
async function productionPayin(m: CreatedMerchant, mxnMinor: string) {
  const key = m.production.secretKey;
  await setShopDepositMethods(m.shopId, { enable: ["dm_spei_pagosur"] });
  const a = await api("/me/deposit-accounts", { key, body: { endUserRef: `u-${randomUUID()}`, name: "Pay In", email: email() } });
  assert.ok(a.status === 201 || a.status === 200, a.text);
  const sent = await pagosur("/_control/deposits", { clabe: a.body.account.clabe, amount: mxnMinor, payerName: "Payer", payerBank: "Banorte" });
  assert.deepEqual(sent.statuses, [200]);
  await settleDueBalances({ now: new Date(Date.now() + 4 * DAY), merchantId: m.merchantId });
}

before(async () => {
  for (const [quote, rate] of [["BRL", "5.40"], ["MXN", "18.20"], ["COP", "4100"], ["PEN", "3.75"]] as const) await setRate(quote, rate, "test");
});

describe("catalog and balance", () => {
  test("GET /me/payout/methods: the sandbox's sbx_po_* rails first, then the production rails; funded and currencyAvailable follow the balance", async () => {
    const m = await newMerchant();
    const r = await api("/me/payout/methods", { key: sk(m) });
    assert.equal(r.status, 200, r.text);
    const ids = r.body.items.map((i: any) => i.id);
    assert.deepEqual(ids.slice(0, 4), ["sbx_po_mx_spei", "sbx_po_br_pix", "sbx_po_co_bank", "sbx_po_pe_bank"]);
    assert.ok(ids.includes("po_mx_spei"));
    const spei = r.body.items.find((i: any) => i.id === "po_mx_spei");
    assert.deepEqual({ ...spei, logoUrl: undefined, iconUrl: undefined }, { id: "po_mx_spei", name: "SPEI", currency: "MXN", country: "MEX", rail: "spei", minUsd: 1, maxUsd: 50000, logoUrl: undefined, iconUrl: undefined, funded: false, currencyAvailable: 0 });
    assert.match(spei.iconUrl, /^https?:\/\/.+\/icons\/rails\/spei\.svg$/);
    assert.equal((await fetch(spei.iconUrl)).status, 200);
    await fund(sk(m), "MXN", 250.5);
    const after = (await api("/me/payout/methods", { key: sk(m) })).body.items.filter((i: any) => i.currency === "MXN");
    assert.ok(after.every((i: any) => i.funded === true && i.currencyAvailable === 250.5));
    const prod = await api("/me/payout/methods", { key: m.production.secretKey });
    assert.ok(prod.body.items.every((i: any) => !i.id.startsWith("sbx_")));
  });

  test("GET /me/payout/currencies: USD first, then by currency, with the rails of each", async () => {
    const m = await newMerchant();
    await fund(sk(m), "BRL", 10);
    const r = await api("/me/payout/currencies", { key: sk(m) });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.currencies.map((c: any) => c.currency), ["USD", "BRL", "COP", "MXN", "PEN"]);
    const usd = r.body.currencies[0];
    assert.deepEqual(usd, { currency: "USD", country: null, funded: true, available: 0, rails: [] });
    const brl = r.body.currencies[1];
    assert.deepEqual([brl.funded, brl.available, brl.country], [true, 10, "BRA"]);
    assert.deepEqual(brl.rails.map((x: any) => x.id), ["sbx_po_br_pix", "po_br_pix"]);
    assert.equal(r.body.currencies.find((c: any) => c.currency === "MXN").funded, false);
  });

  test("GET /me/payout/balance: USD always present at 0; fund-sandbox adds currencies; live keys get 400 fund_sandbox_only", async () => {
    const m = await newMerchant();
    const empty = await api("/me/payout/balance", { key: sk(m) });
    assert.deepEqual(empty.body, { merchantId: m.merchantId, environment: "sandbox", balances: [{ currency: "USD", available: 0, pending: 0, reserved: 0 }], transferableFromPayinUsd: 0 });
    const f = await fund(sk(m), "mxn", 1000);
    assert.equal(f.currency, "MXN");
    assert.equal(f.amount, 1000);
    assert.deepEqual(f.balances, [{ currency: "USD", available: 0, pending: 0, reserved: 0 }, { currency: "MXN", available: 1000, pending: 0, reserved: 0 }]);
    await fund(sk(m), "USD", 5.25);
    assert.deepEqual(await balanceOf(sk(m), "USD"), { currency: "USD", available: 5.25, pending: 0, reserved: 0 });
    assertEnvelope(await api("/me/payout/fund-sandbox", { key: sk(m), body: { currency: "EUR", amount: 10 } }), "unsupported_currency", 400);
    for (const amount of [0, -1, "10", 1.001]) assertEnvelope(await api("/me/payout/fund-sandbox", { key: sk(m), body: { currency: "MXN", amount } }), "amount_invalid", 400);
    assertEnvelope(await api("/me/payout/fund-sandbox", { key: m.production.secretKey, body: { currency: "MXN", amount: 10 } }), "fund_sandbox_only", 400);
    assert.deepEqual((await api("/me/payout/balance", { key: m.production.secretKey })).body.balances, [{ currency: "USD", available: 0, pending: 0, reserved: 0 }]);
  });
});

describe("fund and swap", () => {
  test("POST /me/payout/transfer moves USD from the pay-in available balance atomically; more than available is 422 balance_insufficient", async () => {
    const m = await newMerchant({ tier: "premium" });
    const key = sk(m);
    const none = await api("/me/payout/transfer", { key, body: { amountUsd: 10 } });
    assertEnvelope(none, "balance_insufficient", 422);
    assert.deepEqual(none.body.error.details, { availableUsd: 0, shortfallUsd: 10 });
    // 1820 MXN = 100 USD, premium SPEI fees 3.40: 96.60 once settled.
    const a = (await api("/me/deposit-accounts", { key, body: { endUserRef: "u1", name: "Pay In", email: email() } })).body.account;
    assert.equal((await api(`/me/deposit-accounts/${a.id}/simulate-deposit`, { key, body: { amount: 1820, payerName: "P", payerBank: "B" } })).status, 201);
    // This merchant's own: the job's first 500 due payments may all be other tests' (a flake seen in CI).
    await settleDueBalances({ now: new Date(Date.now() + 4 * DAY), merchantId: m.merchantId });
    assert.equal((await api("/me/payout/balance", { key })).body.transferableFromPayinUsd, 96.6);

    const t = await api("/me/payout/transfer", { key, body: { amountUsd: 60.5 } });
    assert.equal(t.status, 200, t.text);
    assert.match(t.body.transfer.id, /^ptr_/);
    assert.equal(t.body.transfer.amountUsd, 60.5);
    assert.equal(t.body.payinAvailableUsd, 36.1);
    assert.deepEqual(t.body.payoutBalance.balances, [{ currency: "USD", available: 60.5, pending: 0, reserved: 0 }]);
    assert.equal(t.body.payoutBalance.transferableFromPayinUsd, 36.1);
    assert.equal((await api("/me/balance", { key })).body.balance.available, 36.1);
    assert.deepEqual((await api("/me/balance", { key })).body.ledgerWarnings, []);
    const over = await api("/me/payout/transfer", { key, body: { amountUsd: 36.11 } });
    assertEnvelope(over, "balance_insufficient", 422);
    assert.deepEqual(over.body.error.details, { availableUsd: 36.1, shortfallUsd: 0.01 });
    for (const amountUsd of [0, -3, "5", 0.001]) assertEnvelope(await api("/me/payout/transfer", { key, body: { amountUsd } }), "amount_invalid", 400);

    // Parallel transfers never take the pay-in balance below zero.
    const parallel = await Promise.all(Array.from({ length: 8 }, () => api("/me/payout/transfer", { key, body: { amountUsd: 10 } })));
    assert.equal(parallel.filter((r) => r.status === 200).length, 3);
    assert.equal(parallel.filter((r) => r.body?.error?.code === "balance_insufficient").length, 5);
    assert.equal((await api("/me/balance", { key })).body.balance.available, 6.1);
  });

  test("swap: a quote fixes rate, 0.50% fee and local amount for 60 s; it executes exactly once; expired, unknown and unfunded quotes are refused", async () => {
    const m = await newMerchant();
    const key = sk(m);
    const q = await api("/me/payout/swap?currency=MXN&amountUsd=100", { key });
    assert.equal(q.status, 200, q.text);
    assert.match(q.body.quoteId, /^swq_/);
    assert.deepEqual({ ...q.body, quoteId: undefined, expiresAt: undefined }, { quoteId: undefined, expiresAt: undefined, from: "USD", to: "MXN", amountUsd: 100, rate: 18.2, amountLocal: 1810.9, feeUsd: 0.5 });
    const ttl = new Date(q.body.expiresAt).getTime() - Date.now();
    assert.ok(ttl > 50_000 && ttl <= 60_000, `expires in ${ttl} ms`);

    const unfunded = await api("/me/payout/swap", { key, body: { quoteId: q.body.quoteId } });
    assertEnvelope(unfunded, "balance_insufficient", 422);
    assert.deepEqual(unfunded.body.error.details, { availableUsd: 0, shortfallUsd: 100 });

    await fund(key, "USD", 150);
    const [x1, x2] = await Promise.all([api("/me/payout/swap", { key, body: { quoteId: q.body.quoteId } }), api("/me/payout/swap", { key, body: { quoteId: q.body.quoteId } })]);
    const ok = [x1, x2].filter((r) => r.status === 200);
    const refused = [x1, x2].filter((r) => r.status === 400);
    assert.equal(ok.length, 1, `${x1.text} ${x2.text}`);
    assert.equal(refused[0]!.body.error.details.reason, "quote_already_executed");
    assert.deepEqual({ ...ok[0]!.body.swap, executedAt: undefined }, { quoteId: q.body.quoteId, from: "USD", to: "MXN", amountUsd: 100, rate: 18.2, amountLocal: 1810.9, feeUsd: 0.5, executedAt: undefined });
    assert.deepEqual(ok[0]!.body.balances, [{ currency: "USD", available: 50, pending: 0, reserved: 0 }, { currency: "MXN", available: 1810.9, pending: 0, reserved: 0 }]);

    const q2 = await api("/me/payout/swap?currency=cop&amountUsd=10", { key });
    assert.equal(q2.body.amountLocal, 40795); // 9.95 × 4100
    await db().payoutSwap.update({ where: { id: q2.body.quoteId }, data: { expiresAt: new Date(Date.now() - 1) } });
    const expired = await api("/me/payout/swap", { key, body: { quoteId: q2.body.quoteId } });
    assertEnvelope(expired, "invalid_request", 400);
    assert.equal(expired.body.error.details.reason, "quote_expired");
    const unknown = await api("/me/payout/swap", { key, body: { quoteId: "swq_nope" } });
    assert.equal(unknown.body.error.details.reason, "quote_not_found");
    // Another merchant's quote is as unknown.
    const other = await newMerchant();
    assert.equal((await api("/me/payout/swap", { key: sk(other), body: { quoteId: q.body.quoteId } })).body.error.details.reason, "quote_not_found");
    assertEnvelope(await api("/me/payout/swap?currency=EUR&amountUsd=10", { key }), "unsupported_currency", 400);
    assertEnvelope(await api("/me/payout/swap?currency=USD&amountUsd=10", { key }), "unsupported_currency", 400);
    for (const a of ["0", "-1", "abc", "1.001"]) assertEnvelope(await api(`/me/payout/swap?currency=MXN&amountUsd=${a}`, { key }), "amount_invalid", 400);
    assertEnvelope(await api("/me/payout/swap?currency=MXN", { key }), "missing_field", 400);
    assert.equal(await ledger(m.merchantId, "sandbox", "swap_fees", "USD"), 50n);
  });
});

describe("POST /me/payout/send", () => {
  test("a real rail debits the balance in the method's currency, in the same transaction as the payout; simulate completes it with payout.completed", async () => {
    const m = await newMerchant();
    const key = sk(m);
    await fund(key, "MXN", 1000);
    const r = await send(key, { methodId: "po_mx_spei", amount: 250.75, recipient: speiRecipient() });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.methodName, "SPEI");
    assert.match(r.body.logoUrl, /spei\.svg$/);
    assert.equal(r.body.iconUrl, r.body.logoUrl);
    const p = r.body.payout;
    assert.match(p.id, /^po_/);
    assert.deepEqual(
      [p.methodId, p.methodName, p.method, p.currency, p.amount, p.status, p.provider, p.environment, p.completedAt, p.failureReason, p.recipient],
      ["po_mx_spei", "SPEI", "spei", "MXN", 250.75, "processing", "sandbox", "sandbox", null, null, { name: "Carlos Ruiz", accountLast4: clabe().slice(-4) }],
    );
    assert.deepEqual(await balanceOf(key, "MXN"), { currency: "MXN", available: 749.25, pending: 0, reserved: 250.75 });

    const done = await simulate(key, p.id, "completed");
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.payout.status, "completed");
    assert.ok(done.body.payout.completedAt);
    assert.deepEqual(await balanceOf(key, "MXN"), { currency: "MXN", available: 749.25, pending: 0, reserved: 0 });
    const events = await db().event.findMany({ where: { merchantId: m.merchantId, type: "payout.completed" } });
    assert.equal(events.length, 1);
    const obj = (events[0]!.payload as any).data.object;
    assert.deepEqual([obj.id, obj.status, obj.amount, obj.currency, obj.method], [p.id, "completed", 250.75, "MXN", "spei"]);
    assert.ok(obj.timestamps.created && obj.timestamps.completed);
    // Sandbox payouts never auto-settle; a completed one does not move again.
    assertEnvelope(await simulate(key, p.id, "failed"), "invalid_request", 400);
    assert.deepEqual(await balanceOf(key, "MXN"), { currency: "MXN", available: 749.25, pending: 0, reserved: 0 });
    assertEnvelope(await simulate(m.production.secretKey, p.id, "completed"), "simulate_sandbox_only", 400);
  });

  test("sbx_po_* rails never debit and need no balance; their simulated failure reverses nothing", async () => {
    const m = await newMerchant();
    const key = sk(m);
    const r = await send(key, { methodId: "sbx_po_br_pix", amount: 99.99, recipient: pixRecipient() });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.payout.status, "processing");
    assert.equal(r.body.payout.currency, "BRL");
    assert.deepEqual((await api("/me/payout/balance", { key })).body.balances, [{ currency: "USD", available: 0, pending: 0, reserved: 0 }]);
    const stay = await simulate(key, r.body.payout.id, "processing");
    assert.equal(stay.status, 200);
    assert.equal(stay.body.payout.status, "processing");
    const failed = await simulate(key, r.body.payout.id, "returned");
    assert.equal(failed.body.payout.status, "failed");
    assert.equal(failed.body.payout.failureReason, "returned");
    assert.equal(await db().ledgerPosting.count({ where: { merchantId: m.merchantId } }), 0);
    const ev = await db().event.findMany({ where: { merchantId: m.merchantId, type: "payout.failed" } });
    assert.equal(ev.length, 1);
    assert.equal((ev[0]!.payload as any).data.object.failureReason, "returned");
    for (const [methodId, recipient] of [["sbx_po_mx_spei", speiRecipient()], ["sbx_po_co_bank", coRecipient()], ["sbx_po_pe_bank", coRecipient({ documentType: "DNI", documentId: "12345678" })]] as const) {
      const s = await send(key, { methodId, amount: 10, recipient });
      assert.equal(s.status, 200, `${methodId}: ${s.text}`);
      assert.equal((await simulate(key, s.body.payout.id, "paid")).body.payout.status, "completed");
    }
  });

  test("every refusal: payout_method_unavailable, amount_invalid, currency_not_funded, balance_insufficient (details), invalid recipients per rail; none debits", async () => {
    const m = await newMerchant();
    const key = sk(m);
    assertEnvelope(await send(key, { methodId: "po_xx_nope", amount: 10, recipient: speiRecipient() }), "payout_method_unavailable", 422);
    assertEnvelope(await send(m.production.secretKey, { methodId: "sbx_po_mx_spei", amount: 10, recipient: speiRecipient() }), "payout_method_unavailable", 422);
    assertEnvelope(await send(key, { amount: 10, recipient: speiRecipient() }), "missing_field", 400);
    for (const amount of [0, -10, "10", 1.001, null]) assertEnvelope(await send(key, { methodId: "po_mx_spei", amount, recipient: speiRecipient() }), "amount_invalid", 422);
    const notFunded = await send(key, { methodId: "po_br_pix", amount: 10, recipient: pixRecipient() });
    assertEnvelope(notFunded, "currency_not_funded", 422);
    assert.equal(notFunded.body.error.details.currency, "BRL");

    await fund(key, "MXN", 182);
    const short = await send(key, { methodId: "po_mx_spei", amount: 200.2, recipient: speiRecipient() });
    assertEnvelope(short, "balance_insufficient", 422);
    // 182 MXN = 10 USD available; 18.20 MXN = 1 USD short (sandbox rate 18.20).
    assert.deepEqual(short.body.error.details, { currency: "MXN", available: 182, shortfall: 18.2, availableUsd: 10, shortfallUsd: 1 });

    const refusals: Array<[string, Record<string, unknown> | undefined, string]> = [
      ["po_mx_spei", undefined, "recipient"],
      ["po_mx_spei", speiRecipient({ name: undefined }), "recipient.name"],
      ["po_mx_spei", speiRecipient({ account: clabe().slice(0, 17) + String((Number(clabe()[17]) + 1) % 10) }), "recipient.account"],
      ["po_mx_spei", speiRecipient({ account: "12345" }), "recipient.account"],
      ["po_mx_spei", speiRecipient({ bankCode: undefined }), "recipient.bankCode"],
      ["po_mx_spei", speiRecipient({ bankCode: "012" }), "recipient.bankCode"],
      ["po_mx_spei", speiRecipient({ documentType: "CPF" }), "recipient.documentType"],
      ["po_mx_spei", speiRecipient({ documentId: "NOT-AN-RFC" }), "recipient.documentId"],
      ["po_mx_spei", speiRecipient({ documentId: undefined }), "recipient.documentId"],
      ["sbx_po_br_pix", pixRecipient({ account: "529.982.247-24" }), "recipient.account"],
      ["sbx_po_br_pix", pixRecipient({ accountType: undefined }), "recipient.accountType"],
      ["sbx_po_br_pix", pixRecipient({ accountType: "EMAIL", account: "not-email" }), "recipient.account"],
      ["sbx_po_br_pix", pixRecipient({ accountType: "PHONE", account: "+5411999998888" }), "recipient.account"],
      ["sbx_po_br_pix", pixRecipient({ accountType: "EVP", account: "1234" }), "recipient.account"],
      ["sbx_po_br_pix", pixRecipient({ accountType: "CNPJ", account: "11.222.333/0001-80" }), "recipient.account"],
      ["sbx_po_br_pix", pixRecipient({ documentId: "11111111111" }), "recipient.documentId"],
      ["sbx_po_co_bank", coRecipient({ account: "12-34-ab" }), "recipient.account"],
      ["sbx_po_co_bank", coRecipient({ bankCode: undefined }), "recipient.bankCode"],
      ["sbx_po_co_bank", coRecipient({ accountType: "CURRENT" }), "recipient.accountType"],
      ["sbx_po_co_bank", coRecipient({ documentType: "DNI" }), "recipient.documentType"],
      ["sbx_po_pe_bank", coRecipient({ documentType: "DNI", documentId: "123" }), "recipient.documentId"],
    ];
    for (const [methodId, recipient, path] of refusals) {
      const r = await send(key, { methodId, amount: 10, ...(recipient ? { recipient } : {}) });
      assertEnvelope(r, "invalid_request", 400);
      assert.ok(r.body.error.details.issues.some((i: any) => i.path === path), `${methodId} ${JSON.stringify(recipient)}: expected an issue at ${path}, got ${JSON.stringify(r.body.error.details.issues)}`);
    }
    // Valid variants pass.
    for (const recipient of [
      pixRecipient({ accountType: "EMAIL", account: "ana@example.com" }),
      pixRecipient({ accountType: "PHONE", account: "+5511987654321" }),
      pixRecipient({ accountType: "EVP", account: randomUUID() }),
      pixRecipient({ accountType: "CNPJ", account: "11.222.333/0001-81", documentType: "CNPJ", documentId: "11222333000181" }),
    ]) {
      const ok = await send(key, { methodId: "sbx_po_br_pix", amount: 1, recipient });
      assert.equal(ok.status, 200, `${JSON.stringify(recipient)}: ${ok.text}`);
    }
    assert.equal(await db().payout.count({ where: { merchantId: m.merchantId, debited: true } }), 0);
    assert.deepEqual(await balanceOf(key, "MXN"), { currency: "MXN", available: 182, pending: 0, reserved: 0 });
  });

  test("Idempotency-Key: a retry never sends twice; the same key with another body is 409", async () => {
    const m = await newMerchant();
    const key = sk(m);
    await fund(key, "MXN", 100);
    const body = { methodId: "po_mx_spei", amount: 40, recipient: speiRecipient() };
    const idem = { "idempotency-key": `k-${randomUUID()}` };
    const [a, b] = await Promise.all([send(key, body, idem), send(key, body, idem)]);
    assert.equal(a.status, 200, a.text);
    assert.equal(b.status, 200, b.text);
    assert.equal(a.body.payout.id, b.body.payout.id);
    const c = await send(key, body, idem);
    assert.equal(c.headers.get("idempotent-replayed"), "true");
    assert.equal(c.body.payout.id, a.body.payout.id);
    assertEnvelope(await send(key, { ...body, amount: 41 }, idem), "idempotency_conflict", 409);
    assert.equal(await db().payout.count({ where: { merchantId: m.merchantId } }), 1);
    assert.deepEqual(await balanceOf(key, "MXN"), { currency: "MXN", available: 60, pending: 0, reserved: 40 });
  });

  test("concurrency: a balance of 100 and 40 parallel sends of 10 give exactly 10 payouts and 30 balance_insufficient; the balance ends at 0, never below", async () => {
    const m = await newMerchant();
    const key = sk(m);
    await fund(key, "MXN", 100);
    const answers = await Promise.all(Array.from({ length: 40 }, () => send(key, { methodId: "po_mx_spei", amount: 10, recipient: speiRecipient() })));
    const ok = answers.filter((r) => r.status === 200);
    const insufficient = answers.filter((r) => r.status === 422 && r.body.error.code === "balance_insufficient");
    assert.equal(ok.length, 10, answers.map((r) => r.status).join(","));
    assert.equal(insufficient.length, 30);
    assert.deepEqual(await balanceOf(key, "MXN"), { currency: "MXN", available: 0, pending: 0, reserved: 100 });
    assert.equal(await ledger(m.merchantId, "sandbox", "payout_available", "MXN"), 0n);
    // Never below zero at any point: replaying the postings in commit order never dips.
    const entries = await db().ledgerEntry.findMany({ where: { merchantId: m.merchantId, account: "payout_available", currency: "MXN" }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    let running = 0n;
    for (const e of entries) {
      running += e.amount;
      assert.ok(running >= 0n, `balance went to ${running}`);
    }
    assert.equal(await db().payout.count({ where: { merchantId: m.merchantId } }), 10);
  });

  test("a failed payout's debit comes back exactly once, however often the failure is reported", async () => {
    const m = await newMerchant();
    const key = sk(m);
    await fund(key, "COP", 50000);
    const r = await send(key, { methodId: "po_co_bank", amount: 20000, recipient: coRecipient() });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(await balanceOf(key, "COP"), { currency: "COP", available: 30000, pending: 0, reserved: 20000 });
    const answers = await Promise.all(["failed", "rejected", "refunded", "failed"].map((a) => simulate(key, r.body.payout.id, a)));
    assert.equal(answers.filter((x) => x.status === 200).length, 1, answers.map((x) => x.text).join("\n"));
    assert.equal(answers.filter((x) => x.status === 400).length, 3);
    assert.deepEqual(await balanceOf(key, "COP"), { currency: "COP", available: 50000, pending: 0, reserved: 0 });
    assert.equal(await db().ledgerPosting.count({ where: { merchantId: m.merchantId, kind: "payout_reversed" } }), 1);
    assert.equal(await db().event.count({ where: { merchantId: m.merchantId, type: "payout.failed" } }), 1);
    const got = await api(`/me/payout/send/${r.body.payout.id}`, { key });
    assert.equal(got.body.payout.status, "failed");
    assert.ok(got.body.payout.failureReason);
    assert.ok(got.body.payout.timestamps.failed);
  });

  test("GET /me/payout/send: newest first, status filter, offset envelope; GET one; 404 payout_not_found for unknown or another merchant's", async () => {
    const m = await newMerchant();
    const key = sk(m);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await send(key, { methodId: "sbx_po_mx_spei", amount: 10 + i, recipient: speiRecipient() })).body.payout.id);
    await simulate(key, ids[1]!, "paid");
    const list = await api("/me/payout/send", { key });
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(list.body.data.map((p: any) => p.id), [...ids].reverse());
    assert.deepEqual(list.body.pagination, { total: 3, limit: 50, offset: 0, pages: 1 });
    const completed = await api("/me/payout/send?status=completed", { key });
    assert.deepEqual(completed.body.data.map((p: any) => p.id), [ids[1]]);
    const page = await api("/me/payout/send?limit=1&offset=1", { key });
    assert.deepEqual(page.body.data.map((p: any) => p.id), [ids[1]]);
    assert.equal(page.body.pagination.pages, 3);
    assertEnvelope(await api("/me/payout/send?status=weird", { key }), "invalid_request", 400);
    const one = await api(`/me/payout/send/${ids[0]}`, { key });
    assert.equal(one.status, 200);
    assert.equal(one.body.payout.id, ids[0]);
    assertEnvelope(await api("/me/payout/send/po_unknown", { key }), "payout_not_found", 404);
    const other = await newMerchant();
    assertEnvelope(await api(`/me/payout/send/${ids[0]}`, { key: sk(other) }), "payout_not_found", 404);
    assertEnvelope(await simulate(sk(other), ids[0]!, "paid"), "payout_not_found", 404);
    assertEnvelope(await api(`/me/payout/send/${ids[0]}`, { key: m.production.secretKey }), "payout_not_found", 404);
    assertEnvelope(await api("/me/payout/send", { key: m.sandbox.publishableKey }), "key_kind_not_allowed", 403);
  });
});

describe("production: providers, signed webhooks, the simulated driver", () => {
  test("transfer, swap and send through the provider; PAID completes; REJECTED twice reverses once; a provider refusal is 422 payout_dispatch_failed with the debit reversed", async () => {
    const m = await newMerchant({ tier: "premium" });
    const key = m.production.secretKey;
    // 3640 MXN = 200 USD pay-in; premium SPEI fees 2.4% + 0.30 + 0.6% + 0.10 = 6.40: 193.60 available.
    await productionPayin(m, "364000");
    assert.equal((await api("/me/payout/transfer", { key, body: { amountUsd: 150 } })).status, 200);
    const quote = await api("/me/payout/swap?currency=MXN&amountUsd=150", { key });
    assert.equal(quote.status, 200, quote.text);
    const swapped = await api("/me/payout/swap", { key, body: { quoteId: quote.body.quoteId } });
    assert.equal(swapped.status, 200, swapped.text);
    const mxn = swapped.body.balances.find((b: any) => b.currency === "MXN").available;
    assert.equal(mxn, 2716.35); // (150 - 0.75) × 18.20

    // Dispatched to the first configured provider of the rail, which answers processing.
    const paid = await send(key, { methodId: "po_mx_spei", amount: 1000, recipient: speiRecipient() });
    assert.equal(paid.status, 200, paid.text);
    assert.equal(paid.body.payout.status, "processing");
    assert.equal(paid.body.payout.provider, "pagosur");
    assert.match(paid.body.payout.providerRef, /^pagosur_po_/);
    const ok = await pagosur(`/_control/payouts/${paid.body.payout.providerRef}/PAID`, {});
    assert.deepEqual(ok.statuses, [200]);
    assert.equal((await api(`/me/payout/send/${paid.body.payout.id}`, { key })).body.payout.status, "completed");
    assert.deepEqual(await balanceOf(key, "MXN"), { currency: "MXN", available: 1716.35, pending: 0, reserved: 0 });

    const rejected = await send(key, { methodId: "po_mx_spei", amount: 700, recipient: speiRecipient() });
    assert.equal(rejected.status, 200, rejected.text);
    assert.deepEqual(await balanceOf(key, "MXN"), { currency: "MXN", available: 1016.35, pending: 0, reserved: 700 });
    const twice = await pagosur(`/_control/payouts/${rejected.body.payout.id}/REJECTED`, { reason: "account_closed", duplicate: true });
    assert.deepEqual(twice.statuses, [200, 200]);
    const failed = (await api(`/me/payout/send/${rejected.body.payout.id}`, { key })).body.payout;
    assert.deepEqual([failed.status, failed.failureReason], ["failed", "rejected: account_closed"]);
    assert.deepEqual(await balanceOf(key, "MXN"), { currency: "MXN", available: 1716.35, pending: 0, reserved: 0 });
    // A late REFUNDED for the same payout changes nothing either.
    await pagosur(`/_control/payouts/${rejected.body.payout.id}/REFUNDED`, {});
    assert.equal(await db().ledgerPosting.count({ where: { merchantId: m.merchantId, kind: "payout_reversed" } }), 1);
    assert.equal(await db().event.count({ where: { merchantId: m.merchantId, environment: "production", type: "payout.failed" } }), 1);
    assert.equal(await db().event.count({ where: { merchantId: m.merchantId, environment: "production", type: "payout.completed" } }), 1);

    // REFUNDED of a processing payout fails it too.
    const refunded = await send(key, { methodId: "po_mx_spei", amount: 16.35, recipient: speiRecipient() });
    await pagosur(`/_control/payouts/${refunded.body.payout.id}/REFUNDED`, {});
    assert.equal((await api(`/me/payout/send/${refunded.body.payout.id}`, { key })).body.payout.status, "failed");

    // The provider refuses: the payout fails and its debit is back before the answer.
    const who = email();
    await pagosur("/_control/behaviour", { mode: "decline", forEmail: who, times: 1 });
    const declined = await send(key, { methodId: "po_mx_spei", amount: 500, recipient: speiRecipient({ email: who }) });
    assertEnvelope(declined, "payout_dispatch_failed", 422);
    assert.equal(declined.body.error.details.failureReason, "beneficiary_account_invalid");
    const row = await db().payout.findUniqueOrThrow({ where: { id: declined.body.error.details.payoutId } });
    assert.equal(row.status, "failed");
    // No usable answer (5xx, garbage, timeout) is unknown, not a refusal: the payout stays
    // processing with its money held; the status job finds the provider never got it and hands
    // it over again under the same reference. Here the provider then rejects each one.
    for (const mode of ["error", "garbage", "timeout"]) {
      const w = email();
      await pagosur("/_control/behaviour", { mode, forEmail: w, times: 1 });
      const r = await send(key, { methodId: "po_mx_spei", amount: 500, recipient: speiRecipient({ email: w }) });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.payout.status, "processing", mode);
      await waitFor(async () => (await db().payout.findUniqueOrThrow({ where: { id: r.body.payout.id } })).providerRef, `the status job re-sends the ${mode} payout`, 15_000);
      await pagosur(`/_control/payouts/${r.body.payout.id}/REJECTED`, { reason: "account_closed" });
      assert.equal((await api(`/me/payout/send/${r.body.payout.id}`, { key })).body.payout.status, "failed");
    }
    assert.deepEqual(await balanceOf(key, "MXN"), { currency: "MXN", available: 1716.35, pending: 0, reserved: 0 });
    assert.equal(await db().ledgerPosting.count({ where: { merchantId: m.merchantId, kind: "payout_reversed" } }), 6);
    assertEnvelope(await simulate(key, paid.body.payout.id, "failed"), "simulate_sandbox_only", 400);

    // A payout committed but never handed over (as if the process died between commit and the
    // call) is dispatched by the sweep; the provider de-duplicates on our id.
    const lost = await send(key, { methodId: "po_mx_spei", amount: 100, recipient: speiRecipient() });
    assert.equal(lost.status, 200, lost.text);
    await db().payout.update({ where: { id: lost.body.payout.id }, data: { dispatchedAt: null, providerRef: null, checkAfter: null, createdAt: new Date(Date.now() - 60_000) } });
    assert.ok((await dispatchStalePayouts({ graceMs: 30_000 })) >= 1);
    const swept = await db().payout.findUniqueOrThrow({ where: { id: lost.body.payout.id } });
    assert.equal(swept.status, "processing");
    assert.ok(swept.dispatchedAt);
    assert.equal(swept.providerRef, lost.body.payout.providerRef, "the provider answered with the payout it already had");
  });

  test("payout webhooks: unsigned or forged are 401; an unknown payout is acknowledged", async () => {
    const body = JSON.stringify({ noticeId: "ntc_x", payoutId: "pagosur_po_nope", status: "PAID" });
    assertEnvelope(await api("/providers/pagosur/payouts", { raw: body, headers: { "content-type": "application/json" } }), "invalid_signature", 401);
    assertEnvelope(await api("/providers/pagosur/payouts", { raw: body, headers: { "content-type": "application/json", "x-provider-signature": createHmac("sha256", "forged").update(body).digest("hex") } }), "invalid_signature", 401);
    assertEnvelope(await api("/providers/nobody/payouts", { raw: body, headers: { "content-type": "application/json", "x-provider-signature": "00" } }), "invalid_signature", 401);
    const ack = await api("/providers/pagosur/payouts", { raw: body, headers: signedNotice("pagosur", body) });
    assert.equal(ack.status, 200, ack.text);
    assert.deepEqual(ack.body, { received: true, applied: false });
    const bad = JSON.stringify({ noticeId: "ntc_y", payoutId: "x", status: "MAYBE" });
    assertEnvelope(await api("/providers/pagosur/payouts", { raw: bad, headers: signedNotice("pagosur", bad) }), "invalid_request", 400);
  });

  test("without a configured provider, the simulated driver completes a production payout at once", async () => {
    const m = await newMerchant({ tier: "premium" });
    await productionPayin(m, "182000"); // 100 USD, 96.60 after fees
    const key = m.production.secretKey;
    assert.equal((await api("/me/payout/transfer", { key, body: { amountUsd: 50 } })).status, 200);
    const q = await api("/me/payout/swap?currency=MXN&amountUsd=50", { key });
    assert.equal((await api("/me/payout/swap", { key, body: { quoteId: q.body.quoteId } })).status, 200);
    const bare = await extraServer({ PROVIDER_PAGOSUR_URL: "", PROVIDER_ANDESPAY_URL: "", PROVIDER_RAPIDPAY_URL: "" });
    try {
      const r = await send(key, { methodId: "po_mx_spei", amount: 100, recipient: speiRecipient() }, {});
      assert.equal(r.status, 200, r.text);
      const viaBare = await api("/me/payout/send", { base: bare.url, key, body: { methodId: "po_mx_spei", amount: 200, recipient: speiRecipient() } });
      assert.equal(viaBare.status, 200, viaBare.text);
      assert.deepEqual([viaBare.body.payout.status, viaBare.body.payout.provider], ["completed", "simulated"]);
      assert.ok(viaBare.body.payout.completedAt);
      assert.match(viaBare.body.payout.providerRef, /^sim_/);
      assert.equal(await db().event.count({ where: { merchantId: m.merchantId, environment: "production", type: "payout.completed" } }), 1);
      // The one dispatched through pagosur on the main server is still processing.
      assert.equal(r.body.payout.provider, "pagosur");
      assert.deepEqual(await balanceOf(key, "MXN"), { currency: "MXN", available: 605.45, pending: 0, reserved: 100 });
    } finally {
      await bare.stop();
    }
  });
});
