// What the Stripe simulator holds: its objects, the answers it gave under each Idempotency-Key,
// the events it sent (with the HTTP statuses they got), and its failure knobs, per buyer email
// (POST /_control/behaviour {mode, forEmail?, times?, declineCode?, code?}):
//   decline              402 card_error, code card_declined (or `code`), decline_code `declineCode`
//   refuse               400 invalid_request_error with `code` (amount_too_small, payment_method_not_available, …)
//   timeout              never answers (the caller's timeout ends it)
//   error                500 api_error         rate_limited  429 rate_limit
//   garbage              200 with a body that is not JSON
//   succeed_then_timeout makes the object, then never answers
//   succeed_then_error   makes the object, then answers 500
//   refund_pending       a refund is made `pending` (settled by POST /_control/refunds/{id}/{succeed|fail})
import type { Obj } from "./objects.ts";

export type Mode = "accept" | "decline" | "refuse" | "timeout" | "error" | "rate_limited" | "garbage" | "succeed_then_timeout" | "succeed_then_error" | "refund_pending";
export type Rule = { mode: Mode; forEmail?: string; times?: number; declineCode?: string; code?: string };
/** `intent`: the PaymentIntent the event's object belongs to (a dispute's, a refund's), for GET /_control/charges/{id}. */
export type Delivery = { eventId: string; type: string; objectId: string | null; intent: string | null; httpStatus: number | null };

export function createState() {
  let rules: Rule[] = [];
  const s = {
    paymentIntents: new Map<string, Obj>(),
    sessions: new Map<string, Obj>(),
    charges: new Map<string, Obj>(),
    refunds: new Map<string, Obj>(),
    disputes: new Map<string, Obj>(),
    /** Idempotency-Key -> the request's fingerprint and the answer it got (https://docs.stripe.com/api/idempotent_requests). */
    idempotent: new Map<string, { fingerprint: string; status: number; body: string }>(),
    /** Objects answered 404 on retrieval (the "provider denies it" test). */
    denied: new Set<string>(),
    /** Objects whose next N retrievals answer 500 (a read-back without an answer). */
    failingReads: new Map<string, number>(),
    /** Every event sent, by id, for a redelivery (Stripe retries an event not answered 2xx). */
    sent: new Map<string, { type: string; payload: string }>(),
    deliveries: [] as Delivery[],
    /** How long a new PaymentIntent stays out of search results (Search is eventually consistent). */
    searchLagMs: 0,
    webhookUrl: "",
    get rules() {
      return rules;
    },
    addRule(r: Rule) {
      rules.push(r);
    },
    /** The first rule for this buyer (used up after `times`); none: accept. */
    pick(email: string | null | undefined, modes?: Mode[]): Rule {
      const i = rules.findIndex((r) => (!r.forEmail || r.forEmail === email) && (!modes || modes.includes(r.mode)));
      if (i < 0) return { mode: "accept" };
      const rule = rules[i]!;
      if (rule.times !== undefined && --rule.times <= 0) rules.splice(i, 1);
      return rule;
    },
    reset() {
      rules = [];
      s.searchLagMs = 0;
    },
  };
  return s;
}
export type State = ReturnType<typeof createState>;

/** The buyer email a request's knobs are chosen by. */
export function emailOfPaymentIntent(pi: Obj | undefined): string | null {
  return pi?._billing?.email ?? null;
}
