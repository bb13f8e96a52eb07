// Finding a Stripe object by OUR reference (the transaction id, the claim id), which Stripe keeps
// in metadata but lets few endpoints filter by.
//
// Charges: the Search API finds PaymentIntents by metadata (https://docs.stripe.com/search,
// `metadata['reference']:'tx_…'`), but it is eventually consistent: "Don't use search in
// read-after-write flows … under normal operating conditions, data is searchable in less than a
// minute". Reconciliation asks exactly after a write it lost (a timed-out create), and a wrong
// "not found" fails the payment. So a miss in search is checked against the list endpoints, which
// are consistent but filter by neither metadata nor client_reference_id
// (https://docs.stripe.com/api/checkout/sessions/list, https://docs.stripe.com/api/payment_intents/list):
// we walk the last RECENT_SECONDS of PaymentIntents (`created[gte]`, newest first, at most
// MAX_PAGES pages of 100); search covers what is older. Checkout Sessions are not searchable at
// all, and a session lives up to 24 hours before its PaymentIntent exists (`expires_at`: "can be
// anywhere from 30 minutes to 24 hours after Checkout Session creation",
// https://docs.stripe.com/api/checkout/sessions/create#create_checkout_session-expires_at), so
// sessions are walked back SESSION_LIFETIME_SECONDS. A walk cut short by the page cap is
// "unknown", never "not found".
//
// Refunds have no search and are listed by charge or PaymentIntent only
// (https://docs.stripe.com/api/refunds/list), and the refund status job knows only our claim id:
// we walk the account's refunds newest first (most refunds asked about are minutes old) up to
// REFUND_MAX_PAGES; a walk that reached the end without it is "not found" (the job then sends the
// refund again with the same Idempotency-Key, which cannot make a second one while Stripe keeps
// the key, 24 hours), a walk cut short is "unknown".
import type Stripe from "stripe";
import { referenceQuery } from "@/lib/providers/stripe/transformers";

export const RECENT_SECONDS = 3600;
export const SESSION_LIFETIME_SECONDS = 24 * 3600;
export const MAX_PAGES = 5;
export const REFUND_MAX_PAGES = 10;
const PAGE = 100;

type Found<T> = { kind: "found" } & T;
type Miss = { kind: "not_found" } | { kind: "unknown"; reason: string };

/** Walks a list newest first until `match` hits, the list ends (`complete`), or the page cap. */
async function walk<T extends { id: string }>(page: (startingAfter?: string) => Promise<{ data: T[]; has_more: boolean }>, match: (o: T) => boolean, maxPages: number): Promise<{ hit: T | null; complete: boolean }> {
  let after: string | undefined;
  for (let i = 0; i < maxPages; i++) {
    const p = await page(after);
    const hit = p.data.find(match);
    if (hit) return { hit, complete: true };
    if (!p.has_more || p.data.length === 0) return { hit: null, complete: true };
    after = p.data[p.data.length - 1]!.id;
  }
  return { hit: null, complete: false };
}

export async function chargeByReferenceVia(stripe: Stripe, reference: string, now = Date.now()): Promise<Found<{ providerRef: string }> | Miss> {
  const found = await stripe.paymentIntents.search({ query: referenceQuery(reference), limit: 10 });
  const pi = found.data.find((p) => p.metadata?.reference === reference);
  if (pi) return { kind: "found", providerRef: pi.id };
  const since = Math.floor(now / 1000) - RECENT_SECONDS;
  const sessionsSince = Math.floor(now / 1000) - SESSION_LIFETIME_SECONDS;
  const sessions = await walk((after) => stripe.checkout.sessions.list({ created: { gte: sessionsSince }, limit: PAGE, ...(after ? { starting_after: after } : {}) }), (s) => s.client_reference_id === reference, MAX_PAGES);
  if (sessions.hit) return { kind: "found", providerRef: sessions.hit.id };
  const intents = await walk((after) => stripe.paymentIntents.list({ created: { gte: since }, limit: PAGE, ...(after ? { starting_after: after } : {}) }), (p) => p.metadata?.reference === reference, MAX_PAGES);
  if (intents.hit) return { kind: "found", providerRef: intents.hit.id };
  return sessions.complete && intents.complete ? { kind: "not_found" } : { kind: "unknown", reason: "too_many_recent_charges" };
}

export async function refundByReferenceVia(stripe: Stripe, reference: string): Promise<Found<{ refund: Stripe.Refund }> | Miss> {
  const refunds = await walk((after) => stripe.refunds.list({ limit: PAGE, ...(after ? { starting_after: after } : {}) }), (r) => r.metadata?.reference === reference, REFUND_MAX_PAGES);
  if (refunds.hit) return { kind: "found", refund: refunds.hit };
  return refunds.complete ? { kind: "not_found" } : { kind: "unknown", reason: "too_many_refunds" };
}
