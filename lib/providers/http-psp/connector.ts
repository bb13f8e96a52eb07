// The flow of a connector for PSPs speaking the common JSON-over-HTTP protocol (wire format in
// ./transformers.ts). Each call is bounded by the provider's timeout; a call that ends without a
// readable answer is reported as `unknown`, never as a refusal.
import * as wire from "@/lib/providers/http-psp/transformers";
import type { ProviderConfig } from "@/lib/providers/registry";
import { providerExchange, type Exchange } from "@/lib/providers/http-exchange";
import { isCobrRef, PixAutomatico } from "@/lib/providers/http-psp/pix-automatico";
import type { CredentialCheck, ChargeLookup, ChargeOutcome, ChargeRequest, ClabeLookup, ClabeOutcome, ClabeRequest, Connector, NoticeCheck, PayoutOutcome, PayoutRequest, PayoutStatus, ProviderStatus, RefundOutcome, RefundRequest, RefundStatus } from "@/lib/providers/types";


export class HttpPspConnector implements Connector {
  readonly code: string;
  /** Recurring PIX (API Pix's Pix Automático) at the PSPs that offer it (MANDATE_PROVIDER_CODES). */
  readonly pix: PixAutomatico;
  constructor(private cfg: ProviderConfig) {
    this.code = cfg.code;
    this.pix = new PixAutomatico(cfg);
  }

  /** One HTTP exchange; `body` is undefined when the answer did not parse as JSON. */
  private call(method: "GET" | "POST", path: string, body?: unknown): Promise<Exchange> {
    return providerExchange(`${this.cfg.baseUrl}${path}`, { method, headers: { "content-type": "application/json", authorization: `Bearer ${this.cfg.secret}` }, body: body === undefined ? undefined : JSON.stringify(body), timeoutMs: this.cfg.timeoutMs }, JSON.parse);
  }

  /** A reference nobody used: the provider's own 404 says the secret was taken; 401/403 that it was not. */
  async checkCredentials(): Promise<CredentialCheck> {
    const a = await this.call("GET", "/charges/by-reference/providers-check");
    if (!a.ok) return { kind: "unreachable", detail: a.reason };
    if (a.status === 401 || a.status === 403) return { kind: "credentials_refused", detail: `http_${a.status}` };
    if (a.status === 200 || wire.providerNotFound(a.status, a.body)) return { kind: "ok" };
    return { kind: "unreachable", detail: `http_${a.status}` };
  }

  async createCharge(req: ChargeRequest): Promise<ChargeOutcome> {
    if (req.mandate) return this.pix.sendCharge(req);
    const a = await this.call("POST", "/charges", wire.chargeBody(req, this.code));
    return a.ok ? wire.chargeOutcome(a.status, a.body) : { kind: "unavailable", reason: a.reason };
  }

  async getStatus(providerRef: string): Promise<ProviderStatus | null> {
    if (isCobrRef(providerRef)) return this.pix.chargeStatus(providerRef);
    const a = await this.call("GET", `/charges/${encodeURIComponent(providerRef)}`);
    return a.ok && a.status === 200 ? wire.chargeStatus(a.body) : null;
  }

  async chargeByReference(reference: string): Promise<ChargeLookup> {
    const a = await this.call("GET", `/charges/by-reference/${encodeURIComponent(reference)}`);
    return a.ok ? wire.chargeLookupAnswer(a.status, a.body) : { kind: "unknown", reason: a.reason };
  }

  async refund(req: RefundRequest): Promise<RefundOutcome> {
    if (isCobrRef(req.providerRef)) return this.pix.refund(req);
    const a = await this.call("POST", `/charges/${encodeURIComponent(req.providerRef)}/refunds`, wire.refundBody(req));
    return a.ok ? wire.refundAnswer(a.status, a.body) : { kind: "unknown", reason: a.reason };
  }

  async refundStatus(reference: string, paymentRef?: string | null): Promise<RefundStatus> {
    if (isCobrRef(paymentRef)) return this.pix.refundStatus(reference, paymentRef);
    const a = await this.call("GET", `/refunds/${encodeURIComponent(reference)}`);
    return a.ok ? wire.refundStatusAnswer(a.status, a.body) : { kind: "unknown", reason: a.reason };
  }

  async provisionClabe(req: ClabeRequest): Promise<ClabeOutcome> {
    const a = await this.call("POST", "/clabes", wire.clabeBody(req));
    return a.ok ? wire.clabeAnswer(a.status, a.body) : { kind: "unknown", reason: a.reason === "timeout" ? "provider_timeout" : "provider_unreachable" };
  }

  async clabeByReference(reference: string): Promise<ClabeLookup> {
    const a = await this.call("GET", `/clabes/${encodeURIComponent(reference)}`);
    return a.ok ? wire.clabeLookupAnswer(a.status, a.body) : { kind: "unknown", reason: a.reason };
  }

  async payout(req: PayoutRequest): Promise<PayoutOutcome> {
    const a = await this.call("POST", "/payouts", wire.payoutBody(req));
    return a.ok ? wire.payoutAnswer(a.status, a.body) : { kind: "unknown", reason: a.reason };
  }

  async payoutStatus(reference: string): Promise<PayoutStatus> {
    const a = await this.call("GET", `/payouts/${encodeURIComponent(reference)}`);
    return a.ok ? wire.payoutStatusAnswer(a.status, a.body) : { kind: "unknown", reason: a.reason };
  }

  verifyNotice(rawBody: string, signature: string | null, now = new Date()): NoticeCheck {
    return wire.checkNoticeSignature(this.cfg.noticeSecret, rawBody, signature, now);
  }
}
