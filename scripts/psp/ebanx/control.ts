// The EBANX simulator's control API (loopback only, no key), like scripts/psp/control-api.ts:
//   POST /_control/behaviour {forEmail, mode, code?, message?, times?}
//        pay-in modes: decline (an EBANX error code, BP-DR-23 by default), timeout, error (503),
//        garbage, succeed_then_timeout; payout modes: reject (HP-BR-03 by default), unknown
//        (committed, the commit's answer lost), succeed_then_timeout (created open, the answer
//        lost), timeout, error, garbage
//   POST /_control/market {scenario}: a market scenario (scripts/psp/market.ts) answers the new
//        payments of bench buyers (m<i>@bench.example): created as any, refused with the code of
//        scripts/psp/market-real-providers.ts, or 503; {scenario: null} ends it
//   POST /_control/reset: no knobs, no market
//   POST /_control/payments/{hash|merchant_payment_code}/{pay|cancel|expire|deny|refund-confirm}
//        {notify = true, duplicate, delayMs}: moves the payment and sends EBANX's notice (deny:
//        /ws/query answers "not found" from now on)
//   POST /_control/payouts/{uid|external_reference}/{pay|reject|return} {notify = true, duplicate}
//   POST /_control/notice-url {url}: where notices go from now on
//   POST /_control/notices {hashes, type, forge, unsigned}: one crafted notice (forged: another key)
//   GET  /_control/payments/{id}, /_control/payouts/{id}, /_control/requests, /_control/notices
// Each POST that sends notices answers the HTTP statuses our server gave them.
import type http from "node:http";
import { now, type EbanxStore, type Knob } from "./store.ts";
import type { Notifier } from "./notify.ts";
import { jsonText, paymentJson, payoutJson } from "./wire.ts";

type Ctx = { store: EbanxStore; notifier: Notifier; baseUrl: string };
function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(jsonText(body));
}

async function deliver(ctx: Ctx, hashes: string[], type: string, o: { notify?: boolean; duplicate?: boolean; delayMs?: number }): Promise<Array<number | null>> {
  if (o.notify === false) return [];
  const times = o.duplicate ? 2 : 1;
  const go = async () => {
    const out: Array<number | null> = [];
    for (let i = 0; i < times; i++) out.push(await ctx.notifier.send(hashes, type));
    return out;
  };
  if (o.delayMs) {
    setTimeout(() => void go(), o.delayMs);
    return [];
  }
  return go();
}

export async function serveControl(ctx: Ctx, req: http.IncomingMessage, res: http.ServerResponse, url: URL, text: string): Promise<void> {
  const { store, notifier } = ctx;
  const parts = url.pathname.split("/").filter(Boolean).slice(1).map(decodeURIComponent);
  const b = text ? (JSON.parse(text) as Record<string, any>) : {};
  if (req.method === "GET" && parts[0] === "requests") return send(res, 200, { requests: store.requests.filter((r) => !url.searchParams.get("path") || r.path === url.searchParams.get("path")) });
  if (req.method === "GET" && parts[0] === "notices") return send(res, 200, { deliveries: notifier.deliveries });
  if (req.method === "POST" && parts[0] === "behaviour") {
    if (typeof b.forEmail !== "string" || typeof b.mode !== "string") return send(res, 400, { error: "forEmail and mode are required" });
    store.addKnob(b.forEmail, { mode: b.mode as Knob["mode"], code: b.code, message: b.message, times: b.times });
    return send(res, 200, { ok: true });
  }
  if (req.method === "POST" && parts[0] === "market") return store.market.set(b.scenario ?? null), send(res, 200, { market: store.market.scenario?.name ?? null });
  if (req.method === "POST" && parts[0] === "reset") return store.reset(), send(res, 200, { ok: true });
  // Where notices go (the Notification URL an operator would set in the EBANX Dashboard).
  if (req.method === "POST" && parts[0] === "notice-url") return (notifier.noticeUrl = String(b.url)), send(res, 200, { ok: true });
  if (req.method === "POST" && parts[0] === "notices") {
    const body = `operation=payment_status_change&notification_type=${b.type ?? "update"}&hash_codes=${(b.hashes ?? []).join(",")}`;
    const headers = notifier.headers(body, !!b.forge);
    if (b.unsigned) delete headers["x-signaturecontent"];
    const r = await fetch(b.url ?? notifier.noticeUrl, { method: "POST", headers, body });
    return send(res, 200, { status: r.status, body: await r.text() });
  }
  if (parts[0] === "payments" && parts[1]) {
    const p = store.paymentOf(parts[1]);
    if (!p) return send(res, 404, { error: "unknown payment" });
    if (req.method === "GET") return send(res, 200, paymentJson(p, ctx.baseUrl));
    const action = parts[2];
    let type = "update";
    if (action === "pay") (p.status = "CO"), (p.confirmDate = now());
    else if (action === "cancel") (p.status = "CA"), (p.confirmDate = now());
    else if (action === "expire") (p.status = "CA"), (p.confirmDate = now()), (p.dueDate = "2000-01-01");
    else if (action === "deny") return (p.denied = true), send(res, 200, { ok: true });
    else if (action === "refund-confirm") {
      for (const r of p.refunds) if (r.status === "RE" || r.status === "PE") r.status = "CO";
      type = "refund";
    } else return send(res, 404, { error: "unknown action" });
    return send(res, 200, { statuses: await deliver(ctx, [p.hash], type, b), payment: paymentJson(p, ctx.baseUrl) });
  }
  if (parts[0] === "payouts" && parts[1]) {
    const p = store.payoutOf(parts[1]);
    if (!p) return send(res, 404, { error: "unknown payout" });
    if (req.method === "GET") return send(res, 200, payoutJson(p));
    const action = parts[2];
    if (action === "pay") (p.status = "PA"), (p.paidDate = now());
    else if (action === "reject") (p.status = "CA"), (p.cancelDate = now());
    else if (action === "return") (p.status = "CA"), (p.paidDate = p.paidDate ?? now()), (p.cancelDate = now());
    else return send(res, 404, { error: "unknown action" });
    // Pending payouts settle from now on: an "unknown" knob stops hanging commits once driven.
    store.knobs.delete(p.email.toLowerCase());
    return send(res, 200, { statuses: await deliver(ctx, [p.uid], "update", b), payout: payoutJson(p) });
  }
  return send(res, 404, { error: "unknown control path" });
}
