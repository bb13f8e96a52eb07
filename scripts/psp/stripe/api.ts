// The Stripe API paths the simulator serves (https://docs.stripe.com/api), each answering what
// Stripe answers: POST/GET /v1/payment_intents (create confirmed, list), GET
// /v1/payment_intents/search and /{id}, POST/GET /v1/checkout/sessions and /{id}, POST/GET
// /v1/refunds, GET /v1/disputes, GET /v1/balance. `expand[]` is honoured for the fields the connector expands.
import * as o from "./objects.ts";
import { emailOfPaymentIntent, type Rule, type State } from "./state.ts";
import type { Lifecycle } from "./lifecycle.ts";

/** `made`: the object a request made whatever its answer (what Stripe saves under its Idempotency-Key). */
export type Answer = { status: number; body: unknown; made?: unknown } | { hang: true; made?: unknown } | { garbage: true };
const ok = (body: unknown): Answer => ({ status: 200, body });
const invalid = (message: string, param?: string, code?: string, status = 400): Answer => ({ status, body: o.errorBody({ type: "invalid_request_error", message, param, code }) });
const missing = (kind: string, id: string, param = "id"): Answer => invalid(`No such ${kind}: '${id}'`, param, "resource_missing", 404);

/** A knob's answer before (or instead of) doing anything; null: go on. */
export function knobAnswer(rule: Rule): Answer | null {
  switch (rule.mode) {
    case "decline":
      return { status: 402, body: o.errorBody({ type: "card_error", code: rule.code ?? "card_declined", decline_code: rule.declineCode ?? "generic_decline", message: "Your card was declined." }) };
    case "refuse":
      return invalid("The request was refused.", undefined, rule.code ?? "parameter_invalid_empty");
    case "timeout":
      return { hang: true };
    case "error":
      return { status: 500, body: o.errorBody({ type: "api_error", message: "An unknown error occurred." }) };
    case "rate_limited":
      return { status: 429, body: o.errorBody({ type: "invalid_request_error", code: "rate_limit", message: "Too many requests." }) };
    case "garbage":
      return { garbage: true };
    default:
      return null;
  }
}

/** After the object was made: the answer a succeed_then_* knob loses. */
function lost(rule: Rule, made: unknown): Answer {
  if (rule.mode === "succeed_then_timeout") return { hang: true, made };
  if (rule.mode === "succeed_then_error") return { status: 500, body: o.errorBody({ type: "api_error", message: "An unknown error occurred." }), made };
  return ok(made);
}

function expandIntent(s: State, pi: o.Obj, expand: string[]): o.Obj {
  const out = { ...pi };
  if (expand.includes("latest_charge") && pi.latest_charge) out.latest_charge = s.charges.get(pi.latest_charge) ?? pi.latest_charge;
  return out;
}
function expandSession(s: State, cs: o.Obj, expand: string[]): o.Obj {
  const out = { ...cs };
  const pi = cs.payment_intent ? s.paymentIntents.get(cs.payment_intent) : null;
  if (pi && expand.some((e) => e === "payment_intent" || e.startsWith("payment_intent."))) out.payment_intent = expandIntent(s, pi, expand.filter((e) => e.startsWith("payment_intent.")).map((e) => e.slice("payment_intent.".length)));
  return out;
}

/** Newest first, `created[gte]`, `limit`, `starting_after` (https://docs.stripe.com/api/pagination). */
function page(url: string, all: o.Obj[], q: o.Obj): Answer {
  const gte = q.created?.gte !== undefined ? Number(q.created.gte) : -Infinity;
  let rows = all.filter((x) => x.created >= gte).sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : -1));
  if (q.starting_after) rows = rows.slice(rows.findIndex((x) => x.id === q.starting_after) + 1);
  const limit = Math.min(Math.max(Number(q.limit ?? 10), 1), 100);
  return ok(o.list(url, rows.slice(0, limit), rows.length > limit));
}

