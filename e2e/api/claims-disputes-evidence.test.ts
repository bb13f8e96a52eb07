// Chargeback evidence over real HTTP (decisions.md "Claims listing and disputes"): multipart
// uploads (PDF/PNG/JPEG read from the bytes, at most 5 MiB each; a real PDF and PNG go in and come
// back byte for byte), kept and downloadable, idempotent; every refusal, and after dueBy 409
// evidence_window_closed.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { extractText, getDocumentProxy } from "unpdf";
import { api, assertEnvelope, newMerchant } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { seedRates, realPdf, realPng, JPEG, type Part, upload, download, chargeback } from "./claims-disputes-fixtures.ts";

after(() => db().$disconnect());
before(seedRates);

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
