// PIX MED claims over real HTTP (decisions.md "PIX disputes (MED)"): the claimed amount blocked at
// once; a defence given in time and accepted releases it; a lost case, or no defence by dueBy,
// returns it to the payer; a claim more than 80 days after the payment is refused; a provider's
// MED notice opens a partial claim in production; the ledger balanced after each step.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { api, assertEnvelope, newMerchant, waitFor } from "./helpers.ts";
import { upload, cents, held, balance } from "./claims-disputes-fixtures.ts";
import { setRate } from "@/lib/money/rates";
import { db } from "@/lib/platform/db";
import { closeUnansweredMeds } from "@/lib/claims/pix-med";

after(() => db().$disconnect());
before(() => setRate("BRL", "5.00", "test"));

const PIX = { paymentMethodId: "sbx_pix", documentId: "529.982.247-25", userName: "Ana Souza", userEmail: "ana@example.com" };

/** A paid sandbox PIX payment of `amount` BRL and its MED claim, opened by the sandbox action. */
async function medOn(key: string, amount = 100): Promise<{ transactionId: string; claim: any; paid: any }> {
  const p = await api("/payments", { key, body: { amount, ...PIX } });
  assert.equal(p.status, 200, p.text);
  const id = p.body.transactionId;
  assert.equal((await api(`/payments/${id}/simulate`, { key, body: { action: "paid" } })).status, 200);
  const paid = await balance(key);
  const opened = await api(`/payments/${id}/simulate`, { key, body: { action: "open_med" } });
  assert.equal(opened.status, 200, opened.text);
  assert.deepEqual(opened.body.eventsFired, ["claim.opened"]);
  const list = await api(`/claims?transactionId=${id}&kind=pix_med`, { key });
  assert.equal(list.body.data.length, 1, list.text);
  return { transactionId: id, claim: list.body.data[0], paid };
}

test("funds blocked at once; a defence in time, accepted, releases them; the ledger balanced", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const { transactionId, claim, paid } = await medOn(key, 100);
  assert.equal(claim.kind, "pix_med");
  assert.equal(claim.status, "open");
  assert.equal(claim.amount, (await api(`/payments/${transactionId}`, { key })).body.amountLocal, "all of the payment's local amount");
  assert.equal(claim.currency, "BRL");
  assert.equal(Date.parse(claim.respondBy) - Date.parse(claim.createdAt), 7 * 86_400_000);
  assert.equal(claim.respondBy, claim.dueBy);
  const blocked = await balance(key);
  assert.equal(cents(blocked.balance.frozen), cents(claim.amountUsd));
  assert.equal(held(blocked), held(paid), "blocked, not gone: the gross moved to frozen");
  assert.equal(cents(blocked.balance.frozen), cents(paid.balance.frozen) + cents(claim.amountUsd));
  // A second MED on the same payment changes nothing; a refund cannot take what is blocked.
  assertEnvelope(await api(`/payments/${transactionId}/simulate`, { key, body: { action: "open_med" } }), "invalid_request", 400);
  assert.equal((await api(`/payments/${transactionId}/refund`, { key, body: { amount: 10 } })).status >= 400, true);
  // Won needs a defence first.
  assertEnvelope(await api(`/claims/${claim.id}/simulate`, { key, body: { action: "won" } }), "missing_required_fields", 422);
  const defence = await upload(`/claims/${claim.id}/evidence`, key, [{ name: "text", value: "Delivered: order 4471, signed receipt." }]);
  assert.equal(defence.status, 201, defence.text);
  // A defence in time waits for the decision: the deadline job leaves it open.
  assert.equal(await closeUnansweredMeds(new Date(Date.now() + 8 * 86_400_000), { merchantId: m.merchantId }), 0);
  const won = await api(`/claims/${claim.id}/simulate`, { key, body: { action: "won" } });
  assert.equal(won.status, 200, won.text);
  assert.equal(won.body.claim.status, "won");
  const released = await balance(key);
  assert.equal(released.balance.frozen, 0);
  assert.equal(held(released), held(blocked));
  assert.deepEqual(released.ledgerWarnings, []);
  assert.equal((await api(`/payments/${transactionId}`, { key })).body.status, "completed");
  assert.equal(await db().ledgerPosting.count({ where: { claimId: claim.id, kind: { in: ["med_freeze", "med_released"] } } }), 2);
  const events = await db().event.findMany({ where: { merchantId: m.merchantId, objectId: claim.id }, orderBy: { sequence: "asc" } });
  assert.deepEqual(events.map((e) => e.type), ["claim.opened", "claim.resolved"]);
});

test("a lost case returns the blocked amount to the payer: the payment reads refunded, no fee", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const { transactionId, claim } = await medOn(key, 80);
  const blocked = await balance(key);
  const lost = await api(`/claims/${claim.id}/accept`, { key, body: {} });
  assert.equal(lost.status, 200, lost.text);
  assert.equal(lost.body.claim.status, "lost");
  const after = await balance(key);
  assert.equal(after.balance.frozen, 0);
  assert.equal(held(after), held(blocked) - cents(claim.amountUsd), "only the blocked amount left");
  assert.equal(cents(after.feeSummary.chargebackFees), cents(blocked.feeSummary.chargebackFees));
  assert.deepEqual(after.ledgerWarnings, []);
  assert.equal((await api(`/payments/${transactionId}`, { key })).body.status, "refunded");
  assert.equal(await db().ledgerPosting.count({ where: { claimId: claim.id, kind: "med_returned" } }), 1);
  assertEnvelope(await api(`/claims/${claim.id}/simulate`, { key, body: { action: "won" } }), "claim_already_resolved", 409);
});

