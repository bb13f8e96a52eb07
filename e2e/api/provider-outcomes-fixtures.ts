// Shared set-up of the provider outcome API tests (provider-outcomes-*.test.ts; not a test file
// itself): the simulated PSPs' control endpoints and per-buyer behaviours, fresh CLABEs and SPEI
// recipients, ledger sums, postings and events, a funded production merchant, a settled production
// payment, and the FX rates each file seeds in its before().
import assert from "node:assert/strict";
import { randomUUID, randomInt } from "node:crypto";
import { api, newMerchant, waitFor } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { setRate } from "@/lib/money/rates";
import { clabeCheckDigit } from "@/lib/rails/document-rules";
import { settleDueBalances } from "@/lib/settlements/settle-balances";
import { setShopDepositMethods } from "@/lib/deposits/set-shop-deposit-methods";
import type { CreatedMerchant } from "@/lib/merchants/create-merchant";

export const PSP = { pagosur: process.env.PROVIDER_PAGOSUR_URL!, andespay: process.env.PROVIDER_ANDESPAY_URL!, rapidpay: process.env.PROVIDER_RAPIDPAY_URL! };
export type Psp = keyof typeof PSP;
export const DAY = 86_400_000;
export const email = () => `who-${randomUUID().slice(0, 8)}@example.com`;
/** A CLABE of its own per test, so the simulator's count of payments to it is this test's. */
export const freshClabe = () => {
  let first17 = "002180";
  for (let i = 0; i < 11; i++) first17 += String(randomInt(10));
  return first17 + clabeCheckDigit(first17);
};
export const speiRecipient = (account: string, who: string) => ({ name: "Carlos Ruiz", account, bankCode: "002", documentId: "GODE561231GR8", documentType: "RFC", email: who });

export async function psp(p: Psp, path: string, body?: unknown) {
  const r = await fetch(`${PSP[p]}${path}`, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  assert.equal(r.status, 200, `${path}: ${await r.clone().text()}`);
  return r.json() as Promise<any>;
}
export const behave = (p: Psp, mode: string, forEmail: string) => psp(p, "/_control/behaviour", { mode, forEmail, times: 1 });
export const timesPaid = async (account: string) => (await psp("pagosur", `/_control/beneficiaries/${account}`)).paid as number;
export async function ledger(merchantId: string, account: string, currency: string): Promise<bigint> {
  const r = await db().ledgerEntry.aggregate({ where: { merchantId, environment: "production", account, currency }, _sum: { amount: true } });
  return r._sum.amount ?? 0n;
}
export const postings = (merchantId: string, kind: string) => db().ledgerPosting.count({ where: { merchantId, environment: "production", kind } });
export const payoutEvents = (id: string, type: string) => db().event.count({ where: { type, payload: { path: ["data", "object", "id"], equals: id } } });

/** The production FX rates the payouts and charges need (a table every test file seeds with the same values). */
export async function seedRates() {
  for (const [quote, rate] of [["BRL", "5.40"], ["MXN", "18.20"], ["COP", "4100"], ["PEN", "3.75"]] as const) await setRate(quote, rate, "test");
}

/** A production merchant with MXN in its payout balance (a SPEI deposit, settled, moved and swapped). */
export async function fundedMerchant(): Promise<CreatedMerchant> {
  const m = await newMerchant({ tier: "premium" });
  const key = m.production.secretKey;
  await setShopDepositMethods(m.shopId, { enable: ["dm_spei_pagosur"] });
  const a = await api("/me/deposit-accounts", { key, body: { endUserRef: `u-${randomUUID()}`, name: "Pay In", email: email() } });
  assert.ok(a.status === 201 || a.status === 200, a.text);
  const sent = await psp("pagosur", "/_control/deposits", { clabe: a.body.account.clabe, amount: "364000", payerName: "Payer", payerBank: "Banorte" });
  assert.deepEqual(sent.statuses, [200]);
  await settleDueBalances({ now: new Date(Date.now() + 4 * DAY), merchantId: m.merchantId });
  assert.equal((await api("/me/payout/transfer", { key, body: { amountUsd: 150 } })).status, 200);
  const quote = await api("/me/payout/swap?currency=MXN&amountUsd=150", { key });
  assert.equal((await api("/me/payout/swap", { key, body: { quoteId: quote.body.quoteId } })).status, 200);
  return m;
}
/** A completed, settled production SPEI payment through pagosur for `buyer`. */
export async function paidPayment(key: string, buyer: string, amount = 40) {
  const r = await api("/payments", { key, body: { amount, paymentMethodId: "1003", userName: "Juan Pérez", userEmail: buyer, documentId: "GODE561231GR8" } });
  assert.equal(r.status, 200, r.text);
  const tx = r.body.transactionId as string;
  const charge = (await db().transaction.findUniqueOrThrow({ where: { id: tx } })).providerRef!;
  await psp("pagosur", `/_control/charges/${charge}/paid`, {});
  await waitFor(async () => (await api(`/payments/${tx}`, { key })).body.status === "completed", "completion");
  await settleDueBalances({ now: new Date(Date.now() + 3 * DAY), merchantId: (await db().transaction.findUniqueOrThrow({ where: { id: tx } })).merchantId });
  return { tx, charge };
}
