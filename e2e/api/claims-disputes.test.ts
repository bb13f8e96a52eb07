// Claims listing and disputes over real HTTP (decisions.md "Claims listing and disputes"):
// GET /claims with its filters and both pagings; chargebacks carry dueBy; evidence as multipart
// (PDF/PNG/JPEG read from the bytes, at most 5 MiB each; a real PDF and PNG go in and come back
// byte for byte), kept and downloadable; after dueBy 409 evidence_window_closed; accept loses the
// chargeback once (two at once: one wins the race, the amount and the fee leave once); the
// sandbox `won` needs evidence; production chargebacks (a provider's notice) answered the same
// way; keys, environments, shops and the claims CSV scoped.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { crc32, deflateSync } from "node:zlib";
import PDFDocument from "pdfkit";
import { parse } from "csv-parse/sync";
import { extractText, getDocumentProxy } from "unpdf";
import { api, assertEnvelope, newMerchant, waitFor, API_URL } from "./helpers.ts";
import { signedNotice } from "./provider-notices.ts";
import { db } from "@/lib/platform/db";
import { newId } from "@/lib/platform/ids";
import { generateKeyPair } from "@/lib/platform/auth/keys";
import { setRate } from "@/lib/money/rates";
import type { CreatedMerchant } from "@/lib/merchants/create-merchant";

after(() => db().$disconnect());
before(async () => {
  await setRate("MXN", "18.20", "test");
});

/** A real PDF (pdfkit), with a line of text the test reads back after the download. */
function realPdf(line: string): Promise<Buffer> {
  const doc = new PDFDocument({ size: "A4", info: { Title: "Proof of delivery" } });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on("end", () => resolve(Buffer.concat(chunks))));
  doc.fontSize(14).text(line);
  doc.end();
  return done;
}

/** A real 8x8 RGB PNG: signature, IHDR, one deflated IDAT, IEND, each chunk with its CRC. */
function realPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body) >>> 0, 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(8, 0);
  ihdr.writeUInt32BE(8, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  // Eight rows, each a filter byte (0: none) and eight RGB pixels of a gradient.
  const raw = Buffer.alloc(8 * 25);
  for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) raw.set([x * 32, y * 32, 128], y * 25 + 1 + x * 3);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9]);

type Part = { name: string; file?: { bytes: Uint8Array; filename: string; type?: string }; value?: string };
async function upload(path: string, key: string | null, parts: Part[], headers: Record<string, string> = {}) {
  const form = new FormData();
  for (const p of parts) {
    if (p.file) form.append(p.name, new Blob([new Uint8Array(p.file.bytes)], { type: p.file.type ?? "application/octet-stream" }), p.file.filename);
    else form.append(p.name, p.value ?? "");
  }
  const res = await fetch(`${API_URL}/api/v1${path}`, { method: "POST", headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers }, body: form });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, body, text };
}

