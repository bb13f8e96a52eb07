// The lookups by our reference against a scripted Stripe client (list and search answers in memory).
import { test } from "node:test";
import assert from "node:assert/strict";
import type Stripe from "stripe";
import { chargeByReferenceVia } from "@/lib/providers/stripe/lookups";
import { StripeConnector } from "@/lib/providers/stripe/connector";

const NOW = Date.UTC(2026, 11, 2, 12);
const at = (secondsAgo: number) => Math.floor(NOW / 1000) - secondsAgo;

/** A client whose lists honour created[gte] over the given objects, newest first, in one page. */
function client(sessions: Array<{ id: string; created: number; client_reference_id: string }>) {
  const page = (rows: any[], q: any) => ({ data: rows.filter((r) => r.created >= (q.created?.gte ?? -Infinity)).sort((a, b) => b.created - a.created), has_more: false });
  return {
    paymentIntents: { search: async () => ({ data: [] }), list: async (q: any) => page([], q) },
    checkout: { sessions: { list: async (q: any) => page(sessions, q) } },
  } as unknown as Stripe;
}

test("a Checkout Session older than an hour but still alive (no PaymentIntent yet) is found, never not_found", async () => {
  const s = { id: "cs_old", created: at(5 * 3600), client_reference_id: "tx_1" };
  assert.deepEqual(await chargeByReferenceVia(client([s]), "tx_1", NOW), { kind: "found", providerRef: "cs_old" });
  assert.deepEqual(await chargeByReferenceVia(client([{ ...s, created: at(24 * 3600 - 60) }]), "tx_1", NOW), { kind: "found", providerRef: "cs_old" });
  assert.deepEqual(await chargeByReferenceVia(client([]), "tx_1", NOW), { kind: "not_found" });
});

test("a refund amount Stripe's integers cannot carry is refused, not retried for ever", async () => {
  const c = new StripeConnector({ code: "stripe", kind: "real", baseUrl: "http://127.0.0.1:9", secret: "sk_test_00000000", noticeSecret: null, timeoutMs: 100, rails: null });
  assert.deepEqual(await c.refund({ reference: "clm_1", providerRef: "pi_1", amountLocalMinor: 2n ** 60n }), { kind: "refused", reason: "amount_out_of_provider_limits" });
  assert.deepEqual(await c.refund({ reference: "clm_1", providerRef: "pi_1", amountLocalMinor: 0n }), { kind: "refused", reason: "amount_out_of_provider_limits" });
});
