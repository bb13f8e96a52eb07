// The EBANX connector (pay-ins, refunds, payouts, notices), plain HTTP against PROVIDER_EBANX_URL
// (https://api.ebanxpay.com; the sandbox is https://sandbox.ebanxpay.com). Every call is a JSON
// POST with the integration key in the body, bounded by the provider's timeout; an answer that
// does not arrive or does not parse is unknown, never a refusal. Wire format: ./transformers.ts,
// ./payouts.ts, ./notices.ts.
import { AppError } from "@/lib/platform/errors";
import type { ProviderConfig } from "@/lib/providers/registry";
import type { ChargeLookup, ChargeOutcome, ChargeReadBack, ChargeRequest, ClabeLookup, ClabeOutcome, CredentialCheck, InboundNotice, NoticeCheck, NoticeReading, NoticeSubject, PayoutOutcome, PayoutRequest, PayoutStatus, ProviderStatus, RealConnector, RefundOutcome, RefundRequest, RefundStatus } from "@/lib/providers/types";
import { parseExactJson } from "@/lib/providers/ebanx/exact-json";
import * as wire from "@/lib/providers/ebanx/transformers";
import * as po from "@/lib/providers/ebanx/payouts";
import { checkNoticeSignature, noticeKey, parseNoticeBody } from "@/lib/providers/ebanx/notices";
import { providerExchange, type Exchange } from "@/lib/providers/http-exchange";


export class EbanxConnector implements RealConnector {
  readonly code = "ebanx";
  private readonly key;
  constructor(private cfg: ProviderConfig) {
    this.key = noticeKey(cfg.noticeSecret);
  }

