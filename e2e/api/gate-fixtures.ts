// The set-up of gate.test.ts (not a test file itself): one merchant with an owner and a viewer
// signed in, the objects its money actions act on (filled in by the API steps, in order), the
// money endpoints with placeholder ids, and the snapshot of what a refused call must not change.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { newMerchant, waitFor } from "./helpers.ts";
import { actionFinder, signIn } from "./dashboard-session.ts";
import { db } from "@/lib/platform/db";
import { ENDPOINTS } from "@/lib/openapi/endpoints";
import { ruleOf } from "@/lib/platform/auth/policy";
import { createDashboardUser } from "@/lib/accounts/users";
import { setRate } from "@/lib/money/rates";
import { clabeCheckDigit } from "@/lib/rails/document-rules";
import type { CreatedMerchant } from "@/lib/merchants/create-merchant";

export const PASSWORD = "correct horse battery staple";
export const DAY = 86_400_000;
export const email = (who: string) => `${who}-${randomUUID().slice(0, 8)}@example.test`;
export const clabe = (first17 = "00218001234567890") => first17 + clabeCheckDigit(first17);
export const speiRecipient = () => ({ name: "Carlos Ruiz", account: clabe(), bankCode: "002", documentId: "GODE561231GR8", documentType: "RFC", email: email("beneficiary") });

// The merchant, its sandbox key and its owner's and viewer's sessions, set by setUpGate (the test file's before()).
export let m: CreatedMerchant;
export let sk = "";
export let owner = "";
export let viewer = "";
/** Objects the money actions act on, made through the API with the merchant's secret key. */
export const ids = { pending: "", pending2: "", completed: "", account: "", payout: "", payout2: "", hook: "", hook2: "", delivery: "", quote: "", keyPair: "", production: "", claim: "", claim2: "", qr: "", qr2: "", settlement: "", withdrawal: "", topup: "" };
export let find: ReturnType<typeof actionFinder>;
/** The merchant's sandbox key from now on: the dashboard's last money action rolls it. */
export const keyRolled = (secretKey: string) => {
  sk = secretKey;
};

export async function ok(r: Promise<{ status: number; text: string; body?: any }>, what: string) {
  const res = await r;
  assert.ok(res.status >= 200 && res.status < 300, `${what}: ${res.status} ${res.text.slice(0, 300)}`);
  return res.body;
}

export async function setUpGate() {
  await setRate("MXN", "18.20", "test");
  m = await newMerchant();
  sk = m.sandbox.secretKey;
  const ownerEmail = email("owner");
  const viewerEmail = email("viewer");
  await createDashboardUser({ merchantId: m.merchantId, email: ownerEmail, password: PASSWORD, role: "owner" });
  await createDashboardUser({ merchantId: m.merchantId, email: viewerEmail, password: PASSWORD, role: "viewer" });
  owner = await signIn(ownerEmail, PASSWORD);
  viewer = await signIn(viewerEmail, PASSWORD);
  find = actionFinder(owner);
}

/** A path of the endpoint with placeholder ids: the gate answers before any lookup. */
export const concrete = (path: string) => path.replace(/\{(\w+)\}/g, (_m, name: string) => `${name}_gate_1`);
export const moneyEndpoints = () => ENDPOINTS.filter((e) => e.auth !== "none" && !e.internal && ruleOf(e.permission!).money);
/** What changes when money moves or a secret is minted: none of it may change on a refusal. */
export async function snapshot() {
  const where = { merchantId: m.merchantId };
  return JSON.stringify({
    ledger: await db().ledgerEntry.count({ where }),
    claims: await db().claim.findMany({ where, select: { id: true, status: true }, orderBy: { id: "asc" } }),
    payouts: await db().payout.findMany({ where, select: { id: true, status: true }, orderBy: { id: "asc" } }),
    transactions: await db().transaction.findMany({ where, select: { id: true, status: true }, orderBy: { id: "asc" } }),
    hooks: await db().webhookSubscription.findMany({ where, select: { id: true, url: true, status: true, events: true, secretEncrypted: true }, orderBy: { id: "asc" } }),
    swaps: await db().payoutSwap.count({ where }),
    deposits: await db().deposit.count({ where }),
    keys: await db().apiKeyPair.findMany({ where, select: { id: true, secretVersion: true, secretHash: true }, orderBy: { id: "asc" } }),
  });
}

/** The snapshot once the jobs started by earlier steps (refund confirmation, settlement) are done: unchanged for 1 s (job ticks are 100 ms). */
export async function settledSnapshot(): Promise<string> {
  let last = await snapshot();
  let since = Date.now();
  return waitFor(async () => {
    const now = await snapshot();
    if (now !== last) [last, since] = [now, Date.now()];
    return Date.now() - since >= 1000 && now;
  }, "background jobs to settle", 20_000);
}
