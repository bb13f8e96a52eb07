// Shared helpers of the shop API tests (shops.test.ts, shops-keys.test.ts; not a test file itself):
// a status check, a completed sandbox payment, and the objects a subscription was delivered.
import assert from "node:assert/strict";
import { api } from "./helpers.ts";

export const ok = (r: { status: number; text: string }, status = 200) => assert.equal(r.status, status, r.text.slice(0, 400));

export async function paidPayment(key: string, amount = 20): Promise<string> {
  const p = await api("/payments", { key, body: { amount, paymentMethodId: "sbx_card" } });
  ok(p);
  ok(await api(`/payments/${p.body.transactionId}/simulate`, { key, body: { action: "paid" } }));
  return p.body.transactionId;
}

/** The deliveries a subscription got, by the key that may see it. */
export async function deliveredObjects(key: string, subscriptionId: string): Promise<string[]> {
  const r = await api(`/webhooks/${subscriptionId}/deliveries?limit=100`, { key });
  ok(r);
  return r.body.data.map((d: any) => d.payload?.data?.object?.id);
}
