// The EBANX simulator's API paths, as EBANX serves them: JSON POSTs with integration_key in the
// body (BP-SA-1 when absent, BP-SA-2 when wrong), answering {..., status: "SUCCESS"} or the error
// object {status: "ERROR", status_code, status_message} with HTTP 200 (api-error-codes: a blank
// HTTP status column is 200). Payouts answer {type: "success", payout} or their own error object.
// Where the published tables have no code (no such payment on /ws/query, a refund refused, no
// such payout) the codes below are stand-ins; the connector reads those answers by their message.
import { error, payoutError, paymentJson, payoutJson, refundAnswer } from "./wire.ts";
import { hex, now, type EbanxStore, type Knob, type Payment } from "./store.ts";
import { marketDecline } from "../market-real-providers.ts";
import { safeEqual } from "../../../lib/platform/crypto/hash.ts";

/** `delayMs`: how long the simulator waits before answering (a market provider's latency). */
export type Reply = ({ status: number; body: unknown } | { hang: true; after?: () => void } | { garbage: true }) & { delayMs?: number };
const ok = (body: unknown): Reply => ({ status: 200, body });

/** What a knob does to a create call; null: answer normally. */
function knobReply(k: Knob | null): Reply | null {
  if (!k) return null;
  if (k.mode === "timeout") return { hang: true };
  if (k.mode === "error") return { status: 503, body: { status: "ERROR", status_message: "Service Unavailable" } };
  if (k.mode === "garbage") return { garbage: true };
  if (k.mode === "decline") return ok(error(k.code ?? "BP-DR-23", k.message ?? "Field payment.document is invalid"));
  return null;
}

/** A bench buyer's payment while a market scenario runs: its decision as a knob (a decline as EBANX's refusal code), null when the market leaves it to the knobs. */
function marketKnob(store: EbanxStore, email: string | undefined): { knob: Knob | null; delayMs: number } | null {
  const d = store.market.decisionFor(email);
  if (!d) return null;
  const decline = d.mode === "decline" ? marketDecline("ebanx", d) : null;
  const knob: Knob | null = d.mode === "accept" ? null : decline ? { mode: "decline", code: decline.code, message: decline.message } : { mode: "error" };
  return { knob, delayMs: d.delayMs ?? 0 };
}

const dueIn = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

