// The Stripe API tests' common ground: the Stripe simulator (scripts/psp/stripe, Stripe's own wire
// format) and a second app server configured for it as an operator configures Stripe
// (PROVIDER_STRIPE_SECRET_KEY = a secret key, PROVIDER_STRIPE_WEBHOOK_SECRET = the webhook endpoint's
// whsec_, PROVIDER_STRIPE_URL = the simulator instead of api.stripe.com), with the simulator's
// webhook endpoint registered at our notification URL, as one registers it in Stripe's Dashboard.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { startStripeSimulator } from "../../scripts/psp/stripe/simulator.ts";
import { startProviderServer, type ProviderServer } from "./provider-server.ts";
import { api, waitFor } from "./helpers.ts";
import { setRate } from "@/lib/money/rates";
import { db } from "@/lib/platform/db";

export const STRIPE_SECRET = "sk_test_simulated0123456789";
export const STRIPE_NOTICE_SECRET = "whsec_simulated0123456789";

export type StripeWorld = { sim: { url: string; stop: () => Promise<void> }; server: ProviderServer; noticeUrl: string };

/**
 * One Stripe world per test process (./providers-stripe.test.ts imports every Stripe test
 * module): two servers configured for Stripe but pointing at two simulators would reconcile each
 * other's unrouted rows against the wrong Stripe, which a real deployment (every instance on one
 * Stripe account) never does.
 */
let shared: Promise<StripeWorld> | null = null;
export function startStripeWorld(): Promise<StripeWorld> {
  shared ??= startOneStripeWorld();
  return shared;
}

async function startOneStripeWorld(): Promise<StripeWorld> {
  for (const [quote, rate] of [["BRL", "5.40"], ["MXN", "18.20"]] as const) await setRate(quote, rate, "test");
  const sim = await startStripeSimulator({ secret: STRIPE_SECRET, noticeSecret: STRIPE_NOTICE_SECRET, noticeUrl: "http://127.0.0.1:9/unset" });
  let server: ProviderServer;
  try {
    server = await startProviderServer({ PROVIDER_STRIPE_SECRET_KEY: STRIPE_SECRET, PROVIDER_STRIPE_WEBHOOK_SECRET: STRIPE_NOTICE_SECRET, PROVIDER_STRIPE_URL: sim.url, PROVIDER_STRIPE_TIMEOUT_MS: "1500" });
  } catch (err) {
    await sim.stop();
    throw err;
  }
  const noticeUrl = `${server.url}/api/v1/providers/stripe/notifications`;
  await control(sim.url, "/webhook", { url: noticeUrl });
  return { sim, server, noticeUrl };
}

/** Stops the shared world (the first call does; later ones find it stopped). */
export async function stopStripeWorld(w: StripeWorld | undefined) {
  if (!w || !shared) return;
  shared = null;
  await w.server.stop();
  await w.sim.stop();
}

/** POST /_control/… on the simulator; asserts 200 and answers its JSON. */
export async function control(simUrl: string, path: string, body: unknown = {}): Promise<any> {
  const r = await fetch(`${simUrl}/_control${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  assert.equal(r.status, 200, `${path}: ${await r.clone().text()}`);
  return r.json();
}
export async function simGet(simUrl: string, path: string): Promise<any> {
  const r = await fetch(`${simUrl}/_control${path}`);
  assert.equal(r.status, 200, path);
  return r.json();
}

export const email = () => `stripe-${randomUUID().slice(0, 8)}@example.com`;
export const CPF = "52998224725";
/** A pay-in body per rail (catalog ids, lib/rails/rails.ts), in USD converted at the rates above. */
export const payin = (paymentMethodId: string, userEmail: string, amount = 25) => ({ amount, paymentMethodId, userName: "Ana Souza", userEmail, userPhone: "+525512345678", documentId: paymentMethodId === "1004" || paymentMethodId === "1007" ? "GODE561231GR8" : CPF });

export const row = (id: string) => db().transaction.findUniqueOrThrow({ where: { id } });
export const statusOf = async (key: string, base: string, id: string) => (await api(`/payments/${id}`, { key, base })).body.status as string;
export const completions = (id: string) => db().ledgerPosting.count({ where: { transactionId: id, kind: "payment_completed" } });
export const completedEvents = (id: string) => db().event.count({ where: { type: "payment.completed", payload: { path: ["data", "object", "id"], equals: id } } });

/** Waits until the simulator's deliveries of events about `objectId` got `n` answers with `status`. */
export async function deliveriesAnswered(simUrl: string, objectId: string, n: number, status = 200) {
  return waitFor(async () => {
    const all = (await simGet(simUrl, `/charges/${objectId}`)).deliveries as Array<{ httpStatus: number | null; type: string }>;
    return all.filter((d) => d.httpStatus === status).length >= n && all;
  }, `${n} deliveries for ${objectId} answered ${status}`);
}
