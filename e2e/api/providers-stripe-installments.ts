// Mexico's meses sin intereses through Stripe (issue 42 point 5), over HTTP: our server (configured
// for Stripe) asks the Stripe simulator for a card Checkout Session with
// payment_method_options[card][installments][enabled]; the simulated buyer picks a plan on the
// hosted page (the pay control's `installments`), and the payment completes on the plan Stripe
// reports on the charge: its `installments`, its financing fee and the ledger's financing_fees leg
// all follow that count, priced as at creation (the shop's default MX plan: 450, 750, 1050, 1350,
// 1950 basis points for 3, 6, 9, 12, 18 months; computed here by hand in integer cents).
import { test, describe, before } from "node:test";
import assert from "node:assert/strict";
import { api, newMerchant, waitFor } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { verifyLedger } from "@/lib/ledger/verify";
import { halfUp } from "./payments-fixtures.ts";
import { MX_FEE_BP, shopPaid } from "./installments-fixtures.ts";
import { completions, control, deliveriesAnswered, email, row, simGet, startStripeWorld, statusOf, type StripeWorld } from "./providers-stripe-setup.ts";
import type { CreatedMerchant } from "@/lib/merchants/create-merchant";

// The world is stopped by the payins module's `after` (one world per process).
let w: StripeWorld;
before(async () => {
  w = await startStripeWorld();
});

const PRICE = 300_000n; // MX$ 3,000.00: every count up to 18 is above the MX$ 100 minimum installment
const payMx = (m: CreatedMerchant, installments: number) =>
  api("/payments", { key: m.production.secretKey, base: w.server.url, body: { amount: 3000, currency: "MXN", paymentMethodId: "1007", userName: "Ana Souza", userEmail: email(), documentId: "GODE561231GR8", installments } });

async function financingBooked(m: CreatedMerchant): Promise<bigint> {
  const r = await db().ledgerEntry.aggregate({ where: { merchantId: m.merchantId, environment: "production", account: "financing_fees", currency: "USD" }, _sum: { amount: true } });
  return r._sum.amount ?? 0n;
}

/** The USD fee a shop-paid count books: the local fee's share of the USD headline, half-up. */
const feeUsd = (amountUsd: bigint, bp: bigint) => halfUp(amountUsd * halfUp(PRICE * bp, 10_000n), PRICE);

/** A 6-month payment routed to Stripe, its session asking for installments; answers the transaction id and the session. */
async function sixMonths(m: CreatedMerchant) {
  const r = await payMx(m, 6);
  assert.equal(r.status, 200, r.text);
  const tx = r.body.transactionId as string;
  assert.deepEqual(r.body.installments, shopPaid(PRICE, 6, MX_FEE_BP[6]!), "the count asked, until Stripe says");
  const t = await row(tx);
  assert.equal(t.provider, "stripe");
  assert.match(t.providerRef!, /^cs_test_/);
  const cs = (await simGet(w.sim.url, `/charges/${t.providerRef}`)).object;
  assert.deepEqual(cs.payment_method_options, { card: { installments: { enabled: true } } });
  assert.equal(cs.amount_total, Number(PRICE), "meses sin intereses: the buyer pays the price");
  return { tx, cs: t.providerRef!, amountUsd: t.amountUsd };
}

async function assertBooked(m: CreatedMerchant, tx: string, count: number, amountUsd: bigint) {
  const key = m.production.secretKey;
  const got = (await api(`/payments/${tx}`, { key, base: w.server.url })).body;
  const t = await row(tx);
  if (count === 1) {
    assert.equal(got.installments, undefined, "paid at once: no installments");
    assert.equal(t.feeFinancing, 0n);
  } else {
    assert.deepEqual(got.installments, shopPaid(PRICE, count, MX_FEE_BP[count]!));
    assert.equal(t.feeFinancing, feeUsd(amountUsd, MX_FEE_BP[count]!));
  }
  assert.equal(await financingBooked(m), t.feeFinancing, "the ledger's financing_fees leg is the row's fee");
  assert.equal(await completions(tx), 1);
  assert.deepEqual((await verifyLedger(m.merchantId, "production")).warnings, []);
  // The merchant's payment.completed event carries the plan paid on.
  const ev = await db().event.findFirstOrThrow({ where: { type: "payment.completed", payload: { path: ["data", "object", "id"], equals: tx } } });
  assert.equal((ev.payload as any).data.object.installments?.count ?? 1, count);
}

describe("meses sin intereses through Stripe Checkout", () => {
  test("6 months asked, 6 chosen on Stripe's page: completed with installments {count: 6} and its fee on the ledger", async () => {
    const m = await newMerchant();
    const { tx, cs, amountUsd } = await sixMonths(m);
    await control(w.sim.url, `/charges/${cs}/pay`, { installments: 6 });
    await waitFor(async () => (await statusOf(m.production.secretKey, w.server.url, tx)) === "completed", "completed by the session's event");
    await deliveriesAnswered(w.sim.url, cs, 2);
    await assertBooked(m, tx, 6, amountUsd);
  });

  test("6 months asked, 3 chosen on Stripe's page: booked as 3, at the plan's 3-month fee", async () => {
    const m = await newMerchant();
    const { tx, cs, amountUsd } = await sixMonths(m);
    await control(w.sim.url, `/charges/${cs}/pay`, { installments: 3 });
    await waitFor(async () => (await statusOf(m.production.secretKey, w.server.url, tx)) === "completed", "completed by the session's event");
    await deliveriesAnswered(w.sim.url, cs, 2);
    await assertBooked(m, tx, 3, amountUsd);
    assert.ok(feeUsd(amountUsd, MX_FEE_BP[3]!) < feeUsd(amountUsd, MX_FEE_BP[6]!), "less than the 6 months asked would have cost");
  });

  test("18 months chosen, which the shop's plan (3, 6, 9, 12) does not offer: booked as what happened, at the country table's 18-month fee", async () => {
    const m = await newMerchant();
    const { tx, cs, amountUsd } = await sixMonths(m);
    await control(w.sim.url, `/charges/${cs}/pay`, { installments: 18 });
    await waitFor(async () => (await statusOf(m.production.secretKey, w.server.url, tx)) === "completed", "completed by the session's event");
    await assertBooked(m, tx, 18, amountUsd);
  });

  test("paid at once on Stripe's page: no installments and no financing fee; found by the status check (the event lost)", async () => {
    const m = await newMerchant();
    const { tx, cs, amountUsd } = await sixMonths(m);
    await control(w.sim.url, `/charges/${cs}/pay`, { notify: false });
    await db().transaction.update({ where: { id: tx }, data: { nextCheckAt: new Date() } });
    await waitFor(async () => (await row(tx)).status === "completed", "completion by the status check", 30_000);
    await assertBooked(m, tx, 1, amountUsd);
  });
});
