// The Stripe simulator's control API (loopback only; not Stripe's): failure knobs and what a buyer
// or Stripe does to a charge. JSON in, JSON out.
//   POST /_control/behaviour {mode, forEmail?, times?, declineCode?, code?}   (modes: ./state.ts)
//   POST /_control/reset                                   knobs off, search lag 0
//   POST /_control/webhook {url}                           the endpoint registered "in the Dashboard"
//   POST /_control/search-lag {ms}                         new PaymentIntents stay out of search for ms
//   POST /_control/charges/{pi_…|cs_…}/{pay|fail|expire|cancel|dispute} {notify?, duplicate?, delayMs?, code?, declineCode?}
//        pay of a cs_ takes {installments?}: the months the buyer picks on the hosted page of an MXN
//        card session with installments enabled (3, 6, 9, 12, 18, 24; absent or 1: at once)
//   POST /_control/charges/{id}/deny                       retrievals answer 404 resource_missing from now on
//   POST /_control/refunds/{re_…}/{succeed|fail} {notify?}
//   POST /_control/events {type, object, secret?, at?, duplicate?}   any event, signed (a wrong secret or an old t on request)
//   POST /_control/events/{evt_…}/redeliver                 the same event again, signed anew (Stripe's retry)
//   POST /_control/charges/{id}/fail-reads {times}          its next retrievals answer 500
//   GET  /_control/charges/{id}                            {object, deliveries}
//   GET  /_control/deliveries                              every event sent and the HTTP status it got
//   GET  /_control/state                                   counts of what the simulator holds
import type http from "node:http";
import * as o from "./objects.ts";
import type { Mode, State } from "./state.ts";
import { planRefusal, type Lifecycle } from "./lifecycle.ts";

type Ctx = { s: State; life: Lifecycle; base: string };
const MODES: Mode[] = ["accept", "decline", "refuse", "timeout", "error", "rate_limited", "garbage", "succeed_then_timeout", "succeed_then_error", "refund_pending"];

function json(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

export async function serveControl(ctx: Ctx, req: http.IncomingMessage, res: http.ServerResponse, parts: string[], raw: string): Promise<void> {
  const { s, life } = ctx;
  const body = raw ? JSON.parse(raw) : {};
  const [, what, id, action] = parts;
  if (req.method === "GET") {
    if (what === "deliveries") return json(res, 200, s.deliveries);
    if (what === "state") return json(res, 200, { paymentIntents: s.paymentIntents.size, sessions: s.sessions.size, refunds: s.refunds.size, rules: s.rules });
    if (what === "charges" && id) {
      const obj = s.paymentIntents.get(id) ?? s.sessions.get(id);
      if (!obj) return json(res, 404, { error: "no such charge" });
      const piId = id.startsWith("cs_") ? obj.payment_intent : id;
      const deliveries = s.deliveries.filter((d) => d.objectId === id || (piId && (d.objectId === piId || d.intent === piId)));
      return json(res, 200, { object: o.wire(obj), deliveries });
    }
    return json(res, 404, { error: "unknown control path" });
  }
  if (what === "behaviour") {
    if (!MODES.includes(body.mode)) return json(res, 400, { error: `mode must be one of ${MODES.join(", ")}` });
    s.addRule({ mode: body.mode, forEmail: body.forEmail, times: body.times, declineCode: body.declineCode, code: body.code });
    return json(res, 200, { rules: s.rules });
  }
  if (what === "reset") return (s.reset(), json(res, 200, { ok: true }));
  if (what === "webhook") return ((s.webhookUrl = String(body.url)), json(res, 200, { url: s.webhookUrl }));
  if (what === "search-lag") return ((s.searchLagMs = Number(body.ms ?? 0)), json(res, 200, { ms: s.searchLagMs }));
  if (what === "events" && id && action === "redeliver") {
    if (!s.sent.has(id)) return json(res, 404, { error: "no such event" });
    await life.deliverEvent(id, body);
    return json(res, 200, { deliveries: s.deliveries.filter((d) => d.eventId === id) });
  }
  if (what === "events") {
    const ev = await life.send(String(body.type), body.object ?? {}, { secret: body.secret, at: body.at, duplicate: body.duplicate });
    return json(res, 200, { event: ev, deliveries: s.deliveries.filter((d) => d.eventId === ev.id) });
  }
  if (what === "charges" && id && action) {
    if (!s.paymentIntents.has(id) && !s.sessions.has(id)) return json(res, 404, { error: "no such charge" });
    if (action === "deny") return (s.denied.add(id), json(res, 200, { denied: id }));
    if (action === "fail-reads") return (s.failingReads.set(id, Number(body.times ?? 1)), json(res, 200, { failing: id }));
    if (action === "pay" && body.installments !== undefined) {
      const cs = s.sessions.get(id);
      const why = !Number.isInteger(body.installments) ? "installments must be an integer" : cs ? planRefusal(cs, body.installments) : body.installments === 1 ? null : "installments are chosen on a Checkout Session's page";
      if (why) return json(res, 400, { error: why });
    }
    const verbs = { pay: life.pay, fail: life.fail, expire: life.expire, cancel: life.cancel, dispute: life.dispute } as const;
    const verb = verbs[action as keyof typeof verbs];
    if (!verb) return json(res, 400, { error: "action must be pay, fail, expire, cancel, dispute or deny" });
    await verb(id, body);
    return json(res, 200, { object: o.wire(s.paymentIntents.get(id) ?? s.sessions.get(id)) });
  }
  if (what === "refunds" && id && action) {
    const re = s.refunds.get(id);
    if (!re) return json(res, 404, { error: "no such refund" });
    re.status = action === "succeed" ? "succeeded" : "failed";
    if (action !== "succeed") re.failure_reason = "unknown";
    await life.send(action === "succeed" ? "refund.updated" : "refund.failed", re, body);
    return json(res, 200, { refund: re });
  }
  return json(res, 404, { error: "unknown control path" });
}
