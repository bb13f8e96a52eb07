// The Mercado Pago simulator's control API (loopback, no secret) and its buyer pages.
//   POST /_control/behaviour {mode, forEmail?, reason?, times?}   the next charge (or refund) of that buyer:
//        accept | decline (201 rejected, status_detail = reason, default cc_rejected_other_reason)
//        | invalid (400 with cause code = reason) | timeout | error | garbage
//        | succeed_then_timeout | succeed_then_error
//   POST /_control/market {scenario}   a market scenario (scripts/psp/market.ts) answers the new
//        payments of bench buyers (m<i>@bench.example): approved as pending like any, declined
//        with the status_detail of scripts/psp/market-real-providers.ts, or 503; {scenario: null} ends it
//   POST /_control/reset                                 (the market too)
//   GET  /_control/payments?external_reference=…        {payments: [{payment, deliveries}]}
//   GET  /_control/payments/{id}                        {payment, deliveries}
//   POST /_control/payments/{id}/{approve|reject|cancel|expire|charge_back} {notify?: true, duplicate?, delayMs?, detail?}
//   POST /_control/payments/{id}/notify {duplicate?}    a notice of the payment as it is now
//   POST /_control/payments/{id}/deny                   GET /v1/payments/{id} answers 404 from now on
//   POST /_control/payments/{id}/outage {times?: 1}     its next GETs answer 500
//   POST /_control/preferences/{id}/pay {status?: approved|rejected, detail?, method?, notify?, duplicate?}
//        the buyer pays on the Checkout Pro page: a payment under the preference's external_reference
// Buyer pages: GET /checkout/v1/redirect?pref_id=… (init_point) and GET /payments/{id}/ticket (ticket_url).
// A refund made through the API is followed by the payment's webhook (payment.updated), as MP
// notifies every update of a payment.
import type http from "node:http";
import type { Payment, Status, Store } from "./store.ts";
import type { Webhooks } from "./webhooks.ts";
import { sendJson } from "./api.ts";

const MOVES: Record<string, [Status, string]> = {
  approve: ["approved", "accredited"],
  reject: ["rejected", "cc_rejected_other_reason"],
  cancel: ["cancelled", "by_collector"],
  expire: ["cancelled", "expired"],
  charge_back: ["charged_back", "settled"],
};

const view = (store: Store, p: Payment) => ({ payment: store.render(p), deliveries: p.deliveries });

export async function serveControl(store: Store, webhooks: Webhooks, req: http.IncomingMessage, res: http.ServerResponse, url: URL, body: any): Promise<void> {
  const parts = url.pathname.split("/").filter(Boolean);
  if (req.method === "POST" && parts[1] === "behaviour") return store.addRule(body), sendJson(res, 200, { rules: store.rules });
  if (req.method === "POST" && parts[1] === "market") return store.market.set(body?.scenario ?? null), sendJson(res, 200, { market: store.market.scenario?.name ?? null });
  if (req.method === "POST" && parts[1] === "reset") return store.reset(), sendJson(res, 200, { ok: true });
  if (req.method === "GET" && parts[1] === "payments" && !parts[2]) {
    const ref = url.searchParams.get("external_reference");
    return sendJson(res, 200, { payments: (ref === null ? [...store.payments.values()] : store.byReference(ref)).map((p) => view(store, p)) });
  }
  if (parts[1] === "payments" && parts[2]) {
    const p = store.payments.get(Number(parts[2]));
    if (!p) return sendJson(res, 404, { error: "unknown payment" });
    if (req.method === "GET" && !parts[3]) return sendJson(res, 200, view(store, p));
    if (req.method === "POST" && parts[3] === "deny") return store.denied.add(String(p.id)), sendJson(res, 200, view(store, p));
    if (req.method === "POST" && parts[3] === "outage") return store.outage.set(String(p.id), Number(body?.times ?? 1)), sendJson(res, 200, view(store, p));
    if (req.method === "POST" && parts[3] === "notify") return sendJson(res, 200, { statuses: await webhooks.notify(p, body) });
    const move = parts[3] ? MOVES[parts[3]] : undefined;
    if (req.method === "POST" && move) {
      store.touch(p, move[0], body?.detail ?? move[1]);
      const statuses = body?.notify === false ? [] : await webhooks.notify(p, body);
      return sendJson(res, 200, { ...view(store, p), statuses });
    }
  }
  if (req.method === "POST" && parts[1] === "preferences" && parts[2] && parts[3] === "pay") {
    const pref = store.preferences.get(parts[2]);
    if (!pref) return sendJson(res, 404, { error: "unknown preference" });
    const approved = (body?.status ?? "approved") === "approved";
    const p = store.newPayment({
      status: approved ? "approved" : "rejected",
      status_detail: body?.detail ?? (approved ? "accredited" : "cc_rejected_other_reason"),
      payment_method_id: body?.method ?? "visa",
      currency_id: pref.currency,
      amount: pref.amount,
      description: pref.items[0]?.title ?? null,
      external_reference: pref.external_reference,
      notification_url: pref.notification_url,
      payer: pref.body.payer ?? {},
      preference_id: pref.id,
    });
    const statuses = body?.notify === false ? [] : await webhooks.notify(p, { ...body, action: "payment.created" });
    return sendJson(res, 200, { ...view(store, p), statuses });
  }
  return sendJson(res, 404, { error: "unknown control" });
}

/** MP's hosted pages, reduced to what a buyer would see: the amount and what to do. */
export function serveBuyerPage(store: Store, res: http.ServerResponse, url: URL): boolean {
  const parts = url.pathname.split("/").filter(Boolean);
  let text: string | null = null;
  if (url.pathname.endsWith("/checkout/v1/redirect")) {
    const pref = store.preferences.get(url.searchParams.get("pref_id") ?? "");
    text = pref ? `Checkout Pro: pay ${pref.currency} ${pref.items[0]?.unit_price} for ${pref.external_reference}` : null;
  } else if (parts[0] === "payments" && parts[2] === "ticket") {
    const p = store.payments.get(Number(parts[1]));
    text = p ? `Ticket ${p.id} (${p.payment_method_id}): pay ${p.currency_id} before it expires` : null;
  } else return false;
  res.writeHead(text ? 200 : 404, { "content-type": "text/html; charset=utf-8" });
  res.end(`<!doctype html><html><body><h1>Mercado Pago (simulated)</h1><p>${text ?? "Not found"}</p></body></html>`);
  return true;
}
