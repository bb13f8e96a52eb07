// The PSP simulators' control endpoints (scripts/psp/control-api.ts), for tests that drive a
// charge at its provider (a PAID with or without its notice, an expiry first, a bare 404) and
// then watch the payment row move.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/platform/db";

export const PSP = { pagosur: process.env.PROVIDER_PAGOSUR_URL!, andespay: process.env.PROVIDER_ANDESPAY_URL!, rapidpay: process.env.PROVIDER_RAPIDPAY_URL! };
export type Psp = keyof typeof PSP;

/** GET (no body) or POST a control path of provider `p`; anything but 200 fails the test. */
export async function psp(p: Psp, path: string, body?: unknown) {
  const r = await fetch(`${PSP[p]}${path}`, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  assert.equal(r.status, 200, `${path}: ${await r.clone().text()}`);
  return r.json() as Promise<any>;
}

/** A fresh buyer address (the simulators' behaviour rules match on it). */
export const buyerEmail = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}@example.com`;

/** The payment's row, as the database has it now. */
export const paymentRow = (id: string) => db().transaction.findUniqueOrThrow({ where: { id } });
