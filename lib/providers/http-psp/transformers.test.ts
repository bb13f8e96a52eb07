import { test } from "node:test";
import assert from "node:assert/strict";
import { chargeLookupAnswer, checkNoticeSignature, clabeAnswer, clabeLookupAnswer, payoutAnswer, payoutStatusAnswer, refundAnswer, refundStatusAnswer, signNotice } from "@/lib/providers/http-psp/transformers";

test("notice signatures: timestamp inside the HMAC, ±5 minutes, the notice secret only", () => {
  const now = new Date("2026-11-23T12:00:00Z");
  const t = Math.floor(now.getTime() / 1000);
  const body = '{"noticeId":"n1"}';
  assert.equal(checkNoticeSignature("in", body, signNotice("in", body, t), now), "ok");
  assert.equal(checkNoticeSignature("in", body, signNotice("in", body, t - 299), now), "ok");
  assert.equal(checkNoticeSignature("in", body, signNotice("in", body, t - 301), now), "stale");
  assert.equal(checkNoticeSignature("in", body, signNotice("in", body, t + 301), now), "stale");
  assert.equal(checkNoticeSignature("in", body, signNotice("out", body, t), now), "invalid");
  assert.equal(checkNoticeSignature("in", body + " ", signNotice("in", body, t), now), "invalid");
  // The timestamp cannot be swapped: it is part of what is signed.
  const moved = signNotice("in", body, t - 600).replace(`t=${t - 600}`, `t=${t}`);
  assert.equal(checkNoticeSignature("in", body, moved, now), "invalid");
  assert.equal(checkNoticeSignature("in", body, null, now), "missing");
  assert.equal(checkNoticeSignature(null, body, signNotice("in", body, t), now), "missing");
  assert.equal(checkNoticeSignature("in", body, "garbage", now), "invalid");
});

test("only an explicit refusal is a refusal; 5xx, unreadable and odd answers are unknown", () => {
  assert.deepEqual(payoutAnswer(422, { status: "rejected", reason: "x" }), { kind: "refused", reason: "x" });
  assert.deepEqual(payoutAnswer(201, { id: "p1", status: "processing" }), { kind: "accepted", providerRef: "p1" });
  assert.equal(payoutAnswer(503, { error: "down" }).kind, "unknown");
  assert.equal(payoutAnswer(200, undefined).kind, "unknown");
  assert.equal(payoutAnswer(404, { error: "?" }).kind, "unknown");
  assert.equal(refundAnswer(200, { status: "refunded", id: "r" }).kind, "refunded");
  assert.equal(refundAnswer(422, { status: "rejected" }).kind, "refused");
  assert.equal(refundAnswer(500, undefined).kind, "unknown");
  assert.deepEqual(payoutStatusAnswer(404, { error: "x" }), { kind: "not_found" });
  assert.equal(payoutStatusAnswer(200, { id: "p", status: "PAID" }).kind, "paid");
  assert.equal(payoutStatusAnswer(200, { id: "p", status: "REFUNDED" }).kind, "returned");
  assert.equal(payoutStatusAnswer(502, undefined).kind, "unknown");
});

test("a CLABE answer fails only on an explicit refusal; provider free text never reaches a merchant", () => {
  assert.deepEqual(clabeAnswer(422, { status: "declined", reason: "kyc_rejected" }), { kind: "refused", reason: "kyc_rejected" });
  assert.equal(clabeAnswer(429, { error: "slow down" }).kind, "unknown");
  assert.equal(clabeAnswer(408, undefined).kind, "unknown");
  assert.deepEqual(payoutStatusAnswer(200, { id: "po_1", status: "REJECTED", reason: "Account closed; call 555-0100" }), { kind: "rejected", providerRef: "po_1", reason: "declined" });
});

test("a bare 404 on a status lookup (a proxy's page, no JSON) is unknown; the provider's own JSON 404 is never received", () => {
  for (const body of [undefined, null, "Not Found"]) {
    assert.equal(chargeLookupAnswer(404, body).kind, "unknown");
    assert.equal(payoutStatusAnswer(404, body).kind, "unknown");
    assert.equal(refundStatusAnswer(404, body).kind, "unknown");
    assert.equal(clabeLookupAnswer(404, body).kind, "unknown");
  }
  assert.deepEqual(chargeLookupAnswer(404, { error: "unknown reference" }), { kind: "not_found" });
  assert.deepEqual(refundStatusAnswer(404, { error: "unknown reference" }), { kind: "not_found" });
  assert.deepEqual(clabeLookupAnswer(404, { error: "unknown reference" }), { kind: "not_found" });
  assert.deepEqual(clabeLookupAnswer(200, { id: "acct_1", clabe: "646180000000000009", bank: " STP " }), { kind: "found", providerRef: "acct_1", clabe: "646180000000000009", bank: "STP" });
});
