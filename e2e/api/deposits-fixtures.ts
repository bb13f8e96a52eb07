// Shared set-up of the deposit API tests (deposits-*.test.ts; not a test file itself): the
// simulated providers' control endpoints, end users and accounts, signed deposit notices, the
// metrics gauge, and the production FX rate each file seeds in its before().
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { API_URL, api } from "./helpers.ts";
import { signedNotice } from "./provider-notices.ts";
import { db } from "@/lib/platform/db";
import { setRate } from "@/lib/money/rates";
import type { CreatedMerchant } from "@/lib/merchants/create-merchant";

export const PSP = { pagosur: process.env.PROVIDER_PAGOSUR_URL!, andespay: process.env.PROVIDER_ANDESPAY_URL! };
export type Psp = keyof typeof PSP;

export const sk = (m: CreatedMerchant) => m.sandbox.secretKey;
export const ref = () => `user-${randomUUID().slice(0, 12)}`;
export const email = () => `holder-${randomUUID().slice(0, 8)}@example.com`;
export const holder = (extra: Record<string, unknown> = {}) => ({ endUserRef: ref(), name: "María López", email: email(), ...extra });
export const createAccount = (key: string, body: Record<string, unknown>) => api("/me/deposit-accounts", { key, body });
// Usable accounts: a row still `provisioning` (no CLABE yet, after an unknown provider answer) is not one.
export const accountCount = (m: CreatedMerchant) => db().depositAccount.count({ where: { merchantId: m.merchantId, status: { not: "provisioning" } } });

export async function psp(p: Psp, path: string, body: unknown) {
  const r = await fetch(`${PSP[p]}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  assert.equal(r.status, 200, `${path}: ${await r.clone().text()}`);
  return r.json() as Promise<any>;
}

/** What the simulated provider was asked for this end user: requests, our references, CLABEs it issued. */
export async function clabeCalls(p: Psp, endUserRef: string): Promise<{ requests: number; references: string[]; clabes: string[] }> {
  const r = await fetch(`${PSP[p]}/_control/clabes?endUserRef=${encodeURIComponent(endUserRef)}`);
  assert.equal(r.status, 200);
  return r.json() as Promise<any>;
}

/** Production FX rates are a table shared by every test file; these are the values the other files seed too. */
export const seedRates = () => setRate("MXN", "18.20", "test");
/** A deposit notice signed as pagosur signs it (a fresh noticeId unless given); the raw answer. */
export async function depositNotice(body: Record<string, unknown>) {
  const raw = JSON.stringify({ noticeId: `ntc_${randomUUID()}`, currency: "MXN", ...body });
  return api("/providers/pagosur/deposits", { raw, headers: signedNotice("pagosur", raw) });
}

/** A gauge of /metrics (shared state: the same on every instance); undefined when it is not there. */
export async function gauge(name: string): Promise<number | undefined> {
  const text = await (await fetch(`${API_URL}/metrics`, { headers: { authorization: `Bearer ${process.env.METRICS_TOKEN}` } })).text();
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(" ").pop());
}
