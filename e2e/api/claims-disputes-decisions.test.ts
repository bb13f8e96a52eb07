// Answering a chargeback over real HTTP (decisions.md "Claims listing and disputes"): accept loses
// it once (two at once: one wins the race, the amount and the fee leave once), replayed by its
// Idempotency-Key; the sandbox `won` needs evidence; production chargebacks (a provider's notice)
// answered the same way, invisible to the sandbox key.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { api, assertEnvelope, newMerchant, waitFor } from "./helpers.ts";
import { signedNotice } from "./provider-notices.ts";
import { db } from "@/lib/platform/db";
import { seedRates, realPdf, realPng, upload, download, chargeback, cents, held, balance } from "./claims-disputes-fixtures.ts";

after(() => db().$disconnect());
before(seedRates);

test("accept: lost at once, the amount and the fee leave once even when two accepts race; then 409", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const { claimId, transactionId } = await chargeback(m, 40);
  const claim = (await api(`/claims/${claimId}`, { key })).body.claim;
  const before = await balance(key);
  assert.equal(cents(before.balance.frozen), cents(claim.amountUsd));
  const [r1, r2] = await Promise.all([api(`/claims/${claimId}/accept`, { key, body: {} }), api(`/claims/${claimId}/accept`, { key, body: {} })]);
  const statuses = [r1.status, r2.status].sort();
  assert.deepEqual(statuses, [200, 409], `${r1.text} ${r2.text}`);
  const won = r1.status === 200 ? r1 : r2;
  assert.equal(won.body.claim.status, "lost");
  assert.ok(won.body.claim.resolvedAt);
  assert.deepEqual(won.body.claim.history.map((h: any) => h.status), ["open", "lost"]);
  assertEnvelope(r1.status === 409 ? r1 : r2, "claim_already_resolved", 409);
  // The ledger: the frozen amount and the 15.00 USD fee left once, nothing else moved.
  const afterAccept = await balance(key);
  assert.equal(afterAccept.balance.frozen, 0);
  assert.equal(held(afterAccept), held(before) - cents(claim.amountUsd) - 1500);
  assert.equal(cents(afterAccept.balance.reserve), cents(before.balance.reserve));
  assert.deepEqual(afterAccept.ledgerWarnings, []);
  assert.equal(cents(afterAccept.feeSummary.chargebackFees), cents(before.feeSummary.chargebackFees) + 1500, JSON.stringify(afterAccept.feeSummary));
  assert.equal(await db().ledgerPosting.count({ where: { claimId, kind: "chargeback_lost" } }), 1);
  assert.equal((await api(`/payments/${transactionId}`, { key })).body.status, "chargeback");
  // One claim.resolved, after claim.opened, with the status it left.
  const events = await db().event.findMany({ where: { merchantId: m.merchantId, objectId: claimId }, orderBy: { sequence: "asc" } });
  assert.deepEqual(events.map((e) => e.type).sort(), ["chargeback.created", "claim.opened", "claim.resolved"]);
  const resolved = events.find((e) => e.type === "claim.resolved")!.payload as any;
  assert.equal(resolved.data.object.status, "lost");
  assert.equal(resolved.data.previousStatus, "open");
  assert.ok(resolved.data.sequence > (events.find((e) => e.type === "claim.opened")!.payload as any).data.sequence);
  assert.ok((events.find((e) => e.type === "chargeback.created")!.payload as any).data.object.dueBy);
  // Nothing more takes it.
  assertEnvelope(await api(`/claims/${claimId}/accept`, { key, body: {} }), "claim_already_resolved", 409);
  assertEnvelope(await upload(`/claims/${claimId}/evidence`, key, [{ name: "text", value: "too late" }]), "claim_already_resolved", 409);
  assertEnvelope(await api(`/claims/${claimId}/simulate`, { key, body: { action: "won" } }), "claim_already_resolved", 409);
  assert.equal(held(await balance(key)), held(afterAccept));
  assertEnvelope(await api(`/claims/nope/accept`, { key, body: {} }), "claim_not_found", 404);
  assertEnvelope(await api(`/claims/${claimId}/accept`, { key: (await newMerchant()).sandbox.secretKey, body: {} }), "claim_not_found", 404);
  assertEnvelope(await api(`/claims/${claimId}/accept`, { key: m.production.secretKey, body: {} }), "claim_not_found", 404);
  assertEnvelope(await api(`/claims/${claimId}/accept`, { key: m.sandbox.publishableKey, body: {} }), "key_kind_not_allowed", 403);
  assertEnvelope(await api(`/claims/${claimId}/accept`, { method: "POST" }), "missing_credentials", 401);
  assertEnvelope(await api(`/claims/${claimId}/accept`, { key }), "method_not_allowed", 405);
});

