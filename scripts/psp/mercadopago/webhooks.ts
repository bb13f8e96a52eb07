// The Mercado Pago simulator's webhooks, as MP sends them
// (https://www.mercadopago.com.br/developers/en/docs/your-integrations/notifications/webhooks):
// POST <notification_url>?data.id=<payment id>&type=payment, body {id, live_mode, type,
// date_created, user_id, api_version, action, data: {id}}, headers x-request-id (one per
// delivery) and x-signature: ts=<unix seconds, as the page's example>,v1=<hex HMAC-SHA256 of
// "id:<data.id>;request-id:<x-request-id>;ts:<ts>;" keyed with the webhook secret>. A re-delivery
// of the same notification keeps its `id` and is signed again.
import { createHmac, randomUUID } from "node:crypto";
import type { Payment } from "./store.ts";

export type WebhookOptions = { duplicate?: boolean; delayMs?: number; action?: string };

export function createWebhooks(secret: string, fallbackUrl: string, log: (s: string) => void) {
  let notificationId = 20_000_000_000 + Math.floor(Math.random() * 1e6) * 1000;

  async function deliver(p: Payment, url: URL, body: string): Promise<number | null> {
    const requestId = randomUUID();
    const ts = String(Math.floor(Date.now() / 1000));
    const v1 = createHmac("sha256", secret).update(`id:${p.id};request-id:${requestId};ts:${ts};`).digest("hex");
    const status = await fetch(url, { method: "POST", headers: { "content-type": "application/json", "x-request-id": requestId, "x-signature": `ts=${ts},v1=${v1}` }, body, signal: AbortSignal.timeout(22_000) })
      .then((r) => r.status)
      .catch(() => null);
    p.deliveries.push({ status: p.status, httpStatus: status });
    log(`[mercadopago] webhook ${p.id} ${p.status} -> ${status}`);
    return status;
  }

  return {
    /** A payment notice to the payment's notification_url (else the URL registered in "Your integrations"); the HTTP statuses it got. */
    async notify(p: Payment, opts: WebhookOptions = {}): Promise<Array<number | null>> {
      const url = new URL(p.notification_url ?? fallbackUrl);
      url.searchParams.set("data.id", String(p.id));
      url.searchParams.set("type", "payment");
      const body = JSON.stringify({ id: notificationId++, live_mode: false, type: "payment", date_created: new Date().toISOString(), user_id: 1, api_version: "v1", action: opts.action ?? "payment.updated", data: { id: String(p.id) } });
      if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
      const statuses = [await deliver(p, url, body)];
      if (opts.duplicate) statuses.push(await deliver(p, url, body));
      return statuses;
    },
  };
}
export type Webhooks = ReturnType<typeof createWebhooks>;
