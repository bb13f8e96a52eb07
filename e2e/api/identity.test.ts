// GET /ping and GET /me exactly as in 4.2 / 2.3, checked against the schemas the OpenAPI
// document publishes.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { api, newMerchant } from "./helpers.ts";
import { merchantIdentity, pingResponse } from "@/lib/merchants/schema";
import { db } from "@/lib/platform/db";

after(() => db().$disconnect());

test("GET /ping answers who the credential is, with no side effects", async () => {
  const m = await newMerchant({ name: "Ping Shop" });
  const r = await api("/ping", { key: m.production.secretKey });
  assert.equal(r.status, 200);
  const body = pingResponse.parse(r.body);
  assert.deepEqual(body.merchant, { id: m.merchantId, name: "Ping Shop" });
  assert.equal(body.environment, "production");
  assert.equal(body.keyKind, "secret");
  assert.equal(body.apiVersion, "2026-05-01");
  assert.match(body.keyId, /^sk_live_…\w{4}$/);
  assert.ok(!body.keyId.includes(m.production.secretKey.slice(8, 28)), "the key is masked");
  assert.ok(Math.abs(Date.parse(body.timestamp) - Date.now()) < 60_000);
});

test("GET /me returns the merchant identity of section 2.3", async () => {
  const m = await newMerchant({ name: "Identity Co", email: "ops@identity.test", industry: "travel", tier: "standard", trustScore: 730 });
  const r = await api("/me", { key: m.sandbox.secretKey });
  assert.equal(r.status, 200);
  const me = merchantIdentity.parse(r.body);
  assert.equal(me.id, m.merchantId);
  assert.equal(me.email, "ops@identity.test");
  assert.equal(me.industry, "travel");
  assert.equal(me.tier, "standard");
  assert.equal(me.trustScore, 730);
  assert.equal(me.environment, "sandbox");
  assert.ok(me.capabilities.methods.includes("pix"));
});
