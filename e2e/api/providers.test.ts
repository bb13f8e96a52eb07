// Production pay-ins through the simulated upstream providers (separate HTTP services started by
// `npm test`): the cascade, signed notices, duplicates, lost notices caught by reconciliation,
// and refunds through the provider.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHmac, randomUUID } from "node:crypto";
import { api, assertEnvelope, newMerchant, waitFor } from "./helpers.ts";
import { setRate } from "@/lib/money/rates";
import { db } from "@/lib/platform/db";

const PSP = { pagosur: process.env.PROVIDER_PAGOSUR_URL!, andespay: process.env.PROVIDER_ANDESPAY_URL!, rapidpay: process.env.PROVIDER_RAPIDPAY_URL! };
type Psp = keyof typeof PSP;

async function behave(psp: Psp, mode: string, forEmail: string) {
  const r = await fetch(`${PSP[psp]}/_control/behaviour`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ mode, forEmail }) });
  assert.equal(r.status, 200);
}
async function control(psp: Psp, chargeId: string, status: string, opts: Record<string, unknown> = {}) {
  const r = await fetch(`${PSP[psp]}/_control/charges/${chargeId}/${status}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(opts) });
  assert.equal(r.status, 200);
}
const email = () => `buyer-${randomUUID().slice(0, 8)}@example.com`;
const spei = (buyerEmail: string, extra: Record<string, unknown> = {}) => ({ amount: 25, paymentMethodId: "1003", userName: "Juan Pérez", userEmail: buyerEmail, documentId: "GODE561231GR8", ...extra });

let key: string;
let merchantId: string;
before(async () => {
  for (const [quote, rate] of [["BRL", "5.40"], ["MXN", "18.20"], ["COP", "4100"], ["PEN", "3.75"], ["CLP", "950"]] as const) await setRate(quote, rate, "test");
  const m = await newMerchant();
  key = m.production.secretKey;
  merchantId = m.merchantId;
});
after(() => db().$disconnect());

const chargeOf = async (txId: string) => (await db().transaction.findUniqueOrThrow({ where: { id: txId } })).providerRef!;

describe("the cascade", () => {
  test("the first provider of the rail takes the charge; its hosted page is the paymentFormUrl", async () => {
    const r = await api("/payments", { key, body: spei(email()) });
    assert.equal(r.status, 200, r.text);
    assert.ok(r.body.paymentFormUrl.startsWith(`${PSP.pagosur}/checkout/`));
    const got = await api(`/payments/${r.body.transactionId}`, { key });
    assert.deepEqual(got.body.attempts.map((a: any) => [a.provider, a.outcome]), [["pagosur", "accepted"]]);
    assert.equal(got.body.provider, "pagosur");
  });

  test("a declining and a timing-out provider are skipped: the third accepts, every attempt is recorded", async () => {
    const e = email();
    await behave("pagosur", "decline", e);
    await behave("andespay", "timeout", e);
    const r = await api("/payments", { key, body: spei(e) });
    assert.equal(r.status, 200, r.text);
    assert.ok(r.body.paymentFormUrl.startsWith(`${PSP.rapidpay}/checkout/`));
    const got = await api(`/payments/${r.body.transactionId}`, { key });
    assert.deepEqual(got.body.attempts.map((a: any) => [a.provider, a.outcome, a.reason]), [["pagosur", "declined", "risk_rejected"], ["andespay", "unavailable", "timeout"], ["rapidpay", "accepted", null]]);
  });

  test("5xx and garbage answers count as unavailable and the cascade moves on", async () => {
    const e = email();
    await behave("pagosur", "error", e);
    await behave("andespay", "garbage", e);
    const r = await api("/payments", { key, body: spei(e) });
    assert.equal(r.status, 200, r.text);
    const got = await api(`/payments/${r.body.transactionId}`, { key });
    assert.deepEqual(got.body.attempts.map((a: any) => a.outcome), ["unavailable", "unavailable", "accepted"]);
  });

  test("every provider declines: 422 cascade_exhausted with the attempts, and no transaction", async () => {
    const e = email();
    for (const p of ["pagosur", "andespay", "rapidpay"] as const) await behave(p, "decline", e);
    const before = await db().transaction.count({ where: { merchantId } });
    const r = await api("/payments", { key, body: spei(e) });
    assertEnvelope(r, "cascade_exhausted", 422);
    assert.equal(r.body.error.details.reason, "all_providers_declined");
    assert.equal(r.body.error.details.paymentMethodEnabledForShop, true);
    assert.equal(r.body.error.details.attempts.length, 3);
    assert.equal(await db().transaction.count({ where: { merchantId } }), before);
  });

  test("accepted without a page or instructions: 502 payment_instructions_unavailable naming the provider, no transaction", async () => {
    const e = email();
    for (const p of ["pagosur", "andespay", "rapidpay"] as const) await behave(p, "no_page", e);
    const before = await db().transaction.count({ where: { merchantId } });
    const r = await api("/payments", { key, body: spei(e) });
    assertEnvelope(r, "payment_instructions_unavailable", 502);
    assert.equal(r.body.error.details.provider, "pagosur");
    assert.equal(await db().transaction.count({ where: { merchantId } }), before);
  });

  test("instructions without a hosted page are shown on the service's own page", async () => {
    const e = email();
    await behave("pagosur", "accept_instructions", e);
    const r = await api("/payments", { key, body: spei(e) });
    assert.equal(r.status, 200, r.text);
    assert.match(r.body.paymentFormUrl, /\/pay\/pagosur\/tx_/);
    const page = await fetch(r.body.paymentFormUrl);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /reference/i);
  });

  test("an id the catalog does not have: cascade_exhausted no_provider_for_method_region, not enabled for the shop", async () => {
    const r = await api("/payments", { key, body: { ...spei(email()), paymentMethodId: "9999" } });
    assertEnvelope(r, "cascade_exhausted", 422);
    assert.equal(r.body.error.details.reason, "no_provider_for_method_region");
    assert.equal(r.body.error.details.paymentMethodEnabledForShop, false);
  });

  test("production rails are routable in the catalog when their providers are configured", async () => {
    const r = await api("/payment-methods?country=MX", { key });
    assert.equal(r.status, 200);
    const speiRail = r.body.methods.find((m: any) => m.paymentMethodId === "1003");
    assert.equal(speiRail.routable, true);
    assert.equal(speiRail.unroutableReason, null);
    assert.ok(r.body.methods.every((m: any) => !m.paymentMethodId.startsWith("sbx_")));
  });
});

describe("presentment currency in production", () => {
  test("a currency with a current rate converts with the 2% markup; one without a rate is 422 fx_unavailable", async () => {
    const ok = await api("/payments", { key, body: spei(email(), { amount: 1820, currency: "MXN" }) });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.inputCurrency, "MXN");
    assert.equal(ok.body.inputAmount, 1820);
    assert.equal(ok.body.amount, 98); // 1820 / 18.20 × 0.98
    const before = await db().transaction.count({ where: { merchantId } });
    const r = await api("/payments", { key, body: spei(email(), { amount: 100, currency: "EUR" }) });
    assertEnvelope(r, "fx_unavailable", 422);
    assert.equal(r.body.error.details.currency, "EUR");
    assert.equal(await db().transaction.count({ where: { merchantId } }), before);
  });
});

describe("provider notices", () => {
  test("a signed paid notice completes the payment once, even when delivered twice", async () => {
    const r = await api("/payments", { key, body: spei(email()) });
    const tx = r.body.transactionId;
    await control("pagosur", await chargeOf(tx), "paid", { duplicate: true });
    await waitFor(async () => (await api(`/payments/${tx}`, { key })).body.status === "completed", "completion by notice");
    // Wait until the simulator has had both deliveries answered.
    const charge = await chargeOf(tx);
    await waitFor(async () => ((await (await fetch(`${PSP.pagosur}/_control/charges/${charge}`)).json()) as any).deliveries.filter((d: any) => d.httpStatus === 200).length === 2, "both deliveries answered 200");
    const postings = await db().ledgerPosting.count({ where: { transactionId: tx, kind: "payment_completed" } });
    assert.equal(postings, 1);
    const events = await db().event.count({ where: { merchantId, type: "payment.completed", payload: { path: ["data", "object", "id"], equals: tx } } });
    assert.equal(events, 1);
  });

  test("a bad or missing signature: 401 invalid_signature, nothing applied", async () => {
    const r = await api("/payments", { key, body: spei(email()) });
    const tx = r.body.transactionId;
    const body = JSON.stringify({ noticeId: "ntc_forged", chargeId: await chargeOf(tx), status: "paid" });
    const forged = createHmac("sha256", "not-the-secret").update(body).digest("hex");
    assertEnvelope(await api("/providers/pagosur/notifications", { raw: body, headers: { "content-type": "application/json", "x-provider-signature": forged } }), "invalid_signature", 401);
    assertEnvelope(await api("/providers/pagosur/notifications", { raw: body, headers: { "content-type": "application/json" } }), "invalid_signature", 401);
    assertEnvelope(await api("/providers/nobody/notifications", { raw: body, headers: { "content-type": "application/json", "x-provider-signature": forged } }), "invalid_signature", 401);
    assert.equal((await api(`/payments/${tx}`, { key })).body.status, "pending");
  });

  test("a failed notice fails the payment with payment.failed", async () => {
    const r = await api("/payments", { key, body: spei(email()) });
    const tx = r.body.transactionId;
    await control("pagosur", await chargeOf(tx), "failed");
    await waitFor(async () => (await api(`/payments/${tx}`, { key })).body.status === "failed", "failure by notice");
    assert.equal(await db().event.count({ where: { type: "payment.failed", payload: { path: ["data", "object", "id"], equals: tx } } }), 1);
  });

  test("a lost notice is caught by the reconciliation poll", async () => {
    const r = await api("/payments", { key, body: spei(email()) });
    const tx = r.body.transactionId;
    await control("pagosur", await chargeOf(tx), "paid", { notify: false });
    await waitFor(async () => (await api(`/payments/${tx}`, { key })).body.status === "completed", "completion by reconciliation", 15_000);
  });
});

describe("refunds through the provider", () => {
  test("a refund of a production payment is confirmed by its provider", async () => {
    const r = await api("/payments", { key, body: spei(email(), { amount: 40 }) });
    const tx = r.body.transactionId;
    await control("pagosur", await chargeOf(tx), "paid");
    await waitFor(async () => (await api(`/payments/${tx}`, { key })).body.status === "completed", "completion");
    // Let the payment settle so the balance can cover a refund.
    const { settleDueBalances } = await import("@/lib/settlements/settle-balances");
    await settleDueBalances({ now: new Date(Date.now() + 3 * 86_400_000), merchantId: (await db().transaction.findUniqueOrThrow({ where: { id: tx } })).merchantId });
    const refund = await api(`/payments/${tx}/refund`, { key, body: { amount: 100, reason: "requested_by_customer" } });
    assert.equal(refund.status, 200, refund.text);
    const claim = await waitFor(async () => {
      const c = (await api(`/claims/${refund.body.refundId}`, { key })).body.claim;
      return c.status !== "pending" && c;
    }, "the provider's answer", 30_000);
    assert.equal(claim.status, "resolved", JSON.stringify(claim));
  });
});
