// The load of crash-recovery.test.ts (not a test file itself): its size, and the idempotent
// money requests it sends (payments, refunds, payout sends, transfers), each with its own key and a
// tag that marks its effect in the database.
import { randomInt, randomUUID } from "node:crypto";
import type { ApiResponse } from "./helpers.ts";
import { clabeCheckDigit } from "@/lib/rails/document-rules";

export const KILLS = 3;
export const PAYMENTS = 90;
export const REFUNDS = 30;
export const PAYOUTS = 30;
export const TRANSFERS = 30;
export const WORKERS = 8;
export const LEASE_MS = 1000;
/** Every request gets a final answer within this, across kills and restarts. */
export const DEADLINE_MS = 150_000;
/** Production MXN paid in (minor units) and the USD of it moved and swapped to the payout balance. */
export const DEPOSIT_MXN_MINOR = "1000000";
export const PAYOUT_USD = 300;

/** A CLABE of its own per payout, so the simulator's count of payments to it is that payout's. */
export const freshClabe = () => {
  let first17 = "002180";
  for (let i = 0; i < 11; i++) first17 += String(randomInt(10));
  return first17 + clabeCheckDigit(first17);
};

export type Job = { kind: "payment" | "refund" | "payout" | "transfer"; apiKey: string; key: string; path: string; body: Record<string, unknown>; tag: string; answer?: ApiResponse };

/** The load: `key` and `liveKey` are the merchant's sandbox and production keys, `setupIds` the completed payments to refund. */
export function loadJobs(key: string, liveKey: string, setupIds: string[]): Job[] {
  const jobs: Job[] = [];
  for (let i = 0; i < PAYMENTS; i++) {
    const tag = `crash-${i}-${randomUUID().slice(0, 8)}`;
    jobs.push({ kind: "payment", apiKey: key, key: `pay-${tag}`, path: "/payments", body: { amount: 10 + (i % 7), paymentMethodId: "sbx_card", merchantOrderId: tag }, tag });
  }
  for (let i = 0; i < REFUNDS; i++) jobs.push({ kind: "refund", apiKey: key, key: `ref-${randomUUID()}`, path: `/payments/${setupIds[i]}/refund`, body: { amount: 5, reason: "crash test" }, tag: setupIds[i]! });
  for (let i = 0; i < PAYOUTS; i++) {
    const tag = `Crash Payee ${i} ${randomUUID().slice(0, 8)}`;
    const recipient = { name: tag, account: freshClabe(), bankCode: "002", documentId: "GODE561231GR8", documentType: "RFC" };
    jobs.push({ kind: "payout", apiKey: liveKey, key: `po-${randomUUID()}`, path: "/me/payout/send", body: { methodId: "po_mx_spei", amount: 100 + i, recipient }, tag });
  }
  // Distinct amounts tell the transfers apart in the database.
  for (let i = 0; i < TRANSFERS; i++) jobs.push({ kind: "transfer", apiKey: key, key: `tr-${randomUUID()}`, path: "/me/payout/transfer", body: { amountUsd: (100 + i) / 100 }, tag: String(100 + i) });
  // Interleave the kinds so every kind is in flight at each kill.
  jobs.sort(() => Math.random() - 0.5);
  return jobs;
}
