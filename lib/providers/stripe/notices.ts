// Stripe's webhook events (https://docs.stripe.com/webhooks): verified with the `stripe`
// library's constructEvent over the exact raw body, then read only for what they point at.
//
// The Stripe-Signature header is `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`
// keyed with the endpoint's whsec_ secret (https://docs.stripe.com/webhooks#verify-manually);
// the library checks the signature first and the timestamp's age second, so a notice whose
// signature is right but whose timestamp is older than the tolerance is told apart honestly
// (verified again with tolerance 0: it passes only when the signature is right).
import Stripe from "stripe";
import type { InboundNotice, NoticeReading, NoticeSubject } from "@/lib/providers/types";

/** Stripe's own default tolerance, five minutes (https://docs.stripe.com/webhooks#replay-attacks). */
export const TOLERANCE_SECONDS = 300;

const verifier = new Stripe("sk_test_verification_only", { maxNetworkRetries: 0 });

function isSignatureError(err: unknown): boolean {
  return err instanceof Stripe.errors.StripeSignatureVerificationError;
}

/** Verifies, then names the event's subjects; noticeId is the event id (evt_…), the same on every redelivery. */
export function readStripeNotice(n: InboundNotice, secret: string | null): NoticeReading {
  const header = n.headers.get("stripe-signature");
  if (!header || !secret) return { kind: "refused", check: "missing" };
  let event: Stripe.Event;
  try {
    event = verifier.webhooks.constructEvent(n.rawBody, header, secret, TOLERANCE_SECONDS, undefined, n.now.getTime());
  } catch (err) {
    if (!isSignatureError(err)) return { kind: "refused", check: "invalid" };
    try {
      verifier.webhooks.constructEvent(n.rawBody, header, secret, 0);
      return { kind: "refused", check: "stale" };
    } catch {
      return { kind: "refused", check: "invalid" };
    }
  }
  // The library refuses only timestamps older than the tolerance (its check is `age > tolerance`):
  // one as far in the future is as stale. Read from the header only now, once it is verified.
  const t = /(?:^|,)\s*t=(\d{1,16})(?:,|$)/.exec(header)?.[1];
  if (!t || Number(t) > n.now.getTime() / 1000 + TOLERANCE_SECONDS) return { kind: "refused", check: t ? "stale" : "invalid" };
  if (typeof event?.id !== "string" || !event.id) return { kind: "refused", check: "invalid" };
  return { kind: "verified", noticeId: event.id, subjects: subjectsOf(event as unknown as { type: string; data?: { object?: any } }) };
}

/**
 * What an event is about (https://docs.stripe.com/api/events/types). A charge subject's
 * providerRef is what our transaction holds: the PaymentIntent id for PIX/OXXO, the Checkout
 * Session id for cards and boleto (checkout.session.* events); a PaymentIntent born of a session
 * is read back through its session (StripeConnector.readCharge), so both kinds of event agree.
 */
export function subjectsOf(event: { type: string; data?: { object?: any } }): NoticeSubject[] {
  const obj = event.data?.object;
  const type = String(event.type ?? "");
  if (!obj || typeof obj !== "object") return [];
  const idOf = (v: unknown) => (typeof v === "string" ? v : v && typeof v === "object" && typeof (v as { id?: unknown }).id === "string" ? (v as { id: string }).id : null);
  // payment_intent.succeeded, .payment_failed, .processing, .requires_action, .canceled
  if (type.startsWith("payment_intent.") && idOf(obj.id)?.startsWith("pi_")) return [{ kind: "charge", providerRef: obj.id }];
  // checkout.session.completed, .async_payment_succeeded, .async_payment_failed, .expired
  if (type.startsWith("checkout.session.") && idOf(obj.id)?.startsWith("cs_")) return [{ kind: "charge", providerRef: obj.id }];
  // charge.dispute.created: a Dispute (https://docs.stripe.com/api/disputes/object) names its payment_intent.
  if (type.startsWith("charge.dispute.")) {
    const pi = idOf(obj.payment_intent);
    return pi ? [{ kind: "charge", providerRef: pi }] : [];
  }
  // refund.created/.updated/.failed and charge.refund.updated carry a Refund with our claim id in metadata.
  if (type.startsWith("refund.") || type.startsWith("charge.refund.")) {
    const ref = obj.metadata?.reference;
    return typeof ref === "string" && ref ? [{ kind: "refund", reference: ref }] : [];
  }
  // charge.refunded: a Charge; its refunds are listed only where the API version includes them.
  // Its refunds' own refund.* events say the same, so nothing is lost when they are not.
  if (type === "charge.refunded") {
    const refunds: any[] = Array.isArray(obj.refunds?.data) ? obj.refunds.data : [];
    return refunds.map((r) => r?.metadata?.reference).filter((r): r is string => typeof r === "string" && !!r).map((reference) => ({ kind: "refund" as const, reference }));
  }
  return [];
}