test("no defence by dueBy: a late defence is refused and the deadline job returns the money, once", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const { transactionId, claim } = await medOn(key, 60);
  const blocked = await balance(key);
  // The window passed (the claim's deadline moved into the past, as seven days would).
  await db().claim.update({ where: { id: claim.id }, data: { dueBy: new Date(Date.now() - 60_000) } });
  assertEnvelope(await upload(`/claims/${claim.id}/evidence`, key, [{ name: "text", value: "too late" }]), "evidence_window_closed", 409);
  assert.equal(await closeUnansweredMeds(new Date(), { merchantId: m.merchantId }), 1);
  assert.equal(await closeUnansweredMeds(new Date(), { merchantId: m.merchantId }), 0, "decided once");
  const decided = (await api(`/claims/${claim.id}`, { key })).body.claim;
  assert.equal(decided.status, "lost");
  const after = await balance(key);
  assert.equal(held(after), held(blocked) - cents(claim.amountUsd));
  assert.deepEqual(after.ledgerWarnings, []);
  assert.equal((await api(`/payments/${transactionId}`, { key })).body.status, "refunded");
});

test("a MED more than 80 days after the payment is refused, and not on a card payment", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const p = await api("/payments", { key, body: { amount: 50, ...PIX } });
  const id = p.body.transactionId;
  assert.equal((await api(`/payments/${id}/simulate`, { key, body: { action: "paid" } })).status, 200);
  await db().transaction.update({ where: { id }, data: { completedAt: new Date(Date.now() - 81 * 86_400_000) } });
  const late = await api(`/payments/${id}/simulate`, { key, body: { action: "open_med" } });
  assertEnvelope(late, "invalid_request", 400);
  assert.equal(late.body.error.details.reason, "too_late");
  assert.equal((await api(`/claims?transactionId=${id}`, { key })).body.data.length, 0);
  const card = await api("/payments", { key, body: { amount: 50, paymentMethodId: "sbx_card" } });
  assert.equal((await api(`/payments/${card.body.transactionId}/simulate`, { key, body: { action: "paid" } })).status, 200);
  const notPix = await api(`/payments/${card.body.transactionId}/simulate`, { key, body: { action: "open_med" } });
  assertEnvelope(notPix, "invalid_request", 400);
  assert.equal(notPix.body.error.details.reason, "not_pix");
  assert.deepEqual((await balance(key)).ledgerWarnings, []);
});

test("production: the PIX provider's MED notice opens a partial claim, blocked at once; a repeat changes nothing", async () => {
  const m = await newMerchant({ tier: "premium" });
  const key = m.production.secretKey;
  const r = await api("/payments", { key, body: { amount: 200, paymentMethodId: "1001", userName: "Ana Souza", userEmail: `med-${randomUUID().slice(0, 8)}@example.com`, documentId: "52998224725" } });
  assert.equal(r.status, 200, r.text);
  const tx = r.body.transactionId as string;
  const row = await db().transaction.findUniqueOrThrow({ where: { id: tx } });
  const control = `${process.env[`PROVIDER_${row.provider!.toUpperCase()}_URL`]}/_control/charges/${row.providerRef}`;
  assert.equal((await fetch(`${control}/paid`, { method: "POST", body: "{}" })).status, 200);
  await waitFor(async () => (await api(`/payments/${tx}`, { key })).body.status === "completed", "the production payment completed");
  const before = await balance(key);
  // The payer's bank claims 75.50 of the 200.00 (minor units on the wire).
  const med = await (await fetch(`${control}/med`, { method: "POST", body: JSON.stringify({ amount: "7550", duplicate: true }) })).json();
  assert.deepEqual(med.statuses, [200, 200]);
  const list = await api("/claims?kind=pix_med", { key });
  assert.equal(list.body.data.length, 1, list.text);
  const claim = list.body.data[0];
  assert.equal(claim.amount, 75.5);
  assert.equal(claim.reason, "provider_med");
  const after = await balance(key);
  assert.equal(cents(after.balance.frozen), cents(before.balance.frozen) + cents(claim.amountUsd));
  assert.equal(held(after), held(before));
  assert.deepEqual(after.ledgerWarnings, []);
  // The sandbox decision does not exist in production; the shop answers with its defence.
  assertEnvelope(await api(`/claims/${claim.id}/simulate`, { key, body: { action: "won" } }), "production_key_refused", 400);
  assert.equal((await upload(`/claims/${claim.id}/evidence`, key, [{ name: "text", value: "Goods delivered." }])).status, 201);
  // What is blocked cannot be refunded too: the refundable amount is the local amount less the 75.50.
  const local = (await api(`/payments/${tx}`, { key })).body.amountLocal as number;
  const over = await api(`/payments/${tx}/refund`, { key, body: { amount: (cents(local) - 7550 + 1) / 100 } });
  assertEnvelope(over, "amount_out_of_limits", 422);
  assert.equal(cents(over.body.error.details.limit.max), cents(local) - 7550);
});
