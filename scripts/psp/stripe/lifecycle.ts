// What happens to a charge after it is created (driven by the control API), and the events Stripe
// sends for it (https://docs.stripe.com/api/events/types), POSTed to the registered webhook URL as
// Stripe does: JSON body, `Stripe-Signature: t=…,v1=…` (the `stripe` library's own
// generateTestHeaderString, https://docs.stripe.com/webhooks#verify-manually).
import Stripe from "stripe";
import * as o from "./objects.ts";
import type { State } from "./state.ts";

export type NoticeOpts = { notify?: boolean; duplicate?: boolean; delayMs?: number; secret?: string; at?: number };
/** `installments`: the count the simulated buyer picks on the hosted page (absent or 1: pays at once). */
export type PayOpts = NoticeOpts & { installments?: number };

/** Why the simulated buyer cannot pick `count` on this session's page, or null when they can. */
export function planRefusal(cs: o.Obj, count: number | undefined): string | null {
  if (count === undefined || count === 1) return null;
  if (cs.payment_method_options?.card?.installments?.enabled !== true) return "this session has no installments enabled (payment_method_options[card][installments][enabled])";
  if (cs.currency !== "mxn" || cs.payment_method_types[0] !== "card") return "meses sin intereses are for MXN card sessions only";
  if (!o.MSI_COUNTS.includes(count)) return `the hosted page offers ${o.MSI_COUNTS.join(", ")} months`;
  return null;
}

const signer = new Stripe("sk_test_simulator_signer", { maxNetworkRetries: 0 });

