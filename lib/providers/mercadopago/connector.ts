// The Mercado Pago connector: plain HTTP to its API (cfg.baseUrl, https://api.mercadopago.com by
// default) with the access token as Bearer, each call bounded by the provider's timeout. Wire
// format in ./transformers.ts, notices in ./notices.ts. A call without a readable answer is
// unknown, never a refusal.
//
// Two kinds of charge (./transformers.ts RAIL_METHODS): a payment of the Payments API (PIX,
// boleto, OXXO, SPEI), whose id is our providerRef; and a Checkout Pro preference (cards, PSE),
// whose payment exists only once the buyer pays on MP's page. A preference's providerRef is its
// id; its payment is found by our transaction id, the preference's external_reference, through
// the payments search, and the notice of that payment carries the payment's own id (read back
// with GET /v1/payments/{id}, which names our reference). Payment ids are numbers, preference ids
// are "<collector>-<uuid>": the shape tells which one a providerRef is.
import type { ProviderConfig } from "@/lib/providers/registry";
import type { ChargeLookup, ChargeOutcome, ChargeReadBack, ChargeRequest, ClabeLookup, ClabeOutcome, CredentialCheck, InboundNotice, NoticeCheck, NoticeReading, PayoutOutcome, PayoutStatus, ProviderStatus, RealConnector, RefundOutcome, RefundRequest, RefundStatus } from "@/lib/providers/types";
import { parseWithDecimals, stringifyWithDecimals } from "@/lib/providers/mercadopago/decimal-json";
import { isCurrency } from "@/lib/money/currency";
import { RAIL_METHODS, REFUND_REFUSAL_CAUSES, causeOf, mpAmount, mpNotFound, paymentBody, paymentOutcome, paymentReadBack, preferenceBody, preferenceOutcome, searchLookup } from "@/lib/providers/mercadopago/transformers";
import { readMercadoPagoNotice } from "@/lib/providers/mercadopago/notices";
import { providerExchange, noUsableAnswer, type Exchange } from "@/lib/providers/http-exchange";

const isPaymentId = (ref: string) => /^\d{1,20}$/.test(ref);

export class MercadoPagoConnector implements RealConnector {
  readonly code: string;
  constructor(private cfg: ProviderConfig) {
    this.code = cfg.code;
  }

