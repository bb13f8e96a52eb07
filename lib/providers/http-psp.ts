// Connector for the PSPs that speak the common JSON-over-HTTP protocol (the simulated providers
// of development and tests use it too): POST /charges, GET /charges/{ref}, POST /charges/{ref}/refunds;
// notices signed with HMAC-SHA256 of the raw body, hex, in `X-Provider-Signature`.
import { createHmac } from "node:crypto";
import { safeEqual } from "@/lib/crypto/hash";
import type { ChargeOutcome, ChargeRequest, Connector, ProviderStatus } from "@/lib/providers/types";
import type { ProviderConfig } from "@/lib/providers/registry";

export function signNotice(secret: string, rawBody: string): string {
  return createHmac("sha256", secret).update(rawBody).digest("hex");
}

export class HttpPspConnector implements Connector {
  readonly code: string;
  constructor(private cfg: ProviderConfig) {
    this.code = cfg.code;
  }

  private async call(path: string, init: RequestInit): Promise<Response> {
    return fetch(`${this.cfg.baseUrl}${path}`, { ...init, headers: { "content-type": "application/json", authorization: `Bearer ${this.cfg.secret}`, ...init.headers }, signal: AbortSignal.timeout(this.cfg.timeoutMs) });
  }

  async createCharge(req: ChargeRequest): Promise<ChargeOutcome> {
    let res: Response;
    try {
      res = await this.call("/charges", {
        method: "POST",
        body: JSON.stringify({
          reference: req.transactionId,
          method: req.rail.method,
          country: req.rail.countryIso3,
          amount: req.amountLocalMinor.toString(),
          currency: req.currency,
          buyer: req.buyer,
          notifyUrl: req.notifyUrl.replace("{provider}", this.code),
        }),
      });
    } catch (err) {
      const timeout = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
      return { kind: "unavailable", reason: timeout ? "timeout" : "connection_failed" };
    }
    let body: any;
    try {
      body = await res.json();
    } catch {
      return { kind: "unavailable", reason: `unreadable_answer_${res.status}` };
    }
    if (res.status >= 500) return { kind: "unavailable", reason: `http_${res.status}` };
    if (res.status === 402 || res.status === 422 || body?.status === "declined") return { kind: "declined", reason: declineReason(body?.reason ?? body?.code) };
    if (!res.ok || typeof body?.id !== "string") return { kind: "unavailable", reason: `unexpected_answer_${res.status}` };
    const page = typeof body.redirectUrl === "string" && /^https?:\/\//.test(body.redirectUrl) ? body.redirectUrl : null;
    const instructions = body.instructions && typeof body.instructions === "object" ? body.instructions : null;
    return { kind: "accepted", providerRef: body.id, paymentFormUrl: page, instructions };
  }

  async getStatus(providerRef: string): Promise<ProviderStatus | null> {
    try {
      const res = await this.call(`/charges/${encodeURIComponent(providerRef)}`, { method: "GET" });
      if (!res.ok) return null;
      const body: any = await res.json();
      return ["pending", "paid", "failed", "expired", "refunded"].includes(body?.status) ? body.status : null;
    } catch {
      return null;
    }
  }

  verifyNotice(rawBody: string, signature: string | null): boolean {
    if (!signature) return false;
    return safeEqual(signNotice(this.cfg.secret, rawBody), signature.trim().toLowerCase());
  }

  async refund(providerRef: string, amountLocalMinor: bigint): Promise<{ ok: boolean; reason?: string }> {
    try {
      const res = await this.call(`/charges/${encodeURIComponent(providerRef)}/refunds`, { method: "POST", body: JSON.stringify({ amount: amountLocalMinor.toString() }) });
      return res.ok ? { ok: true } : { ok: false, reason: `http_${res.status}` };
    } catch {
      return { ok: false, reason: "connection_failed" };
    }
  }
}

/** A provider's decline reason as a code: free text from upstream is not passed on to merchants. */
function declineReason(v: unknown): string {
  return typeof v === "string" && /^[A-Za-z0-9_.-]{1,64}$/.test(v) ? v : "declined";
}