export function createLifecycle(s: State, noticeSecret: string, log: (m: string) => void) {
  /** Signs and POSTs one event (twice with `duplicate`), after `delayMs`; each answer is kept. */
  async function send(type: string, object: o.Obj, opts: NoticeOpts = {}): Promise<o.Obj> {
    const ev = o.event(type, o.wire(object) as o.Obj);
    // Kept even when not delivered now: POST /_control/events/{id}/redeliver delivers it late.
    s.sent.set(ev.id, { type, payload: JSON.stringify(ev, null, 2) });
    if (opts.notify === false) return ev;
    await deliverEvent(ev.id, opts);
    return ev;
  }

  /** One delivery attempt of a sent event, signed at the moment it is sent (as each of Stripe's retries is). */
  async function deliverEvent(eventId: string, opts: NoticeOpts = {}): Promise<void> {
    const { type, payload } = s.sent.get(eventId)!;
    const object = JSON.parse(payload).data.object as o.Obj;
    const header = signer.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? noticeSecret, timestamp: opts.at ?? Math.floor(Date.now() / 1000) });
    const deliver = async () => {
      let httpStatus: number | null = null;
      try {
        const r = await fetch(s.webhookUrl, { method: "POST", headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": header, "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)" }, body: payload, signal: AbortSignal.timeout(10_000) });
        httpStatus = r.status;
      } catch {}
      s.deliveries.push({ eventId, type, objectId: typeof object.id === "string" ? object.id : null, intent: typeof object.payment_intent === "string" ? object.payment_intent : null, httpStatus });
      log(`[stripe] ${type} ${eventId} -> ${httpStatus}`);
    };
    const run = async () => {
      if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
      await deliver();
      if (opts.duplicate) await deliver();
    };
    // A late notice is sent in the background: the control call answers at once.
    if (opts.delayMs) void run();
    else await run();
  }

  const sessionOf = (piId: string) => [...s.sessions.values()].find((x) => x.payment_intent === piId);

  /** A session's PaymentIntent, made when the buyer submits the hosted page. */
  function intentOfSession(cs: o.Obj): o.Obj {
    if (cs.payment_intent) return s.paymentIntents.get(cs.payment_intent)!;
    const pi = o.paymentIntent({ amount: cs.amount_total, currency: cs.currency, type: cs.payment_method_types[0], metadata: cs._piMetadata ?? {}, billing: { email: cs.customer_email } });
    // The session's installment switch carries over to its PaymentIntent's options
    // (https://docs.stripe.com/api/payment_intents/object#payment_intent_object-payment_method_options-card-installments).
    const enabled = cs.payment_method_options?.card?.installments?.enabled;
    if (enabled !== undefined) pi.payment_method_options = { card: { installments: { enabled, plan: null, available_plans: enabled ? o.MSI_COUNTS.map(o.installmentPlan) : [] } } };
    s.paymentIntents.set(pi.id, pi);
    cs.payment_intent = pi.id;
    return pi;
  }

  function succeed(pi: o.Obj) {
    const ch = o.charge(pi);
    s.charges.set(ch.id, ch);
    Object.assign(pi, { status: "succeeded", amount_received: pi.amount, latest_charge: ch.id, next_action: null, last_payment_error: null });
  }

  return {
    send,
    deliverEvent,
    sessionOf,
    async pay(id: string, opts: PayOpts) {
      if (id.startsWith("cs_")) {
        const cs = s.sessions.get(id)!;
        const pi = intentOfSession(cs);
        // The plan the buyer picked on the hosted page: on the PaymentIntent's options and on its charge.
        if (opts.installments && opts.installments > 1) {
          pi._plan = o.installmentPlan(opts.installments);
          if (pi.payment_method_options?.card?.installments) pi.payment_method_options.card.installments.plan = pi._plan;
        }
        succeed(pi);
        Object.assign(cs, { status: "complete", payment_status: "paid" });
        // A voucher (boleto) completes the session unpaid first and is paid later: async_payment_succeeded.
        const type = cs.payment_method_types[0] === "boleto" ? "checkout.session.async_payment_succeeded" : "checkout.session.completed";
        await send(type, cs, opts);
        await send("payment_intent.succeeded", pi, opts);
        return;
      }
      const pi = s.paymentIntents.get(id)!;
      succeed(pi);
      await send("payment_intent.succeeded", pi, opts);
    },
    /** A failed attempt: last_payment_error on the PaymentIntent (https://docs.stripe.com/api/payment_intents/object#payment_intent_object-last_payment_error). */
    async fail(id: string, opts: NoticeOpts & { code?: string; declineCode?: string }) {
      const cs = id.startsWith("cs_") ? s.sessions.get(id)! : null;
      const pi = cs ? intentOfSession(cs) : s.paymentIntents.get(id)!;
      const card = pi.payment_method_types[0] === "card";
      pi.status = "requires_payment_method";
      pi.next_action = null;
      pi.last_payment_error = card ? { type: "card_error", code: opts.code ?? "card_declined", decline_code: opts.declineCode ?? "generic_decline", message: "Your card was declined." } : { type: "invalid_request_error", code: opts.code ?? "payment_method_provider_decline", message: "The payment was declined by the payment method provider." };
      if (cs?.payment_method_types[0] === "boleto") {
        cs.status = "complete";
        await send("checkout.session.async_payment_failed", cs, opts);
      }
      await send("payment_intent.payment_failed", pi, opts);
    },
    /** Unpaid past its expiry: a session expires; a PIX QR or OXXO voucher's attempt expires. */
    async expire(id: string, opts: NoticeOpts) {
      if (id.startsWith("cs_")) {
        const cs = s.sessions.get(id)!;
        Object.assign(cs, { status: "expired", url: null });
        await send("checkout.session.expired", cs, opts);
        return;
      }
      const pi = s.paymentIntents.get(id)!;
      Object.assign(pi, { status: "requires_payment_method", next_action: null, last_payment_error: { type: "invalid_request_error", code: "payment_intent_payment_attempt_expired", message: "The payment attempt expired." } });
      await send("payment_intent.payment_failed", pi, opts);
    },
    async cancel(id: string, opts: NoticeOpts) {
      const pi = s.paymentIntents.get(id.startsWith("cs_") ? s.sessions.get(id)!.payment_intent : id)!;
      Object.assign(pi, { status: "canceled", cancellation_reason: "requested_by_customer", next_action: null });
      await send("payment_intent.canceled", pi, opts);
    },
    async dispute(id: string, opts: NoticeOpts) {
      const pi = s.paymentIntents.get(id.startsWith("cs_") ? s.sessions.get(id)!.payment_intent : id)!;
      const ch = s.charges.get(pi.latest_charge)!;
      ch.disputed = true;
      const dp = o.dispute(ch);
      s.disputes.set(dp.id, dp);
      await send("charge.dispute.created", dp, opts);
    },
  };
}
export type Lifecycle = ReturnType<typeof createLifecycle>;
