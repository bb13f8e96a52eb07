// The connector's flow against a scripted MP (fetch replaced): what a refund and a refund lookup
// send and conclude. The wire details are in ./transformers.test.ts.
import { test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { MercadoPagoConnector } from "@/lib/providers/mercadopago/connector";

type Reply = { status: number; body: unknown };
const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** Answers each "METHOD path" from `routes`; records what was asked. */
function mp(routes: Record<string, Reply>) {
  const calls: string[] = [];
  globalThis.fetch = (async (url: string, init: RequestInit) => {
    const key = `${init.method} ${new URL(url).pathname}`;
    calls.push(key);
    const r = routes[key];
    if (!r) return new Response(JSON.stringify({ message: "resource not found", error: "not_found", status: 404, cause: [] }), { status: 404 });
    return new Response(JSON.stringify(r.body), { status: r.status });
  }) as typeof fetch;
  return new MercadoPagoConnector({ code: "mercadopago", kind: "real", baseUrl: "https://mp.test", secret: "APP_USR-test-0000000000", noticeSecret: null, timeoutMs: 1000, rails: null });
}
const payment = (over: Record<string, unknown> = {}) => ({ id: 77, status: "approved", status_detail: "accredited", payment_method_id: "pix", currency_id: "BRL", transaction_amount: 100.5, external_reference: "tx_1", ...over });

test("refund status: no refund on the payment is not_found; refunds we cannot attribute are unknown, never not_found", async () => {
  let c = mp({ "GET /v1/payments/77": { status: 200, body: payment() }, "GET /v1/payments/77/refunds": { status: 200, body: [] } });
  assert.deepEqual(await c.refundStatus("clm_1", "77"), { kind: "not_found" });
  c = mp({ "GET /v1/payments/77": { status: 200, body: payment() }, "GET /v1/payments/77/refunds": { status: 200, body: [{ id: 9, payment_id: 77, amount: 20, status: "approved" }] } });
  assert.deepEqual(await c.refundStatus("clm_1", "77"), { kind: "unknown", reason: "refunds_not_attributable" });
  c = mp({ "GET /v1/payments/77": { status: 200, body: payment() }, "GET /v1/payments/77/refunds": { status: 500, body: { message: "x" } } });
  assert.equal((await c.refundStatus("clm_1", "77")).kind, "unknown");
  assert.deepEqual(await c.refundStatus("clm_1"), { kind: "unknown", reason: "payment_ref_needed" });
});

test("refund: a 400 cause MP documents as a refusal refuses; any other cause is unknown", async () => {
  const e400 = (code: number) => ({ status: 400, body: { message: "x", error: "bad_request", status: 400, cause: [{ code, description: "x" }] } });
  let c = mp({ "GET /v1/payments/77": { status: 200, body: payment() }, "POST /v1/payments/77/refunds": e400(4040) });
  assert.deepEqual(await c.refund({ reference: "clm_1", providerRef: "77", amountLocalMinor: 1_000n }), { kind: "refused", reason: "cause_4040" });
  c = mp({ "GET /v1/payments/77": { status: 200, body: payment() }, "POST /v1/payments/77/refunds": e400(2004) });
  assert.deepEqual(await c.refund({ reference: "clm_1", providerRef: "77", amountLocalMinor: 1_000n }), { kind: "unknown", reason: "cause_2004" });
  c = mp({ "GET /v1/payments/77": { status: 200, body: payment() }, "POST /v1/payments/77/refunds": { status: 400, body: { message: "x", error: "bad_request", status: 400, cause: [] } } });
  assert.equal((await c.refund({ reference: "clm_1", providerRef: "77", amountLocalMinor: 1_000n })).kind, "unknown");
});

test("refund: a payment in a currency we do not know is unknown (no throw); COP with cents is refused unsent", async () => {
  let c = mp({ "GET /v1/payments/77": { status: 200, body: payment({ currency_id: "XXX" }) } });
  assert.equal((await c.refund({ reference: "clm_1", providerRef: "77", amountLocalMinor: 1_000n })).kind, "unknown");
  c = mp({ "GET /v1/payments/77": { status: 200, body: payment({ currency_id: "COP", transaction_amount: 50000 }) } });
  assert.deepEqual(await c.refund({ reference: "clm_1", providerRef: "77", amountLocalMinor: 1_037n }), { kind: "refused", reason: "amount_not_whole_cop" });
});

test("a COP charge with cents is a soft decline, never sent", async () => {
  const c = mp({});
  const out = await c.createCharge({ transactionId: "tx_1", rail: { paymentMethodId: "1005", countryIso2: "CO" } as any, amountLocalMinor: 5_000_037n, currency: "COP", buyer: { email: "a@b.co" }, notifyUrl: "https://x.test/api/v1/providers/{provider}/notifications" });
  assert.equal(out.kind, "declined");
  assert.equal((out as any).reason, "method_unsupported_by_provider");
});
