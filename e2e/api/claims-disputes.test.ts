// Claims listing and disputes over real HTTP (decisions.md "Claims listing and disputes"):
// GET /claims with its filters and both pagings; chargebacks carry dueBy; evidence as multipart
// (PDF/PNG/JPEG read from the bytes, at most 5 MiB each), kept and downloadable; after dueBy 409
// evidence_window_closed; accept loses the chargeback once (two at once: one wins the race, the
// fee is taken once); the sandbox `won` needs evidence; environments and scoping.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { api, assertEnvelope, newMerchant, API_URL } from "./helpers.ts";
import { db } from "@/lib/db";
import type { CreatedMerchant } from "@/lib/merchants/create-merchant";

after(() => db().$disconnect());

const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
const PDF = Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]);

type Part = { name: string; file?: { bytes: Uint8Array; filename: string; type?: string }; value?: string };
async function upload(path: string, key: string, parts: Part[], headers: Record<string, string> = {}) {
  const form = new FormData();
  for (const p of parts) {
    if (p.file) form.append(p.name, new Blob([new Uint8Array(p.file.bytes)], { type: p.file.type ?? "application/octet-stream" }), p.file.filename);
    else form.append(p.name, p.value ?? "");
  }
  const res = await fetch(`${API_URL}/api/v1${path}`, { method: "POST", headers: { authorization: `Bearer ${key}`, ...headers }, body: form });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, body, text };
}

/** A completed sandbox payment with a chargeback open on it. */
async function chargeback(m: CreatedMerchant, amount = 40): Promise<{ claimId: string; transactionId: string }> {
  const key = m.sandbox.secretKey;
  const p = await api("/payments", { key, body: { amount, paymentMethodId: "sbx_card" } });
  assert.equal(p.status, 200, p.text);
  const id = p.body.transactionId;
  assert.equal((await api(`/payments/${id}/simulate`, { key, body: { action: "paid" } })).status, 200);
  assert.equal((await api(`/payments/${id}/simulate`, { key, body: { action: "chargeback" } })).status, 200);
  const list = await api(`/claims?transactionId=${id}&kind=chargeback`, { key });
  assert.equal(list.status, 200, list.text);
  assert.equal(list.body.data.length, 1);
  return { claimId: list.body.data[0].id, transactionId: id };
}

const balance = async (key: string) => (await api("/me/balance", { key })).body;

test("GET /claims: newest first, filters, offset and cursor paging, dueBy on chargebacks only", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const a = await chargeback(m);
  const b = await chargeback(m);
  const p = await api("/payments", { key, body: { amount: 25, paymentMethodId: "sbx_card" } });
  await api(`/payments/${p.body.transactionId}/simulate`, { key, body: { action: "paid" } });
  const refund = await api(`/payments/${p.body.transactionId}/refund`, { key, body: { amount: 5 } });
  assert.equal(refund.status, 200, refund.text);

  const all = await api("/claims", { key });
  assert.equal(all.status, 200, all.text);
  assert.deepEqual(all.body.data.map((c: any) => c.id), [refund.body.refundId, b.claimId, a.claimId]);
  assert.equal(all.body.pagination.total, 3);
  const cb = all.body.data[1];
  assert.equal(cb.kind, "chargeback");
  assert.equal(cb.status, "open");
  assert.equal(Date.parse(cb.dueBy) - Date.parse(cb.createdAt), 7 * 86_400_000);
  assert.deepEqual(cb.evidence, []);
  assert.equal(all.body.data[0].dueBy, null);

  assert.deepEqual((await api("/claims?kind=user_dispute", { key })).body.data.map((c: any) => c.id), [refund.body.refundId]);
  assert.deepEqual((await api("/claims?status=open", { key })).body.data.map((c: any) => c.id), [b.claimId, a.claimId]);
  assert.deepEqual((await api(`/claims?transactionId=${a.transactionId}`, { key })).body.data.map((c: any) => c.id), [a.claimId]);
  assert.deepEqual((await api(`/claims?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`, { key })).body.data, []);
  const first = await api("/claims?limit=2&startingAfter=" + refund.body.refundId, { key });
  assert.deepEqual(first.body.data.map((c: any) => c.id), [b.claimId, a.claimId]);
  assert.equal(first.body.hasMore, false);
  assertEnvelope(await api("/claims?status=maybe", { key }), "invalid_request", 400);
  assertEnvelope(await api("/claims?from=yesterday", { key }), "invalid_request", 400);
  // Another merchant sees none of them; production keys see the production list (empty).
  const other = await newMerchant();
  assert.deepEqual((await api("/claims", { key: other.sandbox.secretKey })).body.data, []);
  assertEnvelope(await api(`/claims/${a.claimId}`, { key: other.sandbox.secretKey }), "claim_not_found", 404);
  assert.deepEqual((await api("/claims", { key: m.production.secretKey })).body.data, []);
});

