// Mercado Pago's API tests' set-up: the simulated Mercado Pago (scripts/psp/mercadopago/, MP's
// own wire format) and a second app server configured with it as an operator configures MP
// (access token, webhook secret signature, PROVIDER_MERCADOPAGO_URL pointing at the simulator).
// The suite's simulated common-protocol providers stay behind it in each rail's cascade.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { api, newMerchant, waitFor } from "./helpers.ts";
import { startProviderServer, type ProviderServer } from "./provider-server.ts";
import { startMercadoPagoSimulator } from "../../scripts/psp/mercadopago/simulator.ts";
import { setRate } from "@/lib/money/rates";

export const MP_SECRET = "TEST-4242424242424242-120203-0123456789abcdef0123456789abcdef-123456789";
export const MP_NOTICE_SECRET = "mp-webhook-secret-signature-0123456789abcdef";

export type MercadoPagoEnv = { sim: { url: string; stop: () => Promise<void> }; server: ProviderServer; key: string; merchantId: string; inboxId: string };

/**
 * The one simulator and server of the run, filled by e2e/api/providers-mercadopago.test.ts before
 * its tests. One of each: two servers configured with two simulators as "mercadopago" would each
 * run jobs on the other's rows (reconciliation, refund status) and ask the wrong Mercado Pago.
 */
export const env = {} as MercadoPagoEnv;

export async function startMercadoPagoEnv(): Promise<MercadoPagoEnv> {
  for (const [quote, rate] of [["BRL", "5.40"], ["MXN", "18.20"], ["COP", "4100"]] as const) await setRate(quote, rate, "test");
  const sim = await startMercadoPagoSimulator({ secret: MP_SECRET, noticeSecret: MP_NOTICE_SECRET, noticeUrl: "http://127.0.0.1:9/not-registered" });
  const server = await startProviderServer({ PROVIDER_MERCADOPAGO_ACCESS_TOKEN: MP_SECRET, PROVIDER_MERCADOPAGO_WEBHOOK_SECRET: MP_NOTICE_SECRET, PROVIDER_MERCADOPAGO_URL: sim.url, PROVIDER_MERCADOPAGO_TIMEOUT_MS: "1500" });
  const m = await newMerchant({ tier: "premium" });
  const key = m.production.secretKey;
  // The merchant's webhook: a production subscription to the managed inbox (its own URL would have to be https).
  const sub = await api("/webhooks", { key, body: { events: ["payment.completed"] }, base: server.url });
  assert.equal(sub.status, 200, sub.text);
  return { sim, server, key, merchantId: m.merchantId, inboxId: sub.body.id };
}

/** A control call of the simulator (scripts/psp/mercadopago/control.ts); anything but 200 fails the test. */
export async function mp(env: MercadoPagoEnv, path: string, body?: unknown): Promise<any> {
  const r = await fetch(`${env.sim.url}${path}`, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  assert.equal(r.status, 200, `${path}: ${await r.clone().text()}`);
  return r.json();
}

export const buyer = (prefix = "mp") => `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
export const pix = (email: string, extra: Record<string, unknown> = {}) => ({ amount: 25, paymentMethodId: "1001", userName: "Maria Silva", userEmail: email, documentId: "191.191.191-00", ...extra });

/** Creates a payment through the provider server; 200 expected. */
export async function pay(env: MercadoPagoEnv, body: Record<string, unknown>) {
  const r = await api("/payments", { key: env.key, body, base: env.server.url });
  assert.equal(r.status, 200, r.text);
  return r.body as { transactionId: string; paymentFormUrl: string; [k: string]: unknown };
}

export const paymentOf = async (env: MercadoPagoEnv, tx: string) => (await api(`/payments/${tx}`, { key: env.key, base: env.server.url })).body;

export async function completed(env: MercadoPagoEnv, tx: string, timeoutMs = 15_000) {
  return waitFor(async () => {
    const p = await paymentOf(env, tx);
    return p.status === "completed" && p;
  }, `${tx} completed`, timeoutMs);
}

/** The merchant's inbox received payment.completed for `tx`. */
export async function webhookReceived(env: MercadoPagoEnv, tx: string) {
  return waitFor(async () => {
    const r = await api(`/webhooks/${env.inboxId}/inbox?limit=100`, { key: env.key, base: env.server.url });
    return (r.body?.data ?? []).find((m: any) => m.event === "payment.completed" && m.payload?.data?.object?.id === tx);
  }, `payment.completed of ${tx} in the merchant's inbox`, 15_000);
}

/** The simulator's payments under our transaction id (external_reference). */
export const mpPayments = async (env: MercadoPagoEnv, tx: string) => (await mp(env, `/_control/payments?external_reference=${tx}`)).payments as Array<{ payment: any; deliveries: Array<{ httpStatus: number | null }> }>;
