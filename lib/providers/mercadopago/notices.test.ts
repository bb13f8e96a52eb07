// Mercado Pago's webhook verification (./notices.ts) against the rules of
// https://www.mercadopago.com.br/developers/en/docs/your-integrations/notifications/webhooks.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { manifest, readMercadoPagoNotice, signatureHeader } from "@/lib/providers/mercadopago/notices";
import { fixture } from "@/lib/providers/mercadopago/fixtures";

const SECRET = "webhook-secret-signature-0123456789";
const now = new Date("2026-12-02T12:00:00Z");
const ts = String(Math.floor(now.getTime() / 1000));
const documented = fixture("webhook-payment.notification");
const rawBody = JSON.stringify({ ...documented, _source: undefined, _headers: undefined });

function inbound(opts: { signature?: string | null; requestId?: string | null; query?: string; body?: string; at?: Date } = {}) {
  const headers = new Headers({ "content-type": "application/json" });
  if (opts.requestId !== null) headers.set("x-request-id", opts.requestId ?? "bb56a2f1-6aae-46ac-982e-9dcd3581d08e");
  if (opts.signature !== null) headers.set("x-signature", opts.signature ?? signatureHeader(SECRET, "999999999", opts.requestId ?? "bb56a2f1-6aae-46ac-982e-9dcd3581d08e", ts));
  return { rawBody: opts.body ?? rawBody, headers, url: new URL(`https://pay.example.com/api/v1/providers/mercadopago/notifications${opts.query ?? "?data.id=999999999&type=payment"}`), now: opts.at ?? now };
}

test("the manifest is the page's template, parts the notification lacks left out, alphanumeric ids lowercased", () => {
  assert.equal(manifest("999999999", "req-1", "1704908010"), "id:999999999;request-id:req-1;ts:1704908010;");
  assert.equal(manifest(null, "req-1", "1704908010"), "request-id:req-1;ts:1704908010;");
  assert.equal(manifest("999", null, "1704908010"), "id:999;ts:1704908010;");
  assert.equal(manifest("ORD01ABC", "r", "1"), "id:ord01abc;request-id:r;ts:1;");
  // The header is HMAC-SHA256, hex, keyed with the secret signature over that manifest.
  assert.equal(signatureHeader(SECRET, "999", "r", "1"), `ts=1,v1=${createHmac("sha256", SECRET).update("id:999;request-id:r;ts:1;").digest("hex")}`);
});

const SIGNED_ID = `mp_999999999_${ts}_bb56a2f1-6aae-46ac-982e-9dcd3581d08e`;

test("the documented notification, signed: verified, its id made of the signed parts, pointing at the payment", () => {
  assert.deepEqual(readMercadoPagoNotice(SECRET, inbound()), { kind: "verified", noticeId: SIGNED_ID, subjects: [{ kind: "charge", providerRef: "999999999" }] });
  assert.deepEqual(readMercadoPagoNotice(SECRET, inbound({ body: "not json" })), { kind: "verified", noticeId: SIGNED_ID, subjects: [{ kind: "charge", providerRef: "999999999" }] });
});

test("the noticeId comes only from signed parts: a replay with another (unsigned) body id is the same notice", () => {
  const replay = JSON.stringify({ ...JSON.parse(rawBody), id: 987654321 });
  assert.equal((readMercadoPagoNotice(SECRET, inbound({ body: replay })) as any).noticeId, SIGNED_ID);
  // Without x-request-id (signed without it), the id is data.id and ts.
  const bare = readMercadoPagoNotice(SECRET, inbound({ requestId: null, signature: signatureHeader(SECRET, "999999999", null, ts) }));
  assert.equal((bare as any).noticeId, `mp_999999999_${ts}`);
});

test("refused before anything is read: missing, invalid, then stale", () => {
  assert.deepEqual(readMercadoPagoNotice(null, inbound()), { kind: "refused", check: "missing" }, "no secret configured");
  assert.deepEqual(readMercadoPagoNotice(SECRET, inbound({ signature: null })), { kind: "refused", check: "missing" });
  assert.deepEqual(readMercadoPagoNotice("another-secret-0123456789", inbound()), { kind: "refused", check: "invalid" });
  assert.deepEqual(readMercadoPagoNotice(SECRET, inbound({ signature: "garbage" })), { kind: "refused", check: "invalid" });
  // The signature covers the query's data.id and the x-request-id: moving either breaks it.
  assert.deepEqual(readMercadoPagoNotice(SECRET, inbound({ query: "?data.id=111&type=payment" })), { kind: "refused", check: "invalid" });
  const sig = signatureHeader(SECRET, "999999999", "bb56a2f1-6aae-46ac-982e-9dcd3581d08e", ts);
  assert.deepEqual(readMercadoPagoNotice(SECRET, inbound({ signature: sig, requestId: "another-request" })), { kind: "refused", check: "invalid" });
  // The timestamp is signed too: a fresh ts on an old signature does not verify.
  const old = String(Number(ts) - 3600);
  const moved = signatureHeader(SECRET, "999999999", "bb56a2f1-6aae-46ac-982e-9dcd3581d08e", old).replace(`ts=${old}`, `ts=${ts}`);
  assert.deepEqual(readMercadoPagoNotice(SECRET, inbound({ signature: moved })), { kind: "refused", check: "invalid" });
  assert.deepEqual(readMercadoPagoNotice(SECRET, inbound({ signature: signatureHeader(SECRET, "999999999", "bb56a2f1-6aae-46ac-982e-9dcd3581d08e", old) })), { kind: "refused", check: "stale" });
});

test("ts in seconds (the page's example) or milliseconds (the page's words), ten minutes either way", () => {
  const rid = "bb56a2f1-6aae-46ac-982e-9dcd3581d08e";
  const at = (t: string) => readMercadoPagoNotice(SECRET, inbound({ signature: signatureHeader(SECRET, "999999999", rid, t) })).kind;
  assert.equal(at(String(now.getTime())), "verified");
  assert.equal(at(String(Number(ts) - 9 * 60)), "verified");
  assert.equal(at(String(Number(ts) + 9 * 60)), "verified");
  assert.equal(at(String(now.getTime() - 11 * 60_000)), "refused");
  assert.equal(at(String(Number(ts) + 11 * 60)), "refused");
});

test("a verified notice of another topic, or whose body names another payment than the signed query, points at nothing", () => {
  const other = readMercadoPagoNotice(SECRET, inbound({ query: "?data.id=999999999&type=topic_claims_integration_wh" }));
  assert.deepEqual(other, { kind: "verified", noticeId: SIGNED_ID, subjects: [] });
  const body = JSON.stringify({ ...JSON.parse(rawBody), data: { id: "1" } });
  assert.deepEqual(readMercadoPagoNotice(SECRET, inbound({ body })), { kind: "verified", noticeId: SIGNED_ID, subjects: [] });
});
