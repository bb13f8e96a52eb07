// The wire format of the common JSON-over-HTTP PSP protocol (the simulated providers of
// development and tests speak it too): what we send, how we read what comes back, and how
// notices are signed. No flow here: lib/providers/http-psp/connector.ts decides what to call and
// what an answer means for our rows.
//
//   POST /charges                    {reference, method, country, amount, currency, buyer, notifyUrl}
//   GET  /charges/{id}               {id, status}
//   GET  /charges/by-reference/{reference}  {id, reference, status}  (404: never received)
//   POST /charges/{id}/refunds       {reference, amount}             -> 200 {id, status: refunded} | 422 {status: rejected, reason}
//   GET  /refunds/{reference}        {id, reference, status}         (404: never received)
//   POST /clabes                     {reference, endUserRef, beneficiary, notifyUrl} -> 201 {id, clabe, bank?}
//   GET  /clabes/{reference}         {id, reference, clabe, bank?}   (404: never issued)
//   POST /payouts                    {reference, rail, country, currency, amount, recipient, notifyUrl} -> 201 {id, status}
//   GET  /payouts/{reference}        {id, reference, status: processing|PAID|REJECTED|REFUNDED} (404: never received)
// `reference` is always our id: providers de-duplicate on it. "Never received" is a 404 with a
// JSON body ({error}); a bare 404 (no JSON: a proxy's page) is an unknown answer.
//
// Notices: `X-Provider-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`,
// keyed with the provider's NOTICE secret (never the secret our own calls carry).
import { createHmac } from "node:crypto";
import { safeEqual } from "@/lib/platform/crypto/hash";
import type { ChargeLookup, ChargeOutcome, ChargeRequest, ClabeLookup, ClabeRequest, NoticeCheck, PayoutRequest, PayoutStatus, ProviderStatus, RefundRequest, RefundStatus } from "@/lib/providers/types";
import { noUsableAnswer } from "@/lib/providers/http-exchange";

/** Notices whose signed time is further than this from ours are refused (replays of old notices). */
export const NOTICE_TOLERANCE_SECONDS = 300;

export function noticeSignature(noticeSecret: string, rawBody: string, at: number): string {
  return createHmac("sha256", noticeSecret).update(`${at}.${rawBody}`).digest("hex");
}

/** The header value a provider sends; tests sign with it too. */
export function signNotice(noticeSecret: string, rawBody: string, at = Math.floor(Date.now() / 1000)): string {
  return `t=${at},v1=${noticeSignature(noticeSecret, rawBody, at)}`;
}

export function checkNoticeSignature(noticeSecret: string | null, rawBody: string, header: string | null, now: Date): NoticeCheck {
  if (!header || !noticeSecret) return "missing";
  const parts = new Map(header.split(",").map((kv) => kv.trim().split("=", 2) as [string, string]));
  const t = parts.get("t");
  const v1 = parts.get("v1");
  if (!t || !/^\d{1,12}$/.test(t) || !v1) return "invalid";
  if (!safeEqual(noticeSignature(noticeSecret, rawBody, Number(t)), v1.toLowerCase())) return "invalid";
  // Checked after the HMAC: only a genuine notice learns that it is merely old.
  return Math.abs(now.getTime() / 1000 - Number(t)) > NOTICE_TOLERANCE_SECONDS ? "stale" : "ok";
}

export const chargeBody = (req: ChargeRequest, code: string) => ({
  reference: req.transactionId,
  method: req.rail.method,
  country: req.rail.countryIso3,
  amount: req.amountLocalMinor.toString(),
  currency: req.currency,
  buyer: req.buyer,
  notifyUrl: req.notifyUrl.replace("{provider}", code),
  // Installments (issue 42): the count and what the buyer pays in all, minor units as a string.
  ...(req.installments ? { installments: { count: req.installments.count, total: req.installments.totalMinor.toString(), paidBy: req.installments.paidBy } } : {}),
});

/** A charge answer that arrived (status + parsed body); a body that did not parse is `undefined`. */
export function chargeOutcome(status: number, body: any): ChargeOutcome {
  if (body === undefined) return { kind: "unavailable", reason: `unreadable_answer_${status}` };
  if (status >= 500) return { kind: "unavailable", reason: `http_${status}` };
  if (status === 402 || status === 422 || body?.status === "declined") return { kind: "declined", reason: declineReason(body?.reason ?? body?.code), message: typeof body?.message === "string" ? body.message.slice(0, 200) : null };
  if (status < 200 || status >= 300 || typeof body?.id !== "string") return { kind: "unavailable", reason: `unexpected_answer_${status}` };
  const page = typeof body.redirectUrl === "string" && /^https?:\/\//.test(body.redirectUrl) ? body.redirectUrl : null;
  const instructions = body.instructions && typeof body.instructions === "object" ? body.instructions : null;
  return { kind: "accepted", providerRef: body.id, paymentFormUrl: page, instructions };
}

