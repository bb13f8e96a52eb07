// What an error the `stripe` library raised means for us. The library turns Stripe's error body
// `{ error: { type, code, decline_code, message, param } }` and its HTTP status into classes
// (https://docs.stripe.com/api/errors, https://docs.stripe.com/api/errors/handling): 402
// StripeCardError, 400/404 StripeInvalidRequestError, 401 StripeAuthenticationError, 403
// StripePermissionError, 429 StripeRateLimitError, 400 idempotency_error StripeIdempotencyError,
// 5xx and unreadable answers StripeAPIError, no answer at all StripeConnectionError.
// Only a refusal Stripe states (a card declined, a request it will not carry out) is a decline;
// anything that leaves the outcome unknown is `unavailable` / `unknown`. The secret key is never
// part of what we keep of an error: only its type, code and status.
import type { ChargeOutcome } from "@/lib/providers/types";

type StripeLikeError = { type?: string; rawType?: string; code?: string; decline_code?: string; statusCode?: number; message?: string; raw?: { decline_code?: string } };

const asError = (err: unknown): StripeLikeError => (err && typeof err === "object" ? (err as StripeLikeError) : {});

/** Why a call got no usable answer, in the decline table's transport words (timeout, connection_failed, http_503, …). */
export function unknownReason(err: unknown): string {
  const e = asError(err);
  switch (e.type) {
    case "StripeConnectionError":
      return /timeout/i.test(e.message ?? "") ? "timeout" : "connection_failed";
    case "StripeAuthenticationError":
      return "credentials_refused";
    case "StripePermissionError":
      return "permission_denied";
    case "StripeRateLimitError":
      return "rate_limited";
    case "StripeIdempotencyError":
      return "idempotency_error";
    case "StripeAPIError":
      return e.statusCode ? `http_${e.statusCode}` : "unreadable_answer";
  }
  return e.statusCode ? `http_${e.statusCode}` : "connector_error";
}

/** Stripe answered and refused: a card error (402) or an invalid request (400) it states a code for. */
export function isRefusal(err: unknown): boolean {
  const e = asError(err);
  return e.type === "StripeCardError" || (e.type === "StripeInvalidRequestError" && e.statusCode === 400);
}

/** 404 resource_missing: Stripe has no such object (https://docs.stripe.com/error-codes#resource-missing). */
export function isMissing(err: unknown): boolean {
  const e = asError(err);
  return e.type === "StripeInvalidRequestError" && (e.statusCode === 404 || e.code === "resource_missing");
}

/**
 * A charge request that failed: a decline carries Stripe's `decline_code`
 * (https://docs.stripe.com/declines/codes) or else its error `code`
 * (https://docs.stripe.com/error-codes), which the decline table maps.
 */
export function chargeFailure(err: unknown): ChargeOutcome {
  const e = asError(err);
  if (isRefusal(err)) return { kind: "declined", reason: String(e.decline_code ?? e.raw?.decline_code ?? e.code ?? (e.type === "StripeCardError" ? "card_declined" : "invalid_request_error")), message: e.message ?? null };
  return { kind: "unavailable", reason: unknownReason(err) };
}
