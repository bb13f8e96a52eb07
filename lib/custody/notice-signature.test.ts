import { test } from "node:test";
import assert from "node:assert/strict";
import { checkCustodySignature, signCustodyNotice } from "@/lib/custody/notice-signature";

const secret = "custody-secret";
const path = "/api/v1/custody/notifications";
const body = JSON.stringify({ type: "withdrawal", noticeId: "cn_1", reference: "wdr_1", status: "completed" });
const now = 1_800_000_000_000;
const t = now / 1000;

test("a notice signed now with the secret is accepted", () => {
  assert.equal(checkCustodySignature(secret, path, body, signCustodyNotice(secret, path, body, t), now), "ok");
});

test("another secret, another body, another path or a changed timestamp is a mismatch", () => {
  assert.equal(checkCustodySignature(secret, path, body, signCustodyNotice("other", path, body, t), now), "mismatch");
  assert.equal(checkCustodySignature(secret, path, body + " ", signCustodyNotice(secret, path, body, t), now), "mismatch");
  assert.equal(checkCustodySignature(secret, "/api/v1/other", body, signCustodyNotice(secret, path, body, t), now), "mismatch");
  const forged = signCustodyNotice(secret, path, body, t).replace(`t=${t}`, `t=${t + 1}`);
  assert.equal(checkCustodySignature(secret, path, body, forged, now), "mismatch");
});

test("a genuine notice outside ±5 minutes is stale", () => {
  assert.equal(checkCustodySignature(secret, path, body, signCustodyNotice(secret, path, body, t - 301), now), "stale");
  assert.equal(checkCustodySignature(secret, path, body, signCustodyNotice(secret, path, body, t + 301), now), "stale");
  assert.equal(checkCustodySignature(secret, path, body, signCustodyNotice(secret, path, body, t - 299), now), "ok");
});

test("no header, the old bare hex or garbage is missing", () => {
  assert.equal(checkCustodySignature(secret, path, body, null, now), "missing");
  assert.equal(checkCustodySignature(secret, path, body, "a".repeat(64), now), "missing");
  assert.equal(checkCustodySignature(secret, path, body, "t=abc,v1=zz", now), "missing");
});