test("evidence: files checked by their bytes and size, kept with the claim, downloadable; idempotent; closed after dueBy", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const { claimId } = await chargeback(m);

  const ok = await upload(`/claims/${claimId}/evidence`, key, [
    { name: "files", file: { bytes: PDF, filename: "invoice.pdf", type: "application/pdf" } },
    { name: "files", file: { bytes: PNG, filename: "delivery.png", type: "image/png" } },
    // The declared type is wrong; the bytes are a JPEG, and that is what is kept.
    { name: "files", file: { bytes: JPEG, filename: "signature.jpg", type: "application/octet-stream" } },
    { name: "text", value: "Delivered on 3 May; signed by the buyer." },
  ], { "idempotency-key": `ev-${claimId}` });
  assert.equal(ok.status, 201, ok.text);
  const ev = ok.body.claim.evidence;
  assert.deepEqual(ev.map((e: any) => [e.kind, e.fileName, e.contentType, e.size]), [
    ["file", "invoice.pdf", "application/pdf", PDF.length],
    ["file", "delivery.png", "image/png", PNG.length],
    ["file", "signature.jpg", "image/jpeg", JPEG.length],
    ["text", null, null, 40],
  ]);
  assert.equal(ev[3].text, "Delivered on 3 May; signed by the buyer.");
  // The same request again with its key: the same answer, nothing added.
  const again = await upload(`/claims/${claimId}/evidence`, key, [
    { name: "files", file: { bytes: PDF, filename: "invoice.pdf", type: "application/pdf" } },
    { name: "files", file: { bytes: PNG, filename: "delivery.png", type: "image/png" } },
    { name: "files", file: { bytes: JPEG, filename: "signature.jpg", type: "application/octet-stream" } },
    { name: "text", value: "Delivered on 3 May; signed by the buyer." },
  ], { "idempotency-key": `ev-${claimId}` });
  assert.equal(again.status, 201);
  assert.equal(again.headers.get("idempotent-replayed"), "true");
  assert.equal(await db().claimEvidence.count({ where: { claimId } }), 4);

  const file = await fetch(`${API_URL}/api/v1/claims/${claimId}/evidence/${ev[0].id}`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(file.status, 200);
  assert.equal(file.headers.get("content-type"), "application/pdf");
  assert.match(file.headers.get("content-disposition") ?? "", /attachment; filename="invoice.pdf"/);
  assert.deepEqual(Buffer.from(await file.arrayBuffer()), PDF);
  assertEnvelope(await api(`/claims/${claimId}/evidence/evd_nope`, { key }), "claim_not_found", 404);
  assertEnvelope(await api(`/claims/${claimId}/evidence/${ev[0].id}`, { key: (await newMerchant()).sandbox.secretKey }), "claim_not_found", 404);
  assert.deepEqual((await api(`/claims/${claimId}`, { key })).body.claim.evidence.map((e: any) => e.id), ev.map((e: any) => e.id));

  // A "PDF" that is not one; a file over 5 MiB; nothing at all; an unknown field; JSON.
  const fake = await upload(`/claims/${claimId}/evidence`, key, [{ name: "files", file: { bytes: Buffer.from("MZ\x90\x00 not a pdf"), filename: "invoice.pdf", type: "application/pdf" } }]);
  assertEnvelope(fake, "invalid_request", 400);
  assert.equal(fake.body.error.param, "files");
  const big = Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024)]);
  const tooBig = await upload(`/claims/${claimId}/evidence`, key, [{ name: "files", file: { bytes: big, filename: "big.pdf", type: "application/pdf" } }]);
  assertEnvelope(tooBig, "payload_too_large", 413);
  assertEnvelope(await upload(`/claims/${claimId}/evidence`, key, [{ name: "text", value: "  " }]), "missing_required_fields", 422);
  assertEnvelope(await upload(`/claims/${claimId}/evidence`, key, [{ name: "note", value: "x" }]), "invalid_request", 400);
  assertEnvelope(await api(`/claims/${claimId}/evidence`, { key, body: { text: "json" } }), "content_type_required", 415);
  assert.equal(await db().claimEvidence.count({ where: { claimId } }), 4);

  // After dueBy the window is closed.
  await db().claim.update({ where: { id: claimId }, data: { dueBy: new Date(Date.now() - 1000) } });
  const late = await upload(`/claims/${claimId}/evidence`, key, [{ name: "text", value: "late" }]);
  assertEnvelope(late, "evidence_window_closed", 409);
  assert.ok(late.body.error.details.dueBy);
  // A refund claim takes no evidence; another merchant's claim does not exist for this key.
  const p = await api("/payments", { key, body: { amount: 25, paymentMethodId: "sbx_card" } });
  await api(`/payments/${p.body.transactionId}/simulate`, { key, body: { action: "paid" } });
  const refund = await api(`/payments/${p.body.transactionId}/refund`, { key, body: { amount: 5 } });
  assertEnvelope(await upload(`/claims/${refund.body.refundId}/evidence`, key, [{ name: "text", value: "x" }]), "invalid_request", 400);
  assertEnvelope(await upload(`/claims/${claimId}/evidence`, (await newMerchant()).sandbox.secretKey, [{ name: "text", value: "x" }]), "claim_not_found", 404);
});