export function createApi(s: State, life: Lifecycle, base: string) {
  const createIntent = (p: o.Obj): Answer => {
    const type = p.payment_method_types?.[0];
    if (!["pix", "oxxo"].includes(type) || p.payment_method_data?.type !== type) return invalid("This simulator confirms PIX and OXXO PaymentIntents only.", "payment_method_types", "payment_method_not_available");
    if (!/^\d+$/.test(String(p.amount ?? ""))) return invalid("Missing required param: amount.", "amount", "parameter_missing");
    const billing = p.payment_method_data.billing_details ?? {};
    // OXXO needs the buyer's name and email (https://docs.stripe.com/payments/oxxo/accept-a-payment).
    if (type === "oxxo" && (!billing.name || !billing.email)) return invalid("Missing billing details.", "payment_method_data[billing_details]", "parameter_missing");
    const rule = s.pick(billing.email, ["decline", "refuse", "timeout", "error", "rate_limited", "garbage", "succeed_then_timeout", "succeed_then_error"]);
    const early = knobAnswer(rule);
    if (early) return early;
    const pi = o.paymentIntent({ amount: Number(p.amount), currency: String(p.currency), type, metadata: p.metadata ?? {}, billing });
    if (p.confirm === "true") Object.assign(pi, { status: "requires_action", next_action: o.nextActionFor(pi, base) });
    s.paymentIntents.set(pi.id, pi);
    return lost(rule, pi);
  };

  const createSession = (p: o.Obj): Answer => {
    const item = p.line_items?.[0];
    const type = p.payment_method_types?.[0];
    if (p.mode !== "payment" || !item?.price_data || !["card", "boleto"].includes(type)) return invalid("Unsupported Checkout Session.", "line_items");
    if (!p.success_url) return invalid("Missing required param: success_url.", "success_url", "parameter_missing");
    // payment_method_options[card][installments][enabled] (https://docs.stripe.com/api/checkout/sessions/create#create_checkout_session-payment_method_options-card-installments-enabled), a boolean.
    const installments = p.payment_method_options?.card?.installments?.enabled;
    if (installments !== undefined && installments !== "true" && installments !== "false") return invalid("Invalid boolean: " + String(installments), "payment_method_options[card][installments][enabled]", "parameter_invalid_boolean");
    const rule = s.pick(p.customer_email, ["refuse", "timeout", "error", "rate_limited", "garbage", "succeed_then_timeout", "succeed_then_error"]);
    const early = knobAnswer(rule);
    if (early) return early;
    const cs = o.checkoutSession({ amount: Number(item.price_data.unit_amount) * Number(item.quantity ?? 1), currency: String(item.price_data.currency), type, clientReferenceId: p.client_reference_id ?? null, customerEmail: p.customer_email ?? null, metadata: p.metadata ?? {}, successUrl: p.success_url, cancelUrl: p.cancel_url ?? null, base });
    cs._piMetadata = p.payment_intent_data?.metadata ?? {};
    if (installments !== undefined) cs.payment_method_options = { card: { installments: { enabled: installments === "true" } } };
    s.sessions.set(cs.id, cs);
    return lost(rule, cs);
  };

  const createRefund = (p: o.Obj): Answer => {
    const pi = s.paymentIntents.get(String(p.payment_intent ?? ""));
    if (!pi) return missing("payment_intent", String(p.payment_intent), "payment_intent");
    const email = emailOfPaymentIntent(pi) ?? life.sessionOf(pi.id)?.customer_email;
    const rule = s.pick(email, ["refuse", "timeout", "error", "rate_limited", "garbage", "succeed_then_timeout", "succeed_then_error", "refund_pending"]);
    const early = knobAnswer(rule);
    if (early) return early;
    const ch = pi.latest_charge ? s.charges.get(pi.latest_charge) : null;
    if (!ch || pi.status !== "succeeded") return invalid("This PaymentIntent does not have a successful charge to refund.", "payment_intent", "charge_not_refundable");
    if (ch.refunded) return invalid(`Charge ${ch.id} has already been refunded.`, "charge", "charge_already_refunded");
    const amount = p.amount === undefined ? ch.amount - ch.amount_refunded : Number(p.amount);
    if (amount > ch.amount - ch.amount_refunded) return invalid("Refund amount is greater than unrefunded amount on charge.", "amount", "amount_too_large");
    const re = o.refund({ amount, charge: ch, metadata: p.metadata ?? {}, status: rule.mode === "refund_pending" ? "pending" : "succeeded" });
    s.refunds.set(re.id, re);
    ch.amount_refunded += amount;
    ch.refunds.data.unshift(re);
    ch.refunded = ch.amount_refunded >= ch.amount;
    void life.send("refund.created", re).then(() => (re.status === "succeeded" ? life.send("charge.refunded", ch) : null));
    return lost(rule, re);
  };

  /** One API request, its body (or query) already parsed. */
  return function route(method: string, parts: string[], p: o.Obj, url: string): Answer {
    const expand: string[] = Array.isArray(p.expand) ? p.expand : [];
    const [, resource, a, b] = parts;
    const read = method === "GET" ? (resource === "checkout" ? b : a) : undefined;
    const failing = read ? s.failingReads.get(read) : undefined;
    if (read && failing) {
      if (failing <= 1) s.failingReads.delete(read);
      else s.failingReads.set(read, failing - 1);
      return { status: 500, body: o.errorBody({ type: "api_error", message: "An unknown error occurred." }) };
    }
    if (resource === "balance" && method === "GET") return ok(o.balance());
    if (resource === "payment_intents") {
      if (method === "POST" && !a) return createIntent(p);
      if (method === "GET" && !a) return page(url, [...s.paymentIntents.values()], p);
      if (method === "GET" && a === "search") {
        // The one query the connector sends: metadata['key']:'value' (https://docs.stripe.com/search#search-query-language).
        const m = /^metadata\['([^']+)'\]:'((?:[^'\\]|\\.)*)'$/.exec(String(p.query ?? ""));
        if (!m) return invalid("Invalid search query.", "query");
        const value = m[2]!.replace(/\\(.)/g, "$1");
        const visibleBefore = Date.now() - s.searchLagMs;
        return ok(o.searchResult(url, [...s.paymentIntents.values()].filter((x) => x.metadata?.[m[1]!] === value && x.created * 1000 <= visibleBefore).map((x) => expandIntent(s, x, expand))));
      }
      if (method === "GET" && a && !b) {
        const pi = s.paymentIntents.get(a);
        if (!pi || s.denied.has(a)) return missing("payment_intent", a, "intent");
        return ok(expandIntent(s, pi, expand));
      }
    }
    if (resource === "checkout" && a === "sessions") {
      if (method === "POST" && !b) return createSession(p);
      if (method === "GET" && !b) {
        const all = [...s.sessions.values()].filter((x) => !p.payment_intent || x.payment_intent === p.payment_intent);
        return page(url, all, p);
      }
      if (method === "GET" && b) {
        const cs = s.sessions.get(b);
        if (!cs || s.denied.has(b)) return missing("checkout.session", b, "session");
        return ok(expandSession(s, cs, expand));
      }
    }
    if (resource === "refunds") {
      if (method === "POST" && !a) return createRefund(p);
      if (method === "GET" && !a) return page(url, [...s.refunds.values()].filter((x) => !p.payment_intent || x.payment_intent === p.payment_intent), p);
      if (method === "GET" && a) return s.refunds.has(a) ? ok(s.refunds.get(a)) : missing("refund", a);
    }
    // GET /v1/disputes?payment_intent= (https://docs.stripe.com/api/disputes/list).
    if (resource === "disputes" && method === "GET" && !a) return page(url, [...s.disputes.values()].filter((x) => !p.payment_intent || x.payment_intent === p.payment_intent), p);
    return invalid(`Unrecognized request URL (${method}: ${url}).`, undefined, undefined, 404);
  };
}
