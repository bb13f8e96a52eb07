// The payout environment's money over real HTTP (API reference 2.9, 2.10, 3.3; decisions.md
// Payouts): the methods and currencies catalog, the payout balance, sandbox funding, the transfer
// from the pay-in balance, and swap quotes executed exactly once.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { api, assertEnvelope, newMerchant } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { settleDueBalances } from "@/lib/settlements/settle-balances";
import { DAY, sk, email, balanceOf, fund, ledger, seedRates } from "./payouts-fixtures.ts";

after(() => db().$disconnect());
before(seedRates);

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