test("accept with an Idempotency-Key: a retry replays the answer and moves nothing; a refund claim cannot be accepted", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const { claimId } = await chargeback(m, 30);
  const before = await balance(key);
  const idem = { "idempotency-key": `accept-${randomUUID()}` };
  const [a, b] = await Promise.all([api(`/claims/${claimId}/accept`, { key, body: {}, headers: idem }), api(`/claims/${claimId}/accept`, { key, body: {}, headers: idem })]);
  assert.deepEqual([a.status, b.status], [200, 200], `${a.text} ${b.text}`);
  assert.deepEqual(a.body, b.body);
  const c = await api(`/claims/${claimId}/accept`, { key, body: {}, headers: idem });
  assert.equal(c.status, 200);
  assert.equal(c.headers.get("idempotent-replayed"), "true");
  assert.equal(c.body.claim.status, "lost");
  assert.equal(await db().ledgerPosting.count({ where: { claimId, kind: "chargeback_lost" } }), 1);
  assert.equal(held(await balance(key)), held(before) - cents(c.body.claim.amountUsd) - 1500);

  const p = await api("/payments", { key, body: { amount: 25, paymentMethodId: "sbx_card" } });
  await api(`/payments/${p.body.transactionId}/simulate`, { key, body: { action: "paid" } });
  const refund = await api(`/payments/${p.body.transactionId}/refund`, { key, body: { amount: 5 } });
  const r = await api(`/claims/${refund.body.refundId}/accept`, { key, body: {} });
  assertEnvelope(r, "invalid_request", 400);
  assert.equal(r.body.error.param, "id");
});

test("sandbox decision: won needs evidence from before dueBy and gives the frozen money back; lost takes it and the fee; production refused", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const { claimId, transactionId } = await chargeback(m, 40);
  const before = await balance(key);
  const noEvidence = await api(`/claims/${claimId}/simulate`, { key, body: { action: "won" } });
  assertEnvelope(noEvidence, "missing_required_fields", 422);
  assert.equal(noEvidence.body.error.param, "evidence");
  assert.equal((await upload(`/claims/${claimId}/evidence`, key, [{ name: "files", file: { bytes: await realPdf("proof"), filename: "proof.pdf" } }])).status, 201);
  assertEnvelope(await api(`/claims/${claimId}/simulate`, { key: m.production.secretKey, body: { action: "won" } }), "production_key_refused", 400);
  assertEnvelope(await api(`/claims/${claimId}/simulate`, { key, body: { action: "maybe" } }), "invalid_request", 400);
  assertEnvelope(await api(`/claims/${claimId}/simulate`, { key, body: {} }), "missing_field", 400);
  assertEnvelope(await api(`/claims/CLM-NOPE/simulate`, { key, body: { action: "lost" } }), "claim_not_found", 404);
  assertEnvelope(await api(`/claims/${claimId}/simulate`, { key: (await newMerchant()).sandbox.secretKey, body: { action: "lost" } }), "claim_not_found", 404);
  const won = await api(`/claims/${claimId}/simulate`, { key, body: { action: "won" } });
  assert.equal(won.status, 200, won.text);
  assert.equal(won.body.claim.status, "won");
  assert.equal(won.body.claim.evidence.length, 1);
  const afterWon = await balance(key);
  assert.equal(afterWon.balance.frozen, 0);
  assert.equal(held(afterWon), held(before));
  assert.equal(cents(afterWon.feeSummary.chargebackFees), cents(before.feeSummary.chargebackFees));
  assert.equal((await api(`/payments/${transactionId}`, { key })).body.status, "completed");
  const event = await db().event.findFirst({ where: { merchantId: m.merchantId, type: "claim.resolved", objectId: claimId } });
  assert.equal((event!.payload as any).data.object.evidence.length, 1);
  assert.equal((event!.payload as any).data.object.status, "won");
  assertEnvelope(await api(`/claims/${claimId}/simulate`, { key, body: { action: "lost" } }), "claim_already_resolved", 409);

  // Evidence that arrived only after dueBy does not win.
  const late = await chargeback(m, 30);
  await db().claimEvidence.create({ data: { id: `evd_late${Date.now()}`, claimId: late.claimId, merchantId: m.merchantId, environment: "sandbox", kind: "text", size: 4, text: "late", createdAt: new Date(Date.now() + 8 * 86_400_000) } });
  assertEnvelope(await api(`/claims/${late.claimId}/simulate`, { key, body: { action: "won" } }), "missing_required_fields", 422);
  const beforeLost = await balance(key);
  const lost = await api(`/claims/${late.claimId}/simulate`, { key, body: { action: "lost" } });
  assert.equal(lost.status, 200, lost.text);
  assert.equal(lost.body.claim.status, "lost");
  const afterLost = await balance(key);
  assert.equal(held(afterLost), held(beforeLost) - cents(lost.body.claim.amountUsd) - 1500);
  assert.deepEqual(afterLost.ledgerWarnings, []);
  assert.equal((await api(`/payments/${late.transactionId}`, { key })).body.status, "chargeback");
});