  /**
   * One HTTP exchange. Every POST carries X-Idempotency-Key (our id): MP made it mandatory on the
   * Payments and Refunds APIs, and a repeated key is answered with the first request's result
   * instead of a second payment or refund
   * (https://www.mercadopago.com.br/developers/en/news/2023/01/04/Idempotency-key-usage-will-be-mandatory).
   */
  private call(method: "GET" | "POST", path: string, body?: unknown, idempotencyKey?: string): Promise<Exchange> {
    const headers = { "content-type": "application/json", authorization: `Bearer ${this.cfg.secret}`, ...(idempotencyKey ? { "x-idempotency-key": idempotencyKey } : {}) };
    return providerExchange(`${this.cfg.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : stringifyWithDecimals(body), timeoutMs: this.cfg.timeoutMs }, parseWithDecimals);
  }

  /** GET /users/me, the account the token belongs to (sdk-nodejs src/clients/user/get/index.ts): moves nothing. */
  async checkCredentials(): Promise<CredentialCheck> {
    const a = await this.call("GET", "/users/me");
    if (!a.ok) return { kind: "unreachable", detail: a.reason };
    if (a.status === 401 || a.status === 403) return { kind: "credentials_refused", detail: `http_${a.status}` };
    return a.status === 200 && a.body !== undefined ? { kind: "ok" } : { kind: "unreachable", detail: `http_${a.status}` };
  }

  async createCharge(req: ChargeRequest): Promise<ChargeOutcome> {
    const how = RAIL_METHODS[req.rail.paymentMethodId];
    if (!how) return { kind: "declined", reason: "method_unsupported_by_provider" };
    // A COP amount with cents cannot be sent to MP (mpAmount): a soft decline, another provider may take it.
    if (mpAmount(req.amountLocalMinor, req.currency) === null) return { kind: "declined", reason: "method_unsupported_by_provider", message: "amount_not_whole_cop" };
    if (how.kind === "preference") {
      const a = await this.call("POST", "/checkout/preferences", preferenceBody(req, this.code)!, req.transactionId);
      return a.ok ? preferenceOutcome(a.status, a.body, this.cfg.secret.startsWith("TEST-")) : { kind: "unavailable", reason: a.reason };
    }
    const body = paymentBody(req, this.code, how.paymentMethodId);
    // MP requires payer.email; asking without one would only earn a 400.
    if (!body) return { kind: "declined", reason: "payer_email_required" };
    const a = await this.call("POST", "/v1/payments", body, req.transactionId);
    return a.ok ? paymentOutcome(a.status, a.body) : { kind: "unavailable", reason: a.reason };
  }

  /** GET /v1/payments/search?external_reference=<our id> (https://www.mercadopago.com.br/developers/en/reference/payments/_payments_search/get). */
  private async paymentByReference(reference: string): Promise<ReturnType<typeof searchLookup>> {
    const a = await this.call("GET", `/v1/payments/search?external_reference=${encodeURIComponent(reference)}&sort=date_created&criteria=desc`);
    return a.ok ? searchLookup(a.status, a.body, reference) : { kind: "unknown", reason: a.reason };
  }

  /** A preference's payment: its external_reference (GET /checkout/preferences/{id}) searched. */
  private async paymentOfPreference(preferenceId: string): Promise<ReturnType<typeof searchLookup>> {
    const p = await this.call("GET", `/checkout/preferences/${encodeURIComponent(preferenceId)}`);
    if (!p.ok) return { kind: "unknown", reason: p.reason };
    if (mpNotFound(p.status, p.body)) return { kind: "not_found" };
    if (p.status !== 200 || typeof p.body?.external_reference !== "string") return { kind: "unknown", reason: `http_${p.status}` };
    return this.paymentByReference(p.body.external_reference);
  }

  async readCharge(providerRef: string): Promise<ChargeReadBack> {
    if (!isPaymentId(providerRef)) {
      const r = await this.paymentOfPreference(providerRef);
      return r.kind === "found_payment" ? r.back : r.kind === "found" ? { kind: "unknown", reason: "unexpected" } : r;
    }
    // https://www.mercadopago.com.br/developers/en/reference/payments/_payments_id/get
    const a = await this.call("GET", `/v1/payments/${providerRef}`);
    return a.ok ? paymentReadBack(a.status, a.body) : { kind: "unknown", reason: a.reason };
  }

  async getStatus(providerRef: string): Promise<ProviderStatus | null> {
    const back = await this.readCharge(providerRef);
    // A preference nobody has paid yet is pending; a chargeback says the charge was paid.
    if (back.kind === "not_found") return isPaymentId(providerRef) ? null : "pending";
    if (back.kind !== "found") return null;
    return back.status === "chargeback" ? "paid" : back.status;
  }

  async chargeByReference(reference: string): Promise<ChargeLookup> {
    const r = await this.paymentByReference(reference);
    if (r.kind !== "found_payment") return r;
    return { kind: "found", providerRef: r.back.providerRef, status: r.back.status === "chargeback" ? "paid" : r.back.status };
  }

  /**
   * POST /v1/payments/{id}/refunds {amount} with the claim id as X-Idempotency-Key
   * (https://www.mercadopago.com.br/developers/en/reference/chargebacks/_payments_id_refunds/post;
   * body: sdk-nodejs src/clients/paymentRefund/create/types.ts). The payment is read first: its
   * currency writes the amount as MP's decimal, and a card's providerRef (a preference) becomes
   * its payment. A refund answered `approved` is done; one MP is still processing is unknown (the
   * status job asks again); a 400 naming a documented refusal (REFUND_REFUSAL_CAUSES) refused it,
   * any other 400 is unknown. RefundRequest carries no currency, so the claim's currency cannot be
   * compared here; a payment in a currency we do not know is unknown, never a throw.
   */
  async refund(req: RefundRequest): Promise<RefundOutcome> {
    const payment = await this.readCharge(req.providerRef);
    if (payment.kind !== "found" || !payment.currency) return { kind: "unknown", reason: payment.kind === "unknown" ? payment.reason : "payment_not_found" };
    if (!isCurrency(payment.currency)) return { kind: "unknown", reason: "payment_currency_unknown" };
    const amount = mpAmount(req.amountLocalMinor, payment.currency);
    // Whole pesos only (mpAmount): MP could never make this refund as asked.
    if (amount === null) return { kind: "refused", reason: "amount_not_whole_cop" };
    const a = await this.call("POST", `/v1/payments/${payment.providerRef}/refunds`, { amount }, req.reference);
    if (!a.ok) return { kind: "unknown", reason: a.reason };
    const cause = causeOf(a.status, a.body);
    if (cause) return REFUND_REFUSAL_CAUSES.has(cause) ? { kind: "refused", reason: `cause_${cause}` } : { kind: "unknown", reason: `cause_${cause}` };
    if ((a.status === 200 || a.status === 201) && a.body?.id !== undefined) {
      if (a.body.status === "approved") return { kind: "refunded", providerRef: String(a.body.id) };
      if (a.body.status === "rejected" || a.body.status === "cancelled") return { kind: "refused", reason: "refund_rejected" };
    }
    return { kind: "unknown", reason: noUsableAnswer(a.status, a.body) };
  }

  /**
   * MP has no refund lookup by our reference: a refund holds no field of ours (its body is only
   * {amount}), GET /v1/payments/{id}/refunds lists a payment's refunds by MP's ids
   * (https://www.mercadopago.com.br/developers/en/reference/chargebacks/_payments_id_refunds/get),
   * and the X-Idempotency-Key is not queryable. The status job asks only after a refund call
   * without a usable answer, so what that list can prove is:
   * - no refund at all on the payment: MP never made ours, `not_found` (the job sends it again,
   *   under the same key);
   * - any refund: one of them may be ours and nothing tells which, `unknown`. Answering
   *   `not_found` there would re-send it, and MP documents no retention for its idempotency keys:
   *   past it, a partial refund would be made twice. Unknown keeps the claim pending, and the job
   *   raises it to an operator after REFUND_ALERT_MS (lib/jobs/run-scheduled-actions.ts).
   * Without the payment (`paymentRef`) nothing can be read: unknown.
   */
  async refundStatus(_reference: string, paymentRef?: string | null): Promise<RefundStatus> {
    if (!paymentRef) return { kind: "unknown", reason: "payment_ref_needed" };
    const payment = await this.readCharge(paymentRef);
    if (payment.kind !== "found") return { kind: "unknown", reason: payment.kind === "unknown" ? payment.reason : "payment_not_found" };
    const a = await this.call("GET", `/v1/payments/${payment.providerRef}/refunds`);
    if (!a.ok) return { kind: "unknown", reason: a.reason };
    if (a.status !== 200 || !Array.isArray(a.body)) return { kind: "unknown", reason: noUsableAnswer(a.status, a.body) };
    return a.body.length === 0 ? { kind: "not_found" } : { kind: "unknown", reason: "refunds_not_attributable" };
  }

  // Mercado Pago issues no CLABEs and sends no payouts through this connector.
  async provisionClabe(): Promise<ClabeOutcome> {
    return { kind: "refused", reason: "unsupported_by_provider" };
  }
  async clabeByReference(): Promise<ClabeLookup> {
    return { kind: "not_found" };
  }
  async payout(): Promise<PayoutOutcome> {
    return { kind: "refused", reason: "unsupported_by_provider" };
  }
  async payoutStatus(): Promise<PayoutStatus> {
    return { kind: "not_found" };
  }

  /** The common protocol's signature: MP's notices are read by readNotice, in MP's own scheme. */
  verifyNotice(): NoticeCheck {
    return "invalid";
  }

  readNotice(n: InboundNotice): NoticeReading {
    return readMercadoPagoNotice(this.cfg.noticeSecret, n);
  }
}
