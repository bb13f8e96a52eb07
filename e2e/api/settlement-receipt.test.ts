// A settlement receipt a bookkeeper can reconcile (issue 24, point 4), read back from the PDF:
// a merchant whose available balance moved every way (payments and a deposit settled, a refund,
// a chargeback lost with its fee, the reserve released, a withdrawal with its fee) closes a batch;
// the receipt names the period and the destination, lists the payments per rail (count, gross,
// fees, reserve held, net) and every movement of the available balance with its count, and
// those lines add up to the gross, less the batch's fee, = the amount paid.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { extractText, getDocumentProxy } from "unpdf";
import { API_URL, api, newMerchant, waitFor } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { setRate } from "@/lib/money/rates";
import { releaseDueReserves } from "@/lib/ledger/release-reserves";

after(() => db().$disconnect());

const TRON = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const CPF = "52998224725";

async function ok(r: Promise<{ status: number; text: string; body?: any }>, what: string) {
  const res = await r;
  assert.ok(res.status >= 200 && res.status < 300, `${what}: ${res.status} ${res.text.slice(0, 300)}`);
  return res.body;
}

const cents = (v: string) => Math.round(Number(v) * 100);

test("the receipt reconciles: every movement of the available balance, with counts, adds up to the amount paid", async () => {
  await setRate("MXN", "18.20", "test");
  const m = await newMerchant({ tier: "standard" });
  const key = m.sandbox.secretKey;
  await ok(api("/me/settlement-destination", { key, method: "PUT", body: { asset: "USDT", network: "TRON", address: TRON } }), "destination");
  const pay = async (body: Record<string, unknown>) => {
    const id = (await ok(api("/payments", { key, body }), "payment")).transactionId as string;
    await ok(api(`/payments/${id}/simulate`, { key, body: { action: "paid" } }), "paid");
    return id;
  };
  const big = await pay({ amount: 100, paymentMethodId: "sbx_card" });
  await pay({ amount: 80, paymentMethodId: "sbx_card" });
  const disputed = await pay({ amount: 60, paymentMethodId: "sbx_card" });
  await pay({ amount: 50, paymentMethodId: "sbx_pix", documentId: CPF, userName: "Ana Souza", userEmail: "ana@example.com" });
  assert.equal((await ok(api("/me/balance/settle-now", { key, body: {} }), "settle now")).settled, 4);

  await ok(api(`/payments/${big}/refund`, { key, body: { amount: 10 } }), "refund");
  await ok(api(`/payments/${disputed}/simulate`, { key, body: { action: "chargeback" } }), "chargeback");
  const claim = (await ok(api(`/claims?transactionId=${disputed}`, { key }), "claims")).data.find((c: { kind: string }) => c.kind === "chargeback");
  await ok(api(`/claims/${claim.id}/accept`, { key, body: {} }), "accept the chargeback");

  const account = (await ok(api("/me/deposit-accounts", { key, body: { endUserRef: `u-${Date.now()}`, name: "Pay In", email: "payer@example.com" } }), "deposit account")).account.id;
  await ok(api(`/me/deposit-accounts/${account}/simulate-deposit`, { key, body: { amount: 1820, payerName: "P", payerBank: "B" } }), "deposit");
  await waitFor(async () => (await db().transaction.count({ where: { merchantId: m.merchantId, completedAt: { not: null }, settlementStatus: "pending" } })) > 0 || null, "the deposit completed");
  assert.equal((await ok(api("/me/balance/settle-now", { key, body: {} }), "settle the deposit")).settled, 1);

  // The reserve's 90 days pass for this merchant's payments only.
  await db().transaction.updateMany({ where: { merchantId: m.merchantId, reserveAmount: { gt: 0 } }, data: { reserveReleaseAt: new Date(Date.now() - 1000) } });
  await releaseDueReserves({ now: new Date() });
  const w = (await ok(api("/me/withdrawals", { key, body: { amountUsd: 20 } }), "withdrawal")).withdrawal;

  const before = (await api("/me/balance", { key })).body;
  const s = (await ok(api("/settlements/run", { key, body: {} }), "run")).settlement;
  assert.equal(s.grossUsd, before.balance.available);

  await waitFor(async () => (await api(`/settlements/${s.id}`, { key })).body.settlement.receiptReady, "the receipt");
  const res = await fetch(`${API_URL}/api/v1/settlements/${s.id}/receipt`, { headers: { authorization: `Bearer ${key}` } });
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(await res.arrayBuffer())), { mergePages: true });

  // The period and the destination.
  assert.ok(text.includes(`Period: ${s.periodFrom.slice(0, 10)}`) && text.includes(s.periodTo.slice(0, 10)), text);
  assert.ok(text.includes(`Destination: USDT on TRON: ${TRON}`), text);

  // Payments per rail: the totals row counts the four payments.
  assert.match(text, /Card \(test\) \(sbx_card\)\s+3\s/);
  assert.match(text, /PIX \(test\) \(sbx_pix\)\s+1\s/);

  // The reconciliation: each movement with its count and USD, from the ledger.
  const recon = text.slice(text.indexOf("Reconciliation"));
  const line = (label: string) => {
    const m = recon.match(new RegExp(`${label.replace(/[()+]/g, "\\$&")}\\s+(\\d+)\\s+(-?[\\d.]+)`));
    assert.ok(m, `${label} in: ${recon}`);
    return { count: Number(m[1]), cents: cents(m[2]!) };
  };
  const expected: Array<[string, number]> = [
    ["Payments settled (net of fees and reserve)", 4],
    ["Deposits settled (net of fees)", 1],
    ["Refunds", 1],
    ["Chargebacks", 1],
    ["Chargeback fees", 1],
    ["Withdrawals (amount + fee)", 1],
  ];
  // The reserve (where the tier holds one) released for the five payments.
  if ((await db().transaction.count({ where: { merchantId: m.merchantId, reserveAmount: { gt: 0 } } })) > 0) expected.push(["Reserve released", 5]);
  else assert.doesNotMatch(recon, /Reserve released/);
  let sum = 0;
  for (const [label, count] of expected) {
    const l = line(label);
    assert.equal(l.count, count, label);
    sum += l.cents;
  }
  assert.ok(line("Payments settled (net of fees and reserve)").cents > 0 && line("Refunds").cents < 0 && line("Withdrawals (amount + fee)").cents < 0);
  // Each figure is the ledger's: the entries of `available` of that kind.
  const refunds = await db().$queryRaw<Array<{ s: string }>>`SELECT sum(e.amount)::text AS s FROM ledger_entries e JOIN ledger_postings p ON p.id = e.posting_id WHERE e.merchant_id = ${m.merchantId} AND e.account = 'available' AND p.kind IN ('refund_freeze', 'refund_immediate')`;
  assert.equal(line("Refunds").cents, Number(refunds[0]!.s));
  const fee = recon.match(/of which withdrawal fees \(1 withdrawals of 20\.00 USD\)\s+(-?[\d.]+)/);
  assert.ok(fee, recon);
  assert.equal(Math.abs(cents(fee[1]!)), Math.round(w.feeUsd * 100));
  assert.equal(line("Withdrawals (amount + fee)").cents, -Math.round((w.amountUsd + w.feeUsd) * 100));

  // They add up: to the gross, and less the batch's fee to what the destination is paid.
  assert.equal(sum, Math.round(s.grossUsd * 100), recon);
  assert.match(recon, new RegExp(`Available balance at close \\(gross\\)\\s+${s.grossUsd.toFixed(2)}`));
  assert.match(recon, new RegExp(`Withdrawal fee of this batch\\s+-?${s.feeUsd.toFixed(2)}`));
  assert.match(recon, new RegExp(`Paid to the destination \\(net\\)\\s+${s.netUsd.toFixed(2)}`));
  assert.equal(Math.round(s.grossUsd * 100) - Math.round(s.feeUsd * 100), Math.round(s.netUsd * 100));
});