  /** One POST; `body` is undefined when the answer is not JSON. The key travels in the body, never in a URL or a log. */
  private post(path: string, body: unknown): Promise<Exchange> {
    return providerExchange(`${this.cfg.baseUrl}${path}`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body: wire.exactJsonBody(body), timeoutMs: this.cfg.timeoutMs }, parseExactJson);
  }

  private query(by: { hash: string } | { merchant_payment_code: string }) {
    return this.post("/ws/query", wire.queryBody(this.cfg.secret, by));
  }

  /**
   * The integration key's own properties, the read the official SDK uses to validate a key
   * (benjamin Client::validatePrivateKey, ws/merchantIntegrationProperties/get): SUCCESS, or
   * BP-SA-2 "Invalid integration key". No money moves.
   */
  async checkCredentials(): Promise<CredentialCheck> {
    const a = await this.post("/ws/merchantIntegrationProperties/get", { integration_key: this.cfg.secret });
    if (!a.ok) return { kind: "unreachable", detail: a.reason };
    const code = wire.errorCode(a.body);
    if (code && wire.KEY_REFUSED.has(code)) return { kind: "credentials_refused", detail: code };
    if (a.status === 401 || a.status === 403) return { kind: "credentials_refused", detail: `http_${a.status}` };
    return a.body?.status === "SUCCESS" ? { kind: "ok" } : { kind: "unreachable", detail: code ?? `http_${a.status}` };
  }

  async createCharge(req: ChargeRequest): Promise<ChargeOutcome> {
    const rail = wire.RAILS[req.rail.paymentMethodId];
    if (!rail) return { kind: "declined", reason: "method_unsupported_by_provider" };
    const a = rail.api === "direct" ? await this.post("/ws/direct", wire.directBody(req, this.cfg.secret, rail)) : await this.post("/ws/request", wire.pageBody(req, this.cfg.secret, rail));
    if (!a.ok) return { kind: "unavailable", reason: a.reason };
    const out = wire.chargeAnswer(a);
    if (out.kind !== "duplicate") return out;
    // Our transaction id is already a payment at EBANX (a retry after a lost answer): read it back.
    const q = await this.query({ merchant_payment_code: req.transactionId });
    if (!q.ok) return { kind: "unavailable", reason: q.reason };
    return q.body?.status === "SUCCESS" && q.body.payment?.hash ? wire.acceptedOf(q.body) : { kind: "unavailable", reason: "duplicate_unreadable" };
  }

  async getStatus(providerRef: string): Promise<ProviderStatus | null> {
    const a = await this.query({ hash: providerRef });
    return a.ok && a.body?.status === "SUCCESS" ? wire.statusOf(a.body.payment) : null;
  }

  async chargeByReference(reference: string): Promise<ChargeLookup> {
    const a = await this.query({ merchant_payment_code: reference });
    if (!a.ok) return { kind: "unknown", reason: a.reason };
    const back = wire.readBackOf(a);
    if (back.kind !== "found") return back;
    return { kind: "found", providerRef: back.providerRef, status: back.status === "chargeback" ? "paid" : back.status };
  }

  async readCharge(providerRef: string): Promise<ChargeReadBack> {
    const a = await this.query({ hash: providerRef });
    return a.ok ? wire.readBackOf(a) : { kind: "unknown", reason: a.reason };
  }

  /**
   * The payment is read first: its currency writes the amount, and a refund already filed under
   * our claim id (a retry after a lost answer) is answered from it instead of being sent twice.
   * EBANX has no idempotency for refunds and does not hold merchant_refund_code unique
   * (https://docs.ebanx.com/docs/reports/refund-report: "not enforced as unique"), so this read is
   * the only guard: nothing is sent while the payment lists our refund in any state, or a refund
   * naming no claim of the same amount (it may be ours, its code lost); the answer is then unknown
   * and the claim waits for its status job (and an operator, past REFUND_ALERT_MS).
   */
  async refund(req: RefundRequest): Promise<RefundOutcome> {
    const q = await this.query({ hash: req.providerRef });
    if (!q.ok) return { kind: "unknown", reason: q.reason };
    const payment = q.body?.status === "SUCCESS" ? q.body.payment : null;
    // Refund amounts are in the payment's requested currency (refunds[].amount_ext, currency_ext).
    const currency = typeof payment?.currency_ext === "string" ? payment.currency_ext : null;
    if (!currency) return { kind: "unknown", reason: "payment_unreadable" };
    const before = wire.refundStatusOf(q, req.reference, req.amountLocalMinor);
    if (before.kind === "refunded") return { kind: "refunded", providerRef: null };
    if (before.kind === "rejected") return { kind: "refused", reason: before.reason };
    if (before.kind === "processing") return { kind: "unknown", reason: "refund_queued" };
    if (before.kind === "unknown") return before;
    const a = await this.post("/ws/refund", wire.refundBody(req, this.cfg.secret, currency.toUpperCase()));
    return a.ok ? wire.refundAnswer(a) : { kind: "unknown", reason: a.reason };
  }

  /** EBANX finds refunds only through their payment: `paymentRef` is the charge's hash. */
  async refundStatus(reference: string, paymentRef?: string | null): Promise<RefundStatus> {
    if (!paymentRef) return { kind: "unknown", reason: "payment_ref_needed" };
    const a = await this.query({ hash: paymentRef });
    return a.ok ? wire.refundStatusOf(a, reference) : { kind: "unknown", reason: a.reason };
  }

  // EBANX issues no standing CLABE accounts to our end users here (SPEI pay-ins carry a CLABE per payment).
  async provisionClabe(): Promise<ClabeOutcome> {
    return { kind: "refused", reason: "method_unsupported_by_provider" };
  }
  async clabeByReference(): Promise<ClabeLookup> {
    return { kind: "not_found" };
  }

  async payout(req: PayoutRequest): Promise<PayoutOutcome> {
    const body = po.payoutCreateBody(req, this.cfg.secret);
    if (!body) return { kind: "refused", reason: "method_unsupported_by_provider" };
    const a = await this.post("/ws/payout/create", body);
    if (!a.ok) return { kind: "unknown", reason: a.reason };
    const created = po.payoutCreateAnswer(a);
    let uid: string;
    if (created.kind === "duplicate") {
      const s = await this.payoutStatus(req.reference);
      if (s.kind !== "not_found") return s.kind === "unknown" ? s : s.kind === "rejected" || s.kind === "returned" ? { kind: "refused", reason: s.reason ?? s.kind } : { kind: "accepted", providerRef: s.providerRef ?? req.reference };
      const r = await this.post("/ws/payout/retrieve", po.payoutRetrieveBody(this.cfg.secret, req.reference));
      if (!r.ok || typeof r.body?.payout?.uid !== "string") return { kind: "unknown", reason: r.ok ? "unreadable_payout" : r.reason };
      uid = r.body.payout.uid;
    } else if (created.kind === "created") uid = created.uid;
    else return created;
    // Created open (OP): nothing is sent until it is committed.
    const c = await this.post("/ws/payout/commit", po.payoutCommitBody(this.cfg.secret, uid));
    if (!c.ok || !po.payoutCommitted(c)) return { kind: "unknown", reason: c.ok ? "commit_unanswered" : c.reason };
    return { kind: "accepted", providerRef: uid };
  }

  async payoutStatus(reference: string): Promise<PayoutStatus> {
    const a = await this.post("/ws/payout/retrieve", po.payoutRetrieveBody(this.cfg.secret, reference));
    return a.ok ? po.payoutStatusOf(a) : { kind: "unknown", reason: a.reason };
  }

  /** The common protocol's check: EBANX's notices arrive through readNotice only. */
  verifyNotice(): NoticeCheck {
    return "invalid";
  }

  /**
   * Verified in EBANX's scheme first (RSA-SHA1 over the raw body), then each hash is read back:
   * a payment is a charge subject (and, for a refund notice, each of its refunds we filed), a
   * payout uid a payout subject. No event id exists: the id is what was read back (each hash with
   * its status and its refunds' statuses), so a redelivery of the same change has the same id and
   * a later change another. A read-back without an answer is 503: EBANX delivers again.
   */
  async readNotice(n: InboundNotice): Promise<NoticeReading> {
    // EBANX signs its notices only where the merchant asked it to: without the certificate
    // configured, a notice is only a hint, read back below, and the read-back alone decides
    // (decisions.md: a notice without a signature is answered and the status asked).
    const check = this.key ? checkNoticeSignature(this.key, n.rawBody, n.headers) : "ok";
    if (check !== "ok") return { kind: "refused", check };
    const body = parseNoticeBody(n.rawBody);
    if (!body) return { kind: "verified", noticeId: `empty:${n.rawBody.slice(0, 200)}`, subjects: [] };
    const subjects: NoticeSubject[] = [];
    const parts: string[] = [];
    for (const hash of body.hashes) {
      const q = await this.query({ hash });
      if (!q.ok || q.body === undefined || q.status >= 500) throw unanswered(hash);
      // Only SUCCESS or EBANX's not-found code is an answer: an ERROR with any other code (a key
      // refused after a rotation, a rate limit, a transient error, all HTTP 200) is none, and the
      // notice is answered 503 so EBANX delivers it again instead of it being recorded and lost.
      if (q.body?.status !== "SUCCESS" && !wire.queryNotFound(q.body)) throw unanswered(hash);
      if (q.body?.status === "SUCCESS" && q.body.payment?.hash) {
        const p = q.body.payment;
        const refunds: any[] = Array.isArray(p.refunds) ? p.refunds : [];
        subjects.push({ kind: "charge", providerRef: p.hash });
        for (const r of refunds) if (typeof r?.merchant_refund_code === "string" && r.merchant_refund_code) subjects.push({ kind: "refund", reference: r.merchant_refund_code });
        parts.push(`${p.hash}:${p.status}${refunds.map((r) => `/${r?.id}=${r?.status}`).join("")}`);
        continue;
      }
      // Not a payment: a payout's uid (the payout notification names payouts the same way).
      const r = await this.post("/ws/payout/retrieve", { integration_key: this.cfg.secret, uid: hash });
      if (!r.ok || r.body === undefined || r.status >= 500) throw unanswered(hash);
      const payout = r.body?.type === "success" ? r.body.payout : null;
      if (payout && typeof payout.external_reference === "string") {
        subjects.push({ kind: "payout", reference: payout.external_reference });
        parts.push(`${hash}:${payout.status}`);
      } else if (po.payoutNotFound(r.body)) parts.push(`${hash}:unknown`);
      // Neither a payment nor a payout EBANX confirms it lacks: no answer, deliver again.
      else throw unanswered(hash);
    }
    return { kind: "verified", noticeId: `${body.type}:${parts.join(",")}`.slice(0, 500), subjects };
  }
}

const unanswered = (hash: string) => new AppError("service_unavailable", `EBANX did not answer for ${hash}; deliver the notice again.`);