test("accept: lost at once, the amount and the fee leave once even when two accepts race; then 409", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const { claimId, transactionId } = await chargeback(m, 40);
  const before = await balance(key);
  assert.ok(before.balance.frozen > 0);
  const [r1, r2] = await Promise.all([api(`/claims/${claimId}/accept`, { key, body: {} }), api(`/claims/${claimId}/accept`, { key, body: {} })]);
  const statuses = [r1.status, r2.status].sort();
  assert.deepEqual(statuses, [200, 409], `${r1.text} ${r2.text}`);
  const won = r1.status === 200 ? r1 : r2;
  assert.equal(won.body.claim.status, "lost");
  assertEnvelope(r1.status === 409 ? r1 : r2, "claim_already_resolved", 409);
  const afterAccept = await balance(key);
  assert.equal(afterAccept.balance.frozen, 0);
  assert.deepEqual(afterAccept.ledgerWarnings, []);
  assert.equal(afterAccept.feeSummary.chargebackFees, before.feeSummary.chargebackFees + 15, JSON.stringify(afterAccept.feeSummary));
  assert.equal((await api(`/payments/${transactionId}`, { key })).body.status, "chargeback");
  assert.equal(await db().event.count({ where: { merchantId: m.merchantId, type: "claim.resolved", objectId: claimId } }), 1);
  assertEnvelope(await upload(`/claims/${claimId}/evidence`, key, [{ name: "text", value: "too late" }]), "claim_already_resolved", 409);
  assertEnvelope(await api(`/claims/${claimId}/simulate`, { key, body: { action: "won" } }), "claim_already_resolved", 409);
  assertEnvelope(await api(`/claims/nope/accept`, { key, body: {} }), "claim_not_found", 404);
  assertEnvelope(await api(`/claims/${claimId}/accept`, { key: (await newMerchant()).sandbox.secretKey, body: {} }), "claim_not_found", 404);
  assertEnvelope(await api(`/claims/${claimId}/accept`, { key: m.production.secretKey, body: {} }), "claim_not_found", 404);
});

test("sandbox decision: won needs evidence from before dueBy and gives the frozen money back; lost takes it and the fee; production refused", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const { claimId, transactionId } = await chargeback(m, 40);
  const before = await balance(key);
  const noEvidence = await api(`/claims/${claimId}/simulate`, { key, body: { action: "won" } });
  assertEnvelope(noEvidence, "missing_required_fields", 422);
  assert.equal(noEvidence.body.error.param, "evidence");
  assert.equal((await upload(`/claims/${claimId}/evidence`, key, [{ name: "files", file: { bytes: PDF, filename: "proof.pdf" } }])).status, 201);
  assertEnvelope(await api(`/claims/${claimId}/simulate`, { key: m.production.secretKey, body: { action: "won" } }), "production_key_refused", 400);
  assertEnvelope(await api(`/claims/${claimId}/simulate`, { key, body: { action: "maybe" } }), "invalid_request", 400);
  const won = await api(`/claims/${claimId}/simulate`, { key, body: { action: "won" } });
  assert.equal(won.status, 200, won.text);
  assert.equal(won.body.claim.status, "won");
  assert.equal(won.body.claim.evidence.length, 1);
  const afterWon = await balance(key);
  assert.equal(afterWon.balance.frozen, 0);
  assert.equal(afterWon.balance.available + afterWon.balance.pending, Math.round((before.balance.available + before.balance.pending + before.balance.frozen) * 100) / 100);
  assert.equal((await api(`/payments/${transactionId}`, { key })).body.status, "completed");
  const event = await db().event.findFirst({ where: { merchantId: m.merchantId, type: "claim.resolved", objectId: claimId } });
  assert.equal((event!.payload as any).data.object.evidence.length, 1);

  // Evidence that arrived only after dueBy does not win.
  const late = await chargeback(m, 30);
  await db().claimEvidence.create({ data: { id: `evd_late${Date.now()}`, claimId: late.claimId, merchantId: m.merchantId, environment: "sandbox", kind: "text", size: 4, text: "late", createdAt: new Date(Date.now() + 8 * 86_400_000) } });
  assertEnvelope(await api(`/claims/${late.claimId}/simulate`, { key, body: { action: "won" } }), "missing_required_fields", 422);
  const lost = await api(`/claims/${late.claimId}/simulate`, { key, body: { action: "lost" } });
  assert.equal(lost.status, 200, lost.text);
  assert.equal(lost.body.claim.status, "lost");
  assert.deepEqual((await balance(key)).ledgerWarnings, []);
});
