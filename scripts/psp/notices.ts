// The notices a simulated provider (scripts/psp/simulator.ts) sends: signed with the provider's
// NOTICE secret (not the one our calls carry as Bearer),
//   X-Provider-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">
// late, twice or never as a test asks.
import { createHmac, randomBytes } from "node:crypto";
import type { SimulatedProvider } from "./providers.ts";
import type { Charge } from "./store.ts";

/** `t=<unix>,v1=<hex HMAC of "<t>.<body>">` with the notice secret (lib/providers/http-psp/transformers.ts verifies it). */
export function signNoticeHeader(noticeSecret: string, body: string, at = Math.floor(Date.now() / 1000)): string {
  return `t=${at},v1=${createHmac("sha256", noticeSecret).update(`${at}.${body}`).digest("hex")}`;
}

export type Notices = ReturnType<typeof createNotices>;

export function createNotices(p: SimulatedProvider, log: (s: string) => void) {
  return {
    /** Sends a signed notice (twice with `duplicate`) and returns the HTTP statuses it got. */
    async signedPost(url: string, payload: unknown, duplicate?: boolean): Promise<Array<number | null>> {
      const body = JSON.stringify(payload);
      const signature = signNoticeHeader(p.noticeSecret, body);
      const statuses: Array<number | null> = [];
      for (let i = 0; i < (duplicate ? 2 : 1); i++) {
        statuses.push(
          await fetch(url, { method: "POST", headers: { "content-type": "application/json", "x-provider-signature": signature }, body, signal: AbortSignal.timeout(10_000) })
            .then((r) => r.status)
            .catch(() => null),
        );
      }
      log(`[${p.code}] notice to ${url} -> ${statuses.join(",")}`);
      return statuses;
    },

    /** A charge's status notice, after `delayMs`, twice with `duplicate`; each answer is kept on the charge. */
    async notify(c: Charge, opts: { duplicate?: boolean; delayMs?: number } = {}) {
      const body = JSON.stringify({ noticeId: `ntc_${randomBytes(8).toString("hex")}`, chargeId: c.id, reference: c.reference, status: c.status, amount: c.amount, currency: c.currency, occurredAt: new Date().toISOString() });
      const signature = signNoticeHeader(p.noticeSecret, body);
      const deliver = () =>
        fetch(c.notifyUrl, { method: "POST", headers: { "content-type": "application/json", "x-provider-signature": signature }, body, signal: AbortSignal.timeout(10_000) })
          .then((r) => (c.deliveries.push({ status: c.status, httpStatus: r.status }), log(`[${p.code}] notice ${c.id} ${c.status} -> ${r.status}`)))
          .catch((e) => (c.deliveries.push({ status: c.status, httpStatus: null }), log(`[${p.code}] notice ${c.id} failed: ${e.message}`)));
      if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
      await deliver();
      if (opts.duplicate) await deliver();
    },
  };
}
