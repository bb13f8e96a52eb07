// Stripe through its official library (`stripe` on npm), pointed at PROVIDER_STRIPE_URL (the real
// API by default; tests point it at scripts/psp/stripe). Wire format in ./transformers.ts,
// errors in ./errors.ts, notices in ./notices.ts.
//
// Our reference: every POST carries our id as its Idempotency-Key (https://docs.stripe.com/api/idempotent_requests:
// the same key within 24 hours answers the first answer again and never makes a second object),
// and the object carries it as metadata.reference.
//
// providerRef: the PaymentIntent id (pi_…) for PIX and OXXO; the Checkout Session id (cs_…) for
// cards and boleto, because the session is what exists when we answer (its PaymentIntent is made
// when the buyer submits the hosted page, https://docs.stripe.com/api/checkout/sessions/object#checkout_session_object-payment_intent),
// and it stays the charge's name through expiry; readCharge/getStatus read the session with its
// PaymentIntent expanded.
import Stripe from "stripe";
import type { ProviderConfig } from "@/lib/providers/registry";
import type { ChargeLookup, ChargeOutcome, ChargeReadBack, ChargeRequest, ClabeLookup, ClabeOutcome, CredentialCheck, InboundNotice, NoticeCheck, NoticeReading, PayoutOutcome, PayoutStatus, ProviderStatus, RealConnector, RefundOutcome, RefundRequest, RefundStatus } from "@/lib/providers/types";
import * as wire from "@/lib/providers/stripe/transformers";
import { chargeFailure, isMissing, isRefusal, unknownReason } from "@/lib/providers/stripe/errors";
import { readStripeNotice } from "@/lib/providers/stripe/notices";
import { chargeByReferenceVia, refundByReferenceVia } from "@/lib/providers/stripe/lookups";

const UNSUPPORTED = { kind: "refused", reason: "unsupported_by_provider" } as const;

/** The library's client for `baseUrl`: host, port and protocol from the URL; no retries of its own (ours are by reference). */
export function stripeClient(cfg: Pick<ProviderConfig, "baseUrl" | "secret" | "timeoutMs">): Stripe {
  const u = new URL(cfg.baseUrl);
  const protocol = u.protocol === "http:" ? "http" : "https";
  return new Stripe(cfg.secret, { host: u.hostname, port: u.port || (protocol === "http" ? 80 : 443), protocol, timeout: cfg.timeoutMs, maxNetworkRetries: 0, telemetry: false });
}

export class StripeConnector implements RealConnector {
  readonly code = "stripe";
  private stripe: Stripe;
  constructor(private cfg: ProviderConfig) {
    this.stripe = stripeClient(cfg);
  }

  /** GET /v1/balance (https://docs.stripe.com/api/balance/balance_retrieve): authenticated, moves nothing. */
  async checkCredentials(): Promise<CredentialCheck> {
    try {
      await this.stripe.balance.retrieve();
      return { kind: "ok" };
    } catch (err) {
      const reason = unknownReason(err);
      if (reason === "credentials_refused" || reason === "permission_denied") return { kind: "credentials_refused", detail: reason };
      return { kind: "unreachable", detail: reason };
    }
  }

  async createCharge(req: ChargeRequest): Promise<ChargeOutcome> {
    const how = wire.RAIL_SHAPES[req.rail.paymentMethodId];
    if (!how) return { kind: "declined", reason: "method_not_supported" };
    const options = { idempotencyKey: req.transactionId };
    try {
      if (how.shape === "payment_intent") return wire.paymentIntentOutcome(await this.stripe.paymentIntents.create(wire.paymentIntentParams(req, how.type as "pix" | "oxxo"), options));
      return wire.checkoutSessionOutcome(await this.stripe.checkout.sessions.create(wire.checkoutSessionParams(req, how.type as "card" | "boleto"), options));
    } catch (err) {
      if (err instanceof RangeError) return { kind: "declined", reason: "amount_out_of_provider_limits" };
      return chargeFailure(err);
    }
  }

  async getStatus(providerRef: string): Promise<ProviderStatus | null> {
    const back = await this.readCharge(providerRef);
    // Our status jobs act on charges; a dispute reaches us by its notice.
    return back.kind === "found" && back.status !== "chargeback" ? back.status : null;
  }

