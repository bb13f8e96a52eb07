// The real providers' simulators (each in its provider's own wire format) for `npm start` in
// development and the routing benchmark: started on loopback, with the environment that
// configures the app for each as an operator configures the real provider (its secret, its
// notice secret, PROVIDER_<CODE>_URL pointing at the simulator instead of the provider's host).
import { randomBytes } from "node:crypto";
import { startStripeSimulator } from "./stripe/simulator.ts";
import { startMercadoPagoSimulator } from "./mercadopago/simulator.ts";
import { ebanxNoticeKeys, startEbanxSimulator } from "./ebanx/simulator.ts";

export type RunningSimulator = { code: string; url: string; stop: () => Promise<void> };

const token = (n = 24) => randomBytes(n).toString("hex");

/**
 * Starts every real provider's simulator, its notices addressed to the app at `appUrl`; `port`
 * picks each one's port (npm start's never hands out the app's own), else the system does.
 */
export async function startRealSimulators(appUrl: string, opts: { port?: () => Promise<number>; log?: (s: string) => void } = {}): Promise<{ sims: RunningSimulator[]; env: Record<string, string> }> {
  const log = opts.log;
  const port = async () => (opts.port ? await opts.port() : 0);
  const notices = (code: string) => `${appUrl}/api/v1/providers/${code}/notifications`;
  const sims: RunningSimulator[] = [];
  const env: Record<string, string> = {};
  const stripe = { secret: `sk_test_${token()}`, noticeSecret: `whsec_${token()}` };
  sims.push({ code: "stripe", ...(await startStripeSimulator({ ...stripe, noticeUrl: notices("stripe"), port: await port(), log })) });
  Object.assign(env, { PROVIDER_STRIPE_SECRET_KEY: stripe.secret, PROVIDER_STRIPE_WEBHOOK_SECRET: stripe.noticeSecret, PROVIDER_STRIPE_URL: sims.at(-1)!.url });
  const mercadopago = { secret: `TEST-${token(8)}-${token(16)}`, noticeSecret: token() };
  sims.push({ code: "mercadopago", ...(await startMercadoPagoSimulator({ ...mercadopago, noticeUrl: notices("mercadopago"), port: await port(), log })) });
  Object.assign(env, { PROVIDER_MERCADOPAGO_ACCESS_TOKEN: mercadopago.secret, PROVIDER_MERCADOPAGO_WEBHOOK_SECRET: mercadopago.noticeSecret, PROVIDER_MERCADOPAGO_URL: sims.at(-1)!.url });
  // EBANX signs its notices with its key (RSA-SHA1): the app holds the public half, as an
  // operator holds EBANX's published notification certificate.
  const ebanx = { secret: `ebanx_test_${token(16)}`, keys: ebanxNoticeKeys() };
  const e = await startEbanxSimulator({ secret: ebanx.secret, noticeSecret: ebanx.keys.privateKey, noticeUrl: notices("ebanx"), port: await port(), log });
  sims.push({ code: "ebanx", url: e.url, stop: e.stop });
  Object.assign(env, { PROVIDER_EBANX_INTEGRATION_KEY: ebanx.secret, PROVIDER_EBANX_NOTICE_CERTIFICATE: ebanx.keys.publicKey, PROVIDER_EBANX_URL: e.url });
  return { sims, env };
}
