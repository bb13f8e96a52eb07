// Shared set-up of the payout API tests (payouts-*.test.ts; not a test file itself): recipients
// per rail, send, fund and simulate requests, the simulated provider's control endpoint, ledger
// sums, production pay-in money, and the FX rates each file seeds in its before().
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { api } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { setRate } from "@/lib/money/rates";
import { clabeCheckDigit } from "@/lib/rails/document-rules";
import { settleDueBalances } from "@/lib/settlements/settle-balances";
import { setShopDepositMethods } from "@/lib/deposits/set-shop-deposit-methods";
import type { CreatedMerchant } from "@/lib/merchants/create-merchant";

export const PAGOSUR = process.env.PROVIDER_PAGOSUR_URL!;
export const DAY = 86_400_000;
export const sk = (m: CreatedMerchant) => m.sandbox.secretKey;
export const email = () => `beneficiary-${randomUUID().slice(0, 8)}@example.com`;
export const clabe = (first17 = "00218001234567890") => first17 + clabeCheckDigit(first17);
export const speiRecipient = (extra: Record<string, unknown> = {}) => ({ name: "Carlos Ruiz", account: clabe(), bankCode: "002", documentId: "GODE561231GR8", documentType: "RFC", email: email(), ...extra });
export const pixRecipient = (extra: Record<string, unknown> = {}) => ({ name: "Ana Souza", account: "529.982.247-25", accountType: "CPF", documentId: "52998224725", documentType: "CPF", ...extra });
export const coRecipient = (extra: Record<string, unknown> = {}) => ({ name: "Camila Rojas", account: "00123456789", bankCode: "007", accountType: "SAVINGS", documentId: "1020304050", documentType: "CC", ...extra });

export const send = (key: string, body: Record<string, unknown>, headers: Record<string, string> = {}) => api("/me/payout/send", { key, body, headers });
export const balanceOf = async (key: string, currency: string) => {
  const r = await api("/me/payout/balance", { key });
  assert.equal(r.status, 200, r.text);
  return r.body.balances.find((b: any) => b.currency === currency) ?? null;
};
export async function fund(key: string, currency: string, amount: number) {
  const r = await api("/me/payout/fund-sandbox", { key, body: { currency, amount } });
  assert.equal(r.status, 200, r.text);
  return r.body;
}
export async function simulate(key: string, id: string, action: string) {
  return api(`/me/payout/send/${id}/simulate`, { key, body: { action } });
}
export async function pagosur(path: string, body: unknown) {
  const r = await fetch(`${PAGOSUR}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  assert.equal(r.status, 200, `${path}: ${await r.clone().text()}`);
  return r.json() as Promise<any>;
}
/** Ledger sum of one payout account and currency for the merchant. */
export async function ledger(merchantId: string, environment: "sandbox" | "production", account: string, currency: string): Promise<bigint> {
  const r = await db().ledgerEntry.aggregate({ where: { merchantId, environment, account, currency }, _sum: { amount: true } });
  return r._sum.amount ?? 0n;
}

/** Production pay-in money: a SPEI transfer reported by the provider, settled. 1820 MXN = 100 USD. */
export async function productionPayin(m: CreatedMerchant, mxnMinor: string) {
  const key = m.production.secretKey;
  await setShopDepositMethods(m.shopId, { enable: ["dm_spei_pagosur"] });
  const a = await api("/me/deposit-accounts", { key, body: { endUserRef: `u-${randomUUID()}`, name: "Pay In", email: email() } });
  assert.ok(a.status === 201 || a.status === 200, a.text);
  const sent = await pagosur("/_control/deposits", { clabe: a.body.account.clabe, amount: mxnMinor, payerName: "Payer", payerBank: "Banorte" });
  assert.deepEqual(sent.statuses, [200]);
  await settleDueBalances({ now: new Date(Date.now() + 4 * DAY), merchantId: m.merchantId });
}

/** The production FX rates the payouts need (a table every test file seeds with the same values). */
export async function seedRates() {
  for (const [quote, rate] of [["BRL", "5.40"], ["MXN", "18.20"], ["COP", "4100"], ["PEN", "3.75"]] as const) await setRate(quote, rate, "test");
}