async function download(key: string, claimId: string, evidenceId: string) {
  const res = await fetch(`${API_URL}/api/v1/claims/${claimId}/evidence/${evidenceId}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** A completed sandbox payment with a chargeback open on it. */
async function chargeback(m: CreatedMerchant | { sandbox: { secretKey: string } }, amount = 40): Promise<{ claimId: string; transactionId: string }> {
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

/** Balance figures in cents, so sums are exact. */
/** Balance figures in cents, so sums are exact. */
const cents = (n: number) => Math.round(n * 100);
const held = (b: any) => cents(b.balance.available) + cents(b.balance.pending) + cents(b.balance.frozen);
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
  assert.deepEqual(all.body.pagination, { total: 3, limit: 50, offset: 0, pages: 1 });
  const cb = all.body.data[1];
  assert.equal(cb.kind, "chargeback");
  assert.equal(cb.status, "open");
  assert.equal(cb.transactionId, b.transactionId);
  assert.equal(Date.parse(cb.dueBy) - Date.parse(cb.createdAt), 7 * 86_400_000);
  assert.deepEqual(cb.evidence, []);
  assert.deepEqual(cb.history.map((h: any) => h.status), ["open"]);
  assert.equal(all.body.data[0].dueBy, null);
  assert.equal(all.body.data[0].kind, "user_dispute");
  // The list shows each claim as GET /claims/{id} does.
  assert.deepEqual((await api(`/claims/${b.claimId}`, { key })).body.claim, cb);

  assert.deepEqual((await api("/claims?kind=user_dispute", { key })).body.data.map((c: any) => c.id), [refund.body.refundId]);
  assert.deepEqual((await api("/claims?kind=chargeback&status=open", { key })).body.data.map((c: any) => c.id), [b.claimId, a.claimId]);
  assert.deepEqual((await api("/claims?status=lost", { key })).body.data, []);
  assert.deepEqual((await api(`/claims?transactionId=${a.transactionId}`, { key })).body.data.map((c: any) => c.id), [a.claimId]);
  const bOpened = encodeURIComponent(cb.createdAt);
  assert.deepEqual((await api(`/claims?from=${bOpened}`, { key })).body.data.map((c: any) => c.id), [refund.body.refundId, b.claimId]);
  assert.deepEqual((await api(`/claims?to=${bOpened}`, { key })).body.data.map((c: any) => c.id), [a.claimId]);
  assert.deepEqual((await api(`/claims?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`, { key })).body.data, []);
  // Offset paging and cursor paging over the same list.
  const page2 = await api("/claims?limit=1&offset=1", { key });
  assert.deepEqual(page2.body.data.map((c: any) => c.id), [b.claimId]);
  assert.deepEqual(page2.body.pagination, { total: 3, limit: 1, offset: 1, pages: 3 });
  const first = await api("/claims?limit=2&startingAfter=" + refund.body.refundId, { key });
  assert.deepEqual(first.body.data.map((c: any) => c.id), [b.claimId, a.claimId]);
  assert.equal(first.body.hasMore, false);
  const cursorPage = await api("/claims?limit=1", { key });
  assert.equal(cursorPage.body.hasMore, true);
  assert.deepEqual((await api(`/claims?limit=1&startingAfter=${cursorPage.body.nextCursor}`, { key })).body.data.map((c: any) => c.id), [b.claimId]);
  assert.deepEqual((await api(`/claims?endingBefore=${a.claimId}`, { key })).body.data.map((c: any) => c.id), [refund.body.refundId, b.claimId]);

  assertEnvelope(await api("/claims?status=maybe", { key }), "invalid_request", 400);
  assertEnvelope(await api("/claims?kind=refund", { key }), "invalid_request", 400);
  assertEnvelope(await api("/claims?from=yesterday", { key }), "invalid_request", 400);
  assertEnvelope(await api("/claims"), "missing_credentials", 401);
  assertEnvelope(await api("/claims", { key: "sk_test_" + "x".repeat(32) }), "invalid_api_key", 401);
  assertEnvelope(await api("/claims", { key: m.sandbox.publishableKey }), "key_kind_not_allowed", 403);
  assertEnvelope(await api("/claims", { key, body: {} }), "method_not_allowed", 405);
  assertEnvelope(await api(`/claims/${a.claimId}x`, { key }), "claim_not_found", 404);
  // Another merchant sees none of them; production keys see the production list (empty).
  const other = await newMerchant();
  assert.deepEqual((await api("/claims", { key: other.sandbox.secretKey })).body.data, []);
  assertEnvelope(await api(`/claims/${a.claimId}`, { key: other.sandbox.secretKey }), "claim_not_found", 404);
  assert.deepEqual((await api("/claims", { key: m.production.secretKey })).body.data, []);
  assertEnvelope(await api(`/claims/${a.claimId}`, { key: m.production.secretKey }), "claim_not_found", 404);
});

test("evidence: a real PDF and PNG (and a JPEG) checked by their bytes, kept with the claim, downloadable; idempotent", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const { claimId } = await chargeback(m);
  const pdf = await realPdf(`Delivery note for ${claimId}`);
  const png = realPng();

  const parts: Part[] = [
    { name: "files", file: { bytes: pdf, filename: "invoice.pdf", type: "application/pdf" } },
    { name: "files", file: { bytes: png, filename: "delivery.png", type: "image/png" } },
    // The declared type is wrong; the bytes are a JPEG, and that is what is kept.
    { name: "files", file: { bytes: JPEG, filename: "signature.jpg", type: "application/octet-stream" } },
    // No extension: it gets the one of its bytes.
    { name: "files", file: { bytes: png, filename: "tracking", type: "image/png" } },
    { name: "text", value: "Delivered on 3 May; signed by the buyer." },
  ];
  const ok = await upload(`/claims/${claimId}/evidence`, key, parts, { "idempotency-key": `ev-${claimId}` });
  assert.equal(ok.status, 201, ok.text);
  assert.equal(ok.body.claim.id, claimId);
  assert.equal(ok.body.claim.status, "open");
  const ev = ok.body.claim.evidence;
  assert.deepEqual(ev.map((e: any) => [e.kind, e.fileName, e.contentType, e.size, e.text]), [
    ["file", "invoice.pdf", "application/pdf", pdf.length, null],
    ["file", "delivery.png", "image/png", png.length, null],
    ["file", "signature.jpg", "image/jpeg", JPEG.length, null],
    ["file", "tracking.png", "image/png", png.length, null],
    ["text", null, null, 40, "Delivered on 3 May; signed by the buyer."],
  ]);
  for (const e of ev) assert.match(e.id, /^evd_/);
  // The same request again with its key (a new multipart boundary): the same answer, nothing added.
  const again = await upload(`/claims/${claimId}/evidence`, key, parts, { "idempotency-key": `ev-${claimId}` });
  assert.equal(again.status, 201);
  assert.equal(again.headers.get("idempotent-replayed"), "true");
  assert.deepEqual(again.body, ok.body);
  assert.equal(await db().claimEvidence.count({ where: { claimId } }), 5);
  // The same key with other content is a conflict.
  assertEnvelope(await upload(`/claims/${claimId}/evidence`, key, [{ name: "text", value: "other" }], { "idempotency-key": `ev-${claimId}` }), "idempotency_conflict", 409);

  // Downloads: byte for byte, with the type read from the bytes; the PDF opens and reads back.
  const file = await download(key, claimId, ev[0].id);
  assert.equal(file.status, 200);
  assert.equal(file.headers.get("content-type"), "application/pdf");
  assert.match(file.headers.get("content-disposition") ?? "", /attachment; filename="invoice.pdf"/);
  assert.equal(file.headers.get("x-content-type-options"), "nosniff");
  assert.deepEqual(file.bytes, pdf);
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(file.bytes)), { mergePages: true });
  assert.match(text, new RegExp(`Delivery note for ${claimId}`));
  const image = await download(key, claimId, ev[1].id);
  assert.equal(image.headers.get("content-type"), "image/png");
  assert.deepEqual(image.bytes, png);
  assert.equal((await download(key, claimId, ev[2].id)).headers.get("content-type"), "image/jpeg");
  assertEnvelope(await api(`/claims/${claimId}/evidence/${ev[4].id}`, { key }), "claim_not_found", 404); // a text has no file
  assertEnvelope(await api(`/claims/${claimId}/evidence/evd_nope`, { key }), "claim_not_found", 404);
  assertEnvelope(await api(`/claims/${claimId}/evidence/${ev[0].id}`, { key: (await newMerchant()).sandbox.secretKey }), "claim_not_found", 404);
  assertEnvelope(await api(`/claims/${claimId}/evidence/${ev[0].id}`, { key: m.production.secretKey }), "claim_not_found", 404);
  assert.deepEqual((await api(`/claims/${claimId}`, { key })).body.claim.evidence.map((e: any) => e.id), ev.map((e: any) => e.id));
  // A later upload adds to what is there, oldest first.
  const more = await upload(`/claims/${claimId}/evidence`, key, [{ name: "file", file: { bytes: pdf, filename: "second.PDF" } }]);
  assert.equal(more.status, 201, more.text);
  assert.deepEqual(more.body.claim.evidence.map((e: any) => e.fileName ?? e.kind), ["invoice.pdf", "delivery.png", "signature.jpg", "tracking.png", "text", "second.PDF"]);
});

test("evidence refused: bytes that are not what the name says, over 5 MiB, too many, empty, unknown fields, JSON, keys, after dueBy", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const { claimId } = await chargeback(m);
  const pdf = await realPdf("x");
  const refused = async (parts: Part[], code: string, status: number, param?: string, k: string | null = key) => {
    const r = await upload(`/claims/${claimId}/evidence`, k, parts);
    assertEnvelope(r, code, status);
    if (param) assert.equal(r.body.error.param, param, r.text);
    return r;
  };
  // A "PDF" whose bytes are not one (an executable), declared application/pdf.
  const fake = await refused([{ name: "files", file: { bytes: Buffer.from("MZ\x90\x00 this program cannot be run"), filename: "invoice.pdf", type: "application/pdf" } }], "invalid_request", 400, "files");
  assert.match(fake.body.error.message, /not a PDF, PNG or JPEG/);
  // A real PNG named .pdf: the name says PDF, the bytes say PNG.
  const png = await refused([{ name: "files", file: { bytes: realPng(), filename: "invoice.pdf", type: "application/pdf" } }], "invalid_request", 400, "files");
  assert.equal(png.body.error.details.detected, "image/png");
  // One bad file refuses the whole request, the good one beside it included.
  await refused([{ name: "files", file: { bytes: pdf, filename: "ok.pdf" } }, { name: "files", file: { bytes: Buffer.from("GIF89a"), filename: "x.gif" } }], "invalid_request", 400, "files");
  // Exactly 5 MiB is taken; one byte more is 413.
  const limit = 5 * 1024 * 1024;
  const atLimit = Buffer.concat([pdf, Buffer.alloc(limit - pdf.length, 0x20)]);
  const over = Buffer.concat([atLimit, Buffer.from(" ")]);
  const tooBig = await refused([{ name: "files", file: { bytes: over, filename: "big.pdf", type: "application/pdf" } }], "payload_too_large", 413, "files");
  assert.equal(tooBig.body.error.details.limitBytes, limit);
  // A body over the request's own limit is cut while it is read.
  await refused(Array.from({ length: 6 }, (_, i) => ({ name: "files", file: { bytes: over, filename: `big${i}.pdf` } })), "payload_too_large", 413);
  await refused(Array.from({ length: 6 }, (_, i) => ({ name: "files", file: { bytes: pdf, filename: `p${i}.pdf` } })), "invalid_request", 400, "files");
  await refused([{ name: "text", value: "  " }], "missing_required_fields", 422, "files");
  await refused([{ name: "text", value: "one" }, { name: "text", value: "two" }], "invalid_request", 400, "text");
  await refused([{ name: "text", value: "x".repeat(20_001) }], "invalid_request", 400, "text");
  await refused([{ name: "note", value: "x" }], "invalid_request", 400, "note");
  assertEnvelope(await api(`/claims/${claimId}/evidence`, { key, body: { text: "json" } }), "content_type_required", 415);
  await refused([{ name: "text", value: "x" }], "missing_credentials", 401, undefined, null);
  await refused([{ name: "text", value: "x" }], "key_kind_not_allowed", 403, undefined, m.sandbox.publishableKey);
  await refused([{ name: "text", value: "x" }], "claim_not_found", 404, undefined, m.production.secretKey);
  await refused([{ name: "text", value: "x" }], "claim_not_found", 404, undefined, (await newMerchant()).sandbox.secretKey);
  // Another merchant's claim is a 404 even when the file itself is bad.
  await refused([{ name: "files", file: { bytes: Buffer.from("nope"), filename: "a.pdf" } }], "claim_not_found", 404, undefined, (await newMerchant()).sandbox.secretKey);
  assert.equal(await db().claimEvidence.count({ where: { claimId } }), 0);

  const taken = await upload(`/claims/${claimId}/evidence`, key, [{ name: "files", file: { bytes: atLimit, filename: "five-mib.pdf" } }]);
  assert.equal(taken.status, 201, taken.text);
  assert.equal(taken.body.claim.evidence[0].size, limit);

  // A refund claim takes no evidence.
  const p = await api("/payments", { key, body: { amount: 25, paymentMethodId: "sbx_card" } });
  await api(`/payments/${p.body.transactionId}/simulate`, { key, body: { action: "paid" } });
  const refund = await api(`/payments/${p.body.transactionId}/refund`, { key, body: { amount: 5 } });
  assertEnvelope(await upload(`/claims/${refund.body.refundId}/evidence`, key, [{ name: "text", value: "x" }]), "invalid_request", 400);
  assertEnvelope(await upload(`/claims/CLM-NOPE/evidence`, key, [{ name: "text", value: "x" }]), "claim_not_found", 404);

  // After dueBy the window is closed, and the claim says when it closed.
  await db().claim.update({ where: { id: claimId }, data: { dueBy: new Date(Date.now() - 1000) } });
  const late = await upload(`/claims/${claimId}/evidence`, key, [{ name: "text", value: "late" }]);
  assertEnvelope(late, "evidence_window_closed", 409);
  assert.ok(late.body.error.details.dueBy);
  assert.equal(await db().claimEvidence.count({ where: { claimId } }), 1);
});

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

test("a shop's key sees only the claims of its shop's payments (list, get, evidence, accept, CSV); a merchant-wide key sees all", async () => {
  const m = await newMerchant();
  const shopB = newId("shop");
  await db().shop.create({ data: { id: shopB, merchantId: m.merchantId, name: "Second shop" } });
  const pair = generateKeyPair("sandbox");
  await db().apiKeyPair.create({ data: { id: newId("keyPair"), merchantId: m.merchantId, shopId: shopB, environment: "sandbox", publishableKey: pair.publishableKey, secretHash: pair.secretHash, secretPreview: pair.secretPreview } });
  const keyA = m.sandbox.secretKey;
  const keyB = pair.secretKey;
  const a = await chargeback(m);
  const b = await chargeback({ sandbox: { secretKey: keyB } });
  assert.equal((await db().transaction.findUniqueOrThrow({ where: { id: b.transactionId } })).shopId, shopB);

  assert.deepEqual((await api("/claims", { key: keyA })).body.data.map((c: any) => c.id), [a.claimId]);
  assert.deepEqual((await api("/claims", { key: keyB })).body.data.map((c: any) => c.id), [b.claimId]);
  assert.equal((await api("/claims", { key: keyB })).body.pagination.total, 1);
  assertEnvelope(await api(`/claims/${a.claimId}`, { key: keyB }), "claim_not_found", 404);
  assertEnvelope(await upload(`/claims/${a.claimId}/evidence`, keyB, [{ name: "text", value: "x" }]), "claim_not_found", 404);
  assertEnvelope(await api(`/claims/${a.claimId}/accept`, { key: keyB, body: {} }), "claim_not_found", 404);
  assertEnvelope(await api(`/claims/${a.claimId}/simulate`, { key: keyB, body: { action: "lost" } }), "claim_not_found", 404);
  assert.equal((await api(`/claims/${a.claimId}`, { key: keyA })).body.claim.status, "open");
  assert.equal(await db().claimEvidence.count({ where: { claimId: a.claimId } }), 0);

  // The claims CSV, per key: the shop's claims, with dueBy and the evidence count.
  assert.equal((await upload(`/claims/${b.claimId}/evidence`, keyB, [{ name: "text", value: "ours" }])).status, 201);
  const csv = async (key: string) => {
    const res = await fetch(`${API_URL}/api/v1/exports/claims.csv`, { headers: { authorization: `Bearer ${key}` } });
    const text = await res.text();
    assert.equal(res.status, 200, text.slice(0, 300));
    return parse(text, { columns: true }) as Record<string, string>[];
  };
  const rowsB = await csv(keyB);
  assert.deepEqual(rowsB.map((r) => r.id), [b.claimId]);
  assert.equal(rowsB[0]!.kind, "chargeback");
  assert.equal(rowsB[0]!.evidence_count, "1");
  assert.match(rowsB[0]!.due_by!, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  assert.deepEqual((await csv(keyA)).map((r) => r.id), [a.claimId]);

  const { createMerchantWideKeys } = await import("@/lib/merchants/manage-keys");
  const wide = await createMerchantWideKeys({ merchantId: m.merchantId, environment: "sandbox" });
  assert.deepEqual((await api("/claims", { key: wide.secretKey })).body.data.map((c: any) => c.id), [b.claimId, a.claimId]);
  assert.deepEqual((await csv(wide.secretKey)).map((r) => r.id).sort(), [a.claimId, b.claimId].sort());
});