export function chargeStatus(body: any): ProviderStatus | null {
  return ["pending", "paid", "failed", "expired", "refunded"].includes(body?.status) ? body.status : null;
}

/**
 * "Never received" is the provider's own 404: a JSON answer (`{error: …}`). A bare 404 (a
 * proxy's or load balancer's error page, an empty body) says nothing of our reference: unknown.
 */
export function providerNotFound(status: number, body: any): boolean {
  return status === 404 && body !== null && typeof body === "object" && typeof body.error === "string";
}

export function chargeLookupAnswer(status: number, body: any): ChargeLookup {
  if (providerNotFound(status, body)) return { kind: "not_found" };
  const s = chargeStatus(body);
  if (status !== 200 || typeof body?.id !== "string" || !s) return { kind: "unknown", reason: `http_${status}` };
  return { kind: "found", providerRef: body.id, status: s };
}

export const refundBody = (req: RefundRequest) => ({ reference: req.reference, amount: req.amountLocalMinor.toString() });

/** An explicit refusal is a 4xx that says so; everything else that is not a clear success is unknown. */
function refusal(status: number, body: any): string | null {
  if (status >= 400 && status < 500 && body !== undefined && (body?.status === "rejected" || body?.status === "declined")) return typeof body?.reason === "string" ? declineReason(body.reason) : `http_${status}`;
  return null;
}

export function refundAnswer(status: number, body: any) {
  const refused = refusal(status, body);
  if (refused) return { kind: "refused" as const, reason: refused };
  if (status >= 200 && status < 300 && body?.status === "refunded") return { kind: "refunded" as const, providerRef: typeof body?.id === "string" ? body.id : null };
  return { kind: "unknown" as const, reason: noUsableAnswer(status, body) };
}

export function refundStatusAnswer(status: number, body: any): RefundStatus {
  if (providerNotFound(status, body)) return { kind: "not_found" };
  if (status !== 200 || body === undefined) return { kind: "unknown", reason: `http_${status}` };
  if (body?.status === "refunded") return { kind: "refunded" };
  if (body?.status === "rejected") return { kind: "rejected", reason: declineReason(body?.reason ?? "rejected") };
  return { kind: "processing" };
}

export const clabeBody = (req: ClabeRequest) => req;

export function clabeAnswer(status: number, body: any) {
  // Only an explicit refusal: a bare 4xx (408, 429, a proxy's error page) may hide an issued CLABE.
  const refused = refusal(status, body);
  if (refused) return { kind: "refused" as const, reason: refused };
  if (status >= 200 && status < 300 && body !== undefined) {
    return { kind: "issued" as const, providerRef: typeof body?.id === "string" ? body.id : null, clabe: body?.clabe, bank: typeof body?.bank === "string" && body.bank.trim() ? body.bank.trim() : null };
  }
  return { kind: "unknown" as const, reason: noUsableAnswer(status, body) };
}

/** GET /clabes/{reference}: the account the provider holds under our reference, if any. */
export function clabeLookupAnswer(status: number, body: any): ClabeLookup {
  if (providerNotFound(status, body)) return { kind: "not_found" };
  if (status !== 200 || body === undefined || typeof body?.clabe !== "string") return { kind: "unknown", reason: noUsableAnswer(status, body) };
  return { kind: "found", providerRef: typeof body?.id === "string" ? body.id : null, clabe: body.clabe, bank: typeof body?.bank === "string" && body.bank.trim() ? body.bank.trim() : null };
}

export const payoutBody = (req: PayoutRequest) => ({ ...req, amount: req.amount.toString() });

export function payoutAnswer(status: number, body: any) {
  const refused = refusal(status, body);
  if (refused) return { kind: "refused" as const, reason: refused };
  if (status >= 200 && status < 300 && typeof body?.id === "string" && body?.status !== "rejected") return { kind: "accepted" as const, providerRef: body.id as string };
  return { kind: "unknown" as const, reason: noUsableAnswer(status, body) };
}

export function payoutStatusAnswer(status: number, body: any): PayoutStatus {
  if (providerNotFound(status, body)) return { kind: "not_found" };
  if (status !== 200 || body === undefined) return { kind: "unknown", reason: `http_${status}` };
  const providerRef = typeof body?.id === "string" ? body.id : null;
  switch (body?.status) {
    case "PAID":
      return { kind: "paid", providerRef };
    case "REJECTED":
      return { kind: "rejected", providerRef, reason: declineReason(body?.reason ?? "rejected") };
    case "REFUNDED":
      return { kind: "returned", providerRef };
    case "processing":
      return { kind: "processing", providerRef };
    default:
      return { kind: "unknown", reason: "unexpected_status" };
  }
}

/** A provider's decline reason as a code: free text from upstream is not passed on to merchants. */
function declineReason(v: unknown): string {
  return typeof v === "string" && /^[A-Za-z0-9_.-]{1,64}$/.test(v) ? v : "declined";
}