test("production: a provider's chargeback notice opens a claim with dueBy; evidence and accept work the same; the sandbox key sees none of it", async () => {
  const m = await newMerchant({ tier: "premium" });
  const key = m.production.secretKey;
  const r = await api("/payments", { key, body: { amount: 300, paymentMethodId: "1003", userName: "Juan Pérez", userEmail: `cb-${randomUUID().slice(0, 8)}@example.com`, documentId: "GODE561231GR8" } });
  assert.equal(r.status, 200, r.text);
  const tx = r.body.transactionId as string;
  // The simulated PSP that took the charge (a separate HTTP service) pays it, then disputes it.
  const row = await db().transaction.findUniqueOrThrow({ where: { id: tx } });
  const provider = row.provider!;
  const paid = await fetch(`${process.env[`PROVIDER_${provider.toUpperCase()}_URL`]}/_control/charges/${row.providerRef}/paid`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  assert.equal(paid.status, 200, await paid.text());
  await waitFor(async () => (await api(`/payments/${tx}`, { key })).body.status === "completed", "the production payment completed");
  const notice = JSON.stringify({ noticeId: `ntc_${randomUUID()}`, chargeId: row.providerRef, status: "chargeback" });
  const applied = await api(`/providers/${provider}/notifications`, { raw: notice, headers: signedNotice(provider, notice) });
  assert.deepEqual(applied.body, { received: true, applied: true }, applied.text);

  const list = await api("/claims?kind=chargeback", { key });
  assert.equal(list.status, 200, list.text);
  assert.equal(list.body.data.length, 1);
  const claim = list.body.data[0];
  assert.equal(claim.transactionId, tx);
  assert.equal(claim.status, "open");
  assert.equal(claim.currency, "MXN");
  assert.equal(Date.parse(claim.dueBy) - Date.parse(claim.createdAt), 7 * 86_400_000);
  assert.deepEqual((await api("/claims", { key: m.sandbox.secretKey })).body.data, []);
  assertEnvelope(await api(`/claims/${claim.id}`, { key: m.sandbox.secretKey }), "claim_not_found", 404);
  assertEnvelope(await upload(`/claims/${claim.id}/evidence`, m.sandbox.secretKey, [{ name: "text", value: "x" }]), "claim_not_found", 404);
  assertEnvelope(await api(`/claims/${claim.id}/accept`, { key: m.sandbox.secretKey, body: {} }), "claim_not_found", 404);
  // The sandbox decision does not exist in production: outcomes come from the provider.
  assertEnvelope(await api(`/claims/${claim.id}/simulate`, { key, body: { action: "won" } }), "production_key_refused", 400);

  const png = realPng();
  const ev = await upload(`/claims/${claim.id}/evidence`, key, [{ name: "files", file: { bytes: png, filename: "receipt.png", type: "image/png" } }, { name: "text", value: "Paid over SPEI; goods collected in store." }]);
  assert.equal(ev.status, 201, ev.text);
  assert.deepEqual(ev.body.claim.evidence.map((e: any) => e.kind), ["file", "text"]);
  assert.deepEqual((await download(key, claim.id, ev.body.claim.evidence[0].id)).bytes, png);
  assert.equal((await db().claimEvidence.findFirstOrThrow({ where: { claimId: claim.id, kind: "file" } })).environment, "production");

  const before = await balance(key);
  const [a1, a2] = await Promise.all([api(`/claims/${claim.id}/accept`, { key, body: {} }), api(`/claims/${claim.id}/accept`, { key, body: {} })]);
  assert.deepEqual([a1.status, a2.status].sort(), [200, 409], `${a1.text} ${a2.text}`);
  const after = await balance(key);
  assert.equal(held(after), held(before) - cents(claim.amountUsd) - 1500);
  assert.equal(after.balance.frozen, 0);
  assert.deepEqual(after.ledgerWarnings, []);
  assert.equal(await db().ledgerPosting.count({ where: { claimId: claim.id, kind: "chargeback_lost", environment: "production" } }), 1);
  assert.equal((await api(`/payments/${tx}`, { key })).body.status, "chargeback");
  assert.equal(await db().event.count({ where: { merchantId: m.merchantId, environment: "production", type: "claim.resolved", objectId: claim.id } }), 1);
});
