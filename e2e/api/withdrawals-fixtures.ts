// Shared set-up of the withdrawal API tests (withdrawals-*.test.ts; not a test file itself): the
// simulated custody provider's control endpoints, destinations, balances and postings, merchants
// funded in the sandbox and in production, and the FX rate each file seeds in its before().
import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { api, newMerchant, waitFor } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { setRate } from "@/lib/money/rates";
import { settleDueBalances } from "@/lib/settlements/settle-balances";
import { setShopDepositMethods } from "@/lib/deposits/set-shop-deposit-methods";
import type { CreatedMerchant } from "@/lib/merchants/create-merchant";

export const DAY = 86_400_000;
export const TRON = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
export const CUSTODY = process.env.CUSTODY_URL!;
export const PAGOSUR = process.env.PROVIDER_PAGOSUR_URL!;
/** A fresh, valid EVM address (all lower case: no checksum to satisfy), so a behaviour can target it. */
export const evm = () => `0x${randomBytes(20).toString("hex")}`;

export async function control(path: string, body?: unknown) {
  const r = await fetch(`${CUSTODY}${path}`, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  assert.equal(r.status, 200, `${path}: ${await r.clone().text()}`);
  return r.json() as Promise<any>;
}
export const behave = (mode: string, forAddress: string) => control("/_control/behaviour", { mode, forAddress, times: 1 });

/** The production FX rate the pay-in money needs (a table every test file seeds with the same values). */
export const seedRates = () => setRate("MXN", "18.20", "test");

export const balance = async (key: string) => (await api("/me/balance", { key })).body;
export const posted = (merchantId: string, kind: string) => db().ledgerPosting.count({ where: { merchantId, kind } });

/** A sandbox merchant with `usd` (about) available: card payments, settled. */
export async function sandboxFunded(usd: number): Promise<CreatedMerchant> {
  const m = await newMerchant({ tier: "standard" });
  const key = m.sandbox.secretKey;
  const p = await api("/payments", { key, body: { amount: usd, paymentMethodId: "sbx_card" } });
  assert.equal(p.status, 200, p.text);
  assert.equal((await api(`/payments/${p.body.transactionId}/simulate`, { key, body: { action: "paid" } })).status, 200);
  await settleDueBalances({ now: new Date(Date.now() + 4 * DAY), merchantId: m.merchantId });
  return m;
}

/** A production merchant with available USD: a SPEI deposit through the simulated PSP, settled. */
export async function productionFunded(): Promise<CreatedMerchant> {
  const m = await newMerchant({ tier: "premium" });
  const key = m.production.secretKey;
  await setShopDepositMethods(m.shopId, { enable: ["dm_spei_pagosur"] });
  const a = await api("/me/deposit-accounts", { key, body: { endUserRef: `u-${randomUUID()}`, name: "Pay In", email: `p-${randomUUID().slice(0, 8)}@example.test` } });
  assert.ok(a.status === 201 || a.status === 200, a.text);
  const sent = await fetch(`${PAGOSUR}/_control/deposits`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ clabe: a.body.account.clabe, amount: "364000", payerName: "Payer", payerBank: "Banorte" }) });
  assert.equal(sent.status, 200);
  assert.deepEqual(((await sent.json()) as { statuses: number[] }).statuses, [200], "the deposit notice was taken");
  await settleDueBalances({ now: new Date(Date.now() + 4 * DAY), merchantId: m.merchantId });
  const funded = await waitFor(async () => { await settleDueBalances({ now: new Date(Date.now() + 4 * DAY), merchantId: m.merchantId }); const b = await balance(key); return b.balance.available > 100 && b; }, "the deposit settled into available", 20_000);
  assert.ok(funded);
  return m;
}