export function serveApi(store: EbanxStore, secret: string, baseUrl: string, path: string, body: any): Reply {
  store.requests.push({ path, body });
  if (typeof body?.integration_key !== "string" || body.integration_key === "") return ok(error("BP-SA-1", "Parameter integration_key not found"));
  if (!safeEqual(body.integration_key, secret)) return ok(error("BP-SA-2", "Invalid integration key"));
  switch (path) {
    case "/ws/merchantIntegrationProperties/get":
      return ok({ status: "SUCCESS", success: true, resource: "merchantIntegrationProperties", operation: "get", body: { image: "", url_response: baseUrl, receipt_email: null, url_status_change_notification: baseUrl } });
    case "/ws/direct":
    case "/ws/request": {
      const page = path === "/ws/request";
      const p = page ? body : body.payment;
      if (!p || typeof p !== "object") return ok(error("BP-DR-2", "Field payment is required"));
      if (!p.currency_code) return ok(error("BP-DR-3", "Field payment.currency_code is required"));
      const amount = page ? p.amount : p.amount_total;
      if (typeof amount !== "string") return ok(error("BP-DR-5", "Field payment.amount_total is required"));
      if (!p.merchant_payment_code) return ok(error("BP-DR-9", "Field payment.merchant_payment_code is required"));
      const existing = store.paymentOf(p.merchant_payment_code);
      if (existing) return ok(error("BP-DR-0", `Payment already exists with merchant_payment_code: ${p.merchant_payment_code} (created on ${existing.openDate}, status is ${existing.status})`));
      const market = marketKnob(store, p.email);
      const knob = market ? market.knob : store.takeKnob(p.email);
      const early = knobReply(knob);
      if (early) return { ...early, delayMs: market?.delayMs };
      const hash = hex(24);
      const payment: Payment = { hash, merchantPaymentCode: p.merchant_payment_code, status: page ? "OP" : "PE", paymentTypeCode: p.payment_type_code, country: p.country, currency: p.currency_code, amount, email: p.email ?? "", name: p.name ?? "", document: p.document ?? null, openDate: now(), confirmDate: null, dueDate: dueIn(3), viaPage: page, refunds: [], denied: false };
      store.payments.set(hash, payment);
      store.byCode.set(payment.merchantPaymentCode, hash);
      // Made, then the answer never comes (the reconciliation case).
      if (knob?.mode === "succeed_then_timeout") return { hang: true };
      const answer = { payment: paymentJson(payment, baseUrl), status: "SUCCESS" };
      // redirect_url: the Payment Page's URL; null beside a Direct payment (benjamin SpeiTest).
      return { ...ok({ redirect_url: page ? `${baseUrl}/checkout?hash=${hash}` : null, ...answer }), delayMs: market?.delayMs };
    }
    case "/ws/query": {
      const p = store.paymentOf(body.hash ?? body.merchant_payment_code ?? "");
      // EBANX's code for "no such payment" is not in the published error tables; the message is what the connector reads.
      if (!p || p.denied || (body.hash && p.hash !== body.hash)) return ok(error("BP-QL-1", "Payment not found"));
      return ok({ payment: paymentJson(p, baseUrl), status: "SUCCESS" });
    }
    case "/ws/refund": {
      const p = store.paymentOf(body.hash ?? body.merchant_payment_code ?? "");
      if (!p || p.denied) return ok(error("BP-REF-1", "Payment not found"));
      if (p.status !== "CO") return ok(error("BP-REF-7", "The payment cannot be refunded because it is not confirmed"));
      const existing = p.refunds.find((r) => body.merchant_refund_code && r.merchant_refund_code === body.merchant_refund_code);
      if (existing) return ok(refundAnswer(p, existing, baseUrl));
      const r = { id: String(20000 + store.payments.size * 10 + p.refunds.length), merchant_refund_code: body.merchant_refund_code ?? null, status: "RE" as const, request_date: now(), amount_ext: String(body.amount), description: String(body.description ?? "") };
      p.refunds.push(r);
      return ok(refundAnswer(p, r, baseUrl));
    }
    case "/ws/payout/create": {
      if (!body.external_reference) return ok(payoutError("HP-CM-01", "Empty external reference"));
      if (store.payoutOf(body.external_reference)) return ok(payoutError("HP-CM-03", "You already have a payout with this external_reference"));
      if (typeof body.amount !== "string") return ok(payoutError("HP-CM-09", "Empty amount"));
      const email = String(body.payee?.email ?? "");
      const knob = store.takeKnob(email);
      if (knob?.mode === "reject") return ok(payoutError(knob.code ?? "HP-BR-03", knob.message ?? "Invalid PIX key"));
      const early = knob?.mode === "unknown" ? null : knobReply(knob);
      if (early) return early;
      if (body.target === "pix_key" && !body.target_account) return ok(payoutError("HP-BR-02", "Empty PIX key"));
      const uid = hex(20);
      store.payouts.set(uid, { uid, externalReference: body.external_reference, status: "OP", amount: body.amount, currency: body.currency_code, country: body.country, payee: body.payee ?? {}, target: body.target ?? null, targetAccount: body.target_account ?? null, requestDate: now(), paidDate: null, cancelDate: null, email });
      store.byReference.set(body.external_reference, uid);
      // Created (open), then the answer never comes: the payout waits uncommitted.
      if (knob?.mode === "succeed_then_timeout") return { hang: true };
      return ok({ type: "success", payout: payoutJson(store.payouts.get(uid)!) });
    }
    case "/ws/payout/commit": {
      const p = store.payoutOf(body.uid ?? body.external_reference ?? "");
      if (!p) return ok(payoutError("HP-CM-30", "Payout not found"));
      if (p.status === "OP") p.status = "PE";
      // "unknown": committed, then the answer is lost; the payout stays pending until it is driven.
      if (store.knobs.get(p.email.toLowerCase())?.some((k) => k.mode === "unknown")) return { hang: true };
      return ok({ type: "success", message: "You've successfully committed your Payout!" });
    }
    case "/ws/payout/retrieve": {
      const p = store.payoutOf(body.uid ?? body.external_reference ?? "");
      if (!p) return ok(payoutError("HP-CM-30", "Payout not found"));
      return ok({ type: "success", payout: payoutJson(p) });
    }
    default:
      return { status: 404, body: error("BP-SA-0", "Not found") };
  }
}