  /** A PaymentIntent (pi_…) or a Checkout Session (cs_…), with what decides its status expanded. */
  async readCharge(providerRef: string): Promise<ChargeReadBack> {
    try {
      if (providerRef.startsWith("cs_")) {
        const s: any = await this.stripe.checkout.sessions.retrieve(providerRef, { expand: ["payment_intent.latest_charge"] });
        const status = wire.checkoutSessionStatus(s, await this.disputesOf(s.payment_intent));
        if (!status) return { kind: "unknown", reason: "unreadable_answer" };
        // The plan the buyer chose on the hosted page is on the session's charge (wire.installmentsChosen).
        const count = status === "paid" ? wire.installmentsChosen(s.payment_intent?.latest_charge) : undefined;
        return { kind: "found", providerRef: s.id, reference: wire.referenceOf(s), status, amountMinor: typeof s.amount_total === "number" ? BigInt(s.amount_total) : null, currency: typeof s.currency === "string" ? s.currency.toUpperCase() : null, ...(count !== undefined ? { installmentsCount: count } : {}) };
      }
      if (!providerRef.startsWith("pi_")) return { kind: "not_found" };
      const pi: any = await this.stripe.paymentIntents.retrieve(providerRef, { expand: ["latest_charge"] });
      // A PaymentIntent of one of our sessions: our charge is the session (a dispute's notice names the PaymentIntent).
      if (pi?.metadata?.via === wire.CHECKOUT_SESSION) {
        const sessions = await this.stripe.checkout.sessions.list({ payment_intent: pi.id, limit: 1 });
        const s = sessions.data[0];
        if (s?.id) return this.readCharge(s.id);
      }
      const status = wire.paymentIntentStatus(pi, await this.disputesOf(pi));
      if (!status) return { kind: "unknown", reason: "unreadable_answer" };
      return { kind: "found", providerRef: pi.id, reference: wire.referenceOf(pi), status, amountMinor: typeof pi.amount === "number" ? BigInt(pi.amount) : null, currency: typeof pi.currency === "string" ? pi.currency.toUpperCase() : null };
    } catch (err) {
      if (isMissing(err)) return { kind: "not_found" };
      return { kind: "unknown", reason: unknownReason(err) };
    }
  }

  /** A disputed charge's disputes (https://docs.stripe.com/api/disputes/list, by payment_intent); undefined when it has none. */
  private async disputesOf(pi: any): Promise<any[] | undefined> {
    const charge = typeof pi === "object" && pi && typeof pi.latest_charge === "object" ? pi.latest_charge : null;
    if (charge?.disputed !== true) return undefined;
    const list = await this.stripe.disputes.list({ payment_intent: pi.id, limit: 100 });
    return list.data;
  }

  async chargeByReference(reference: string): Promise<ChargeLookup> {
    try {
      const hit = await chargeByReferenceVia(this.stripe, reference);
      if (hit.kind !== "found") return hit;
      const back = await this.readCharge(hit.providerRef);
      if (back.kind !== "found") return back.kind === "not_found" ? { kind: "unknown", reason: "listed_but_not_readable" } : back;
      return { kind: "found", providerRef: back.providerRef, status: back.status === "chargeback" ? "paid" : back.status };
    } catch (err) {
      return { kind: "unknown", reason: unknownReason(err) };
    }
  }

  /** POST /v1/refunds of the charge's PaymentIntent, our claim id as Idempotency-Key and metadata.reference. */
  async refund(req: RefundRequest): Promise<RefundOutcome> {
    try {
      let paymentIntent = req.providerRef;
      if (paymentIntent.startsWith("cs_")) {
        const s = await this.stripe.checkout.sessions.retrieve(paymentIntent);
        const pi = typeof s.payment_intent === "string" ? s.payment_intent : (s.payment_intent?.id ?? null);
        if (!pi) return { kind: "refused", reason: "charge_not_paid" };
        paymentIntent = pi;
      }
      const r: any = await this.stripe.refunds.create(wire.refundParams(paymentIntent, req.amountLocalMinor, req.reference), { idempotencyKey: req.reference });
      const status = wire.refundStatusOf(r);
      if (status.kind === "refunded") return { kind: "refunded", providerRef: r.id };
      if (status.kind === "rejected") return { kind: "refused", reason: status.reason };
      // pending / requires_action: the refund exists; its status job follows it by reference.
      return { kind: "unknown", reason: `refund_${r.status}` };
    } catch (err) {
      // An amount Stripe's integers cannot carry (amountOf): never sendable, as a charge's is a decline.
      if (err instanceof RangeError) return { kind: "refused", reason: "amount_out_of_provider_limits" };
      // charge_already_refunded, amount too large, …: Stripe will not make this refund.
      if (isRefusal(err)) return { kind: "refused", reason: String((err as { code?: string }).code ?? "refund_refused") };
      return { kind: "unknown", reason: unknownReason(err) };
    }
  }

  async refundStatus(reference: string): Promise<RefundStatus> {
    try {
      const hit = await refundByReferenceVia(this.stripe, reference);
      return hit.kind === "found" ? wire.refundStatusOf(hit.refund) : hit;
    } catch (err) {
      return { kind: "unknown", reason: unknownReason(err) };
    }
  }

  // Stripe issues no CLABE and pays out to nobody for us here (payouts go to the account's own bank).
  async provisionClabe(): Promise<ClabeOutcome> {
    return UNSUPPORTED;
  }
  async clabeByReference(): Promise<ClabeLookup> {
    return { kind: "not_found" };
  }
  async payout(_req: unknown): Promise<PayoutOutcome> {
    return UNSUPPORTED;
  }
  async payoutStatus(): Promise<PayoutStatus> {
    return { kind: "not_found" };
  }

  /** The common protocol's check: Stripe's notices are read by readNotice. */
  verifyNotice(): NoticeCheck {
    return "invalid";
  }

  readNotice(n: InboundNotice): NoticeReading {
    return readStripeNotice(n, this.cfg.noticeSecret);
  }
}
