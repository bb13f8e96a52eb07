// The EBANX test environment shared by providers-ebanx.test.ts and the payout suite it runs
// (providers-ebanx-payouts.ts): ONE simulator and ONE server configured with it. Two servers
// configured with EBANX on the suite's one database would each run the reconciliation and payout
// status jobs and ask their own simulator about the other's rows.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { startProviderServer, type ProviderServer } from "./provider-server.ts";
import { ebanxNoticeKeys, startEbanxSimulator, type EbanxSimulator } from "../../scripts/psp/ebanx/simulator.ts";

export const env = {} as { sim: EbanxSimulator; server: ProviderServer };

export async function startEbanx(): Promise<void> {
  const secret = `test_ik_${randomUUID().replace(/-/g, "")}`;
  const keys = ebanxNoticeKeys();
  env.sim = await startEbanxSimulator({ secret, noticeSecret: keys.privateKey, noticeUrl: "http://127.0.0.1:9/unset" });
  // As an operator configures EBANX: the integration key, EBANX's notification certificate, the API host.
  env.server = await startProviderServer({ PROVIDER_EBANX_INTEGRATION_KEY: secret, PROVIDER_EBANX_NOTICE_CERTIFICATE: keys.publicKey, PROVIDER_EBANX_URL: env.sim.url, PROVIDER_EBANX_TIMEOUT_MS: "1500" });
  // The Notification URL an operator sets in the EBANX Dashboard.
  await control("notice-url", { url: `${env.server.url}/api/v1/providers/ebanx/notifications` });
}

export async function stopEbanx(): Promise<void> {
  await env.server?.stop();
  await env.sim?.stop();
}

export async function post(url: string, body: unknown = {}) {
  const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  assert.equal(r.status, 200, `${url}: ${await r.clone().text()}`);
  return r.json() as Promise<any>;
}
/** The simulator's control API (scripts/psp/ebanx/control.ts). */
export const control = (path: string, body: unknown = {}) => post(`${env.sim.url}/_control/${path}`, body);
export const inspect = async (path: string) => (await fetch(`${env.sim.url}/_control/${path}`)).json() as Promise<any>;
