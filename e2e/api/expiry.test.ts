// Per-rail expiry over real HTTP (decisions.md, Pay-ins): each rail's default deadline on create,
// `expiresInMinutes` within the rail's maximum (payments, one-shot and selector sessions), the
// catalog's `expiry`, the sandbox expiry job, and the due date on the instruction page.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { api, assertEnvelope, newMerchant, API_URL } from "./helpers.ts";
import { db, sql } from "@/lib/platform/db";
import { expirePayments } from "@/lib/payments/expire-payments";

after(() => db().$disconnect());

const MIN = 60_000;
const BUYER = {
  sbx_card: {},
  sbx_pix: { documentId: "529.982.247-25", userName: "Ana Souza", userEmail: "ana@example.com" },
  sbx_spei: { documentId: "GODE561231GR8", userName: "Diego Gomez" },
  sbx_cash: { userPhone: "+525512345678", userName: "Luis Perez", userEmail: "luis@example.com", documentId: "PEGL800101" },
  sbx_pse: { documentId: "1020304050", userName: "Camila Rojas", userEmail: "camila@example.com" },
} as const;
const pay = (key: string, rail: keyof typeof BUYER, extra: Record<string, unknown> = {}) => api("/payments", { key, body: { amount: 20, paymentMethodId: rail, ...BUYER[rail], ...extra } });
const minutesUntil = (iso: string) => Math.round((Date.parse(iso) - Date.now()) / MIN);

test("each rail's default deadline: card and PIX 30 min, SPEI 24 h, OXXO 3 days, PSE 30 min", async () => {
  const m = await newMerchant();
  const expected = { sbx_card: 30, sbx_pix: 30, sbx_spei: 1440, sbx_cash: 4320, sbx_pse: 30 } as const;
  for (const [rail, minutes] of Object.entries(expected) as [keyof typeof BUYER, number][]) {
    const r = await pay(m.sandbox.secretKey, rail);
    assert.equal(r.status, 200, r.text);
    assert.equal(minutesUntil(r.body.expiresAt), minutes, rail);
  }
});

test("expiresInMinutes overrides within the rail's maximum; beyond it, or outside 5-4320, is 400 invalid_request", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const spei = await pay(key, "sbx_spei", { expiresInMinutes: 120 });
  assert.equal(minutesUntil(spei.body.expiresAt), 120);
  const card = await pay(key, "sbx_card", { expiresInMinutes: 120 });
  assertEnvelope(card, "invalid_request", 400);
  assert.equal(card.body.error.param, "expiresInMinutes");
  assert.equal(card.body.error.details.max, 60);
  for (const v of [4, 4321, 10.5, "30"]) {
    const r = await pay(key, "sbx_spei", { expiresInMinutes: v });
    assertEnvelope(r, "invalid_request", 400);
    assert.equal(r.body.error.param, "expiresInMinutes", String(v));
  }
});

test("the catalog shows each rail's default and maximum", async () => {
  const m = await newMerchant();
  const r = await api("/payment-methods", { key: m.sandbox.secretKey });
  assert.equal(r.status, 200, r.text);
  const cash = r.body.methods.find((x: { paymentMethodId: string }) => x.paymentMethodId === "sbx_cash");
  assert.deepEqual(cash.expiry, { defaultMinutes: 4320, maxMinutes: 4320 });
});

test("checkout sessions carry expiresInMinutes to the payment (one-shot and selector)", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const customer = { firstName: "Diego", lastName: "Gomez", email: "diego@example.com", phone: "+525512345678", documentId: "GODE561231GR8" };
  const oneShot = await api("/checkout/sessions", { key, body: { amount: 20, paymentMethodId: "sbx_spei", customer, expiresInMinutes: 90 } });
  assert.equal(oneShot.status, 200, oneShot.text);
  const p1 = await api(`/payments/${oneShot.body.transactionId}`, { key });
  assert.equal(minutesUntil(p1.body.expiresAt), 90);
  const selector = await api("/checkout/sessions", { key, body: { amount: 20, country: "MX", customer, expiresInMinutes: 200 } });
  assert.ok(selector.status === 200 || selector.status === 201, selector.text);
  const picked = await api(`/checkout/sessions/${selector.body.sessionId}/select`, { body: { paymentMethodId: "sbx_spei" } });
  assert.equal(picked.status, 200, picked.text);
  assert.equal(minutesUntil((await api(`/payments/${picked.body.transactionId}`, { key })).body.expiresAt), 200);
});

test("the expiry job expires sandbox payments past their deadline (payment.failed), once", async () => {
  const m = await newMerchant();
  const r = await pay(m.sandbox.secretKey, "sbx_cash");
  const fresh = await pay(m.sandbox.secretKey, "sbx_cash");
  await sql(`UPDATE transactions SET expires_at = now() - interval '1 minute' WHERE id = $1`, [r.body.transactionId]);
  await expirePayments();
  assert.equal((await api(`/payments/${r.body.transactionId}`, { key: m.sandbox.secretKey })).body.status, "expired");
  assert.equal((await api(`/payments/${fresh.body.transactionId}`, { key: m.sandbox.secretKey })).body.status, "pending");
  assert.equal(await db().event.count({ where: { type: "payment.failed", payload: { path: ["data", "object", "id"], equals: r.body.transactionId } } }), 1);
  await expirePayments();
  assert.equal(await db().event.count({ where: { type: "payment.failed", payload: { path: ["data", "object", "id"], equals: r.body.transactionId } } }), 1, "once");
});

test("the voucher page shows the due date in the buyer's language", async () => {
  const m = await newMerchant();
  const r = await pay(m.sandbox.secretKey, "sbx_cash");
  const html = await (await fetch(`${API_URL}/pay/sandbox/${r.body.transactionId}?locale=es-MX`)).text();
  const due = html.match(/data-testid="pay-before"[^>]*>([^<]+)</)?.[1] ?? "";
  assert.match(due, /Paga antes del/);
  assert.match(due, new RegExp(String(new Date(r.body.expiresAt).getUTCFullYear())));
});
