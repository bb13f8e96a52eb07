// The auth matrix: every auth error code of the foundation reached by a real request, plus
// token issue, refresh rotation and reuse detection.
import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { SignJWT } from "jose";
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from "@/lib/platform/auth/jwt";
import { api, assertEnvelope, extraServer, newMerchant, waitFor } from "./helpers.ts";
import { setMerchantStatus, setShopStatus } from "@/lib/merchants/set-status";
import { createMerchantWideKeys, rollSecretKey } from "@/lib/merchants/manage-keys";
import { db } from "@/lib/platform/db";

after(() => db().$disconnect());

const jwtKey = new TextEncoder().encode(process.env.JWT_SECRET!);

describe("credentials", () => {
  test("no Authorization header, an empty one, or a non-Bearer scheme: missing_credentials", async () => {
    assertEnvelope(await api("/me"), "missing_credentials", 401);
    assertEnvelope(await api("/me", { headers: { authorization: "" } }), "missing_credentials", 401);
    assertEnvelope(await api("/me", { headers: { authorization: "Basic dXNlcjpwYXNz" } }), "missing_credentials", 401);
  });

  test("unknown, malformed or rolled keys: invalid_api_key", async () => {
    assertEnvelope(await api("/me", { key: "sk_test_" + "a".repeat(32) }), "invalid_api_key", 401);
    assertEnvelope(await api("/me", { key: "sk_test_short" }), "invalid_api_key", 401);
    const m = await newMerchant();
    assert.equal((await api("/me", { key: m.sandbox.secretKey })).status, 200);
    const rolled = await rollSecretKey({ shopId: m.shopId, environment: "sandbox" });
    assertEnvelope(await waitFor(async () => { const r = await api("/me", { key: m.sandbox.secretKey }); return r.status === 401 && r; }, "rolled key refused"), "invalid_api_key", 401);
    assert.equal((await api("/me", { key: rolled.secretKey })).status, 200);
  });

  test("publishable key where a secret key is needed: key_kind_not_allowed; accepted by /ping", async () => {
    const m = await newMerchant();
    assertEnvelope(await api("/me", { key: m.sandbox.publishableKey }), "key_kind_not_allowed", 403);
    const ping = await api("/ping", { key: m.sandbox.publishableKey });
    assert.equal(ping.status, 200);
    assert.equal(ping.body.keyKind, "publishable");
    assert.match(ping.body.keyId, /^pk_test_…\w{4}$/);
  });

  test("a live key on a sandbox-only endpoint: production_key_refused", async () => {
    const m = await newMerchant();
    assertEnvelope(await api("/test-fixtures/side-effects", { key: m.production.secretKey, body: { label: "x" } }), "production_key_refused", 400);
  });

  test("a merchant-wide credential where a shop is needed: shop_required", async () => {
    const m = await newMerchant();
    const wide = await createMerchantWideKeys({ merchantId: m.merchantId, environment: "sandbox" });
    assertEnvelope(await api("/test-fixtures/side-effects", { key: wide.secretKey, body: { label: "x" } }), "shop_required", 401);
    // Merchant-level operations still work with it.
    assert.equal((await api("/me", { key: wide.secretKey })).status, 200);
  });

  test("suspended merchant and suspended shop", async () => {
    const a = await newMerchant();
    await setMerchantStatus(a.merchantId, "suspended");
    assertEnvelope(await waitFor(async () => { const r = await api("/me", { key: a.sandbox.secretKey }); return r.status === 403 && r; }, "merchant suspension"), "merchant_suspended", 403);
    assertEnvelope(await api("/auth/token", { body: { apiKey: a.sandbox.publishableKey, secretKey: a.sandbox.secretKey } }), "merchant_suspended", 403);
    await setMerchantStatus(a.merchantId, "active");
    await waitFor(async () => (await api("/me", { key: a.sandbox.secretKey })).status === 200, "reactivation");

    const b = await newMerchant();
    await setShopStatus(b.shopId, "suspended");
    assertEnvelope(await waitFor(async () => { const r = await api("/me", { key: b.sandbox.secretKey }); return r.status === 403 && r; }, "shop suspension"), "shop_suspended", 403);
  });

  test("the environment follows the key; a host bound to the sandbox refuses live credentials: environment_mismatch", async () => {
    const m = await newMerchant();
    assert.equal((await api("/ping", { key: m.sandbox.secretKey })).body.environment, "sandbox");
    assert.equal((await api("/ping", { key: m.production.secretKey })).body.environment, "production");

    const server = await extraServer({ ...(process.env as Record<string, string>), SANDBOX_URL: "http://sandbox.localtest:9", APP_URL: "http://api.localtest:9" });
    try {
      const onHost = (host: string, key: string) => api("/ping", { key, base: server.url, headers: { host } });
      assertEnvelope(await onHost("sandbox.localtest:9", m.production.secretKey), "environment_mismatch", 403);
      assertEnvelope(await onHost("api.localtest:9", m.sandbox.secretKey), "environment_mismatch", 403);
      assert.equal((await onHost("sandbox.localtest:9", m.sandbox.secretKey)).status, 200);
      assert.equal((await onHost("api.localtest:9", m.production.secretKey)).status, 200);
    } finally {
      await server.stop();
    }
  });
});

describe("access tokens", () => {
  test("POST /auth/token issues a 15-minute JWT that authenticates like the secret key", async () => {
    const m = await newMerchant();
    const t = await api("/auth/token", { body: { apiKey: m.sandbox.publishableKey, secretKey: m.sandbox.secretKey } });
    assert.equal(t.status, 200);
    assert.equal(t.body.tokenType, "Bearer");
    assert.equal(t.body.expiresIn, 900);
    assert.match(t.body.refreshToken, /^rt_/);
    const me = await api("/me", { key: t.body.accessToken });
    assert.equal(me.status, 200);
    assert.equal(me.body.id, m.merchantId);
    assert.equal((await api("/ping", { key: t.body.accessToken })).body.keyKind, "secret");
  });

  test("bad key pairs at /auth/token: invalid_api_key", async () => {
    const a = await newMerchant();
    const b = await newMerchant();
    assertEnvelope(await api("/auth/token", { body: { apiKey: a.sandbox.publishableKey, secretKey: b.sandbox.secretKey } }), "invalid_api_key", 401);
    assertEnvelope(await api("/auth/token", { body: { apiKey: a.sandbox.publishableKey, secretKey: a.production.secretKey } }), "invalid_api_key", 401);
    assertEnvelope(await api("/auth/token", { body: { apiKey: a.sandbox.secretKey, secretKey: a.sandbox.secretKey } }), "invalid_api_key", 401);
  });

  test("altered, foreign-signed and expired tokens: invalid_token / token_expired", async () => {
    const m = await newMerchant();
    const t = await api("/auth/token", { body: { apiKey: m.sandbox.publishableKey, secretKey: m.sandbox.secretKey } });
    const [h, p, s] = t.body.accessToken.split(".");
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p, "base64url").toString()), mid: "mer_other" })).toString("base64url")}.${s}`;
    assertEnvelope(await api("/me", { key: tampered }), "invalid_token", 401);
    assertEnvelope(await api("/me", { key: "not-a-jwt" }), "invalid_token", 401);
    const claims = JSON.parse(Buffer.from(p, "base64url").toString());
    const foreign = await new SignJWT({ ...claims }).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode("another-secret-another-secret-another-secret"));
    assertEnvelope(await api("/me", { key: foreign }), "invalid_token", 401);
    const expired = await new SignJWT({ mid: claims.mid, sid: claims.sid, env: claims.env, kind: claims.kind, ver: claims.ver })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(claims.sub)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 2000)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 1000)
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .sign(jwtKey);
    assertEnvelope(await api("/me", { key: expired }), "token_expired", 401);
    // Signed with our key but missing exp, iss or aud: refused.
    const mint = (b: (j: SignJWT) => SignJWT) => b(new SignJWT({ mid: claims.mid, sid: claims.sid, env: claims.env, kind: claims.kind, ver: claims.ver }).setProtectedHeader({ alg: "HS256" }).setSubject(claims.sub).setIssuedAt()).sign(jwtKey);
    assertEnvelope(await api("/me", { key: await mint((j) => j.setIssuer(TOKEN_ISSUER).setAudience(TOKEN_AUDIENCE)) }), "invalid_token", 401);
    assertEnvelope(await api("/me", { key: await mint((j) => j.setExpirationTime("5m").setAudience(TOKEN_AUDIENCE)) }), "invalid_token", 401);
    assertEnvelope(await api("/me", { key: await mint((j) => j.setExpirationTime("5m").setIssuer(TOKEN_ISSUER)) }), "invalid_token", 401);
    assertEnvelope(await api("/me", { key: await mint((j) => j.setExpirationTime("5m").setIssuer(TOKEN_ISSUER).setAudience("someone-else")) }), "invalid_token", 401);
    assert.equal((await api("/me", { key: await mint((j) => j.setExpirationTime("5m").setIssuer(TOKEN_ISSUER).setAudience(TOKEN_AUDIENCE)) })).status, 200);
  });

  test("rolling the secret retires its access and refresh tokens", async () => {
    const m = await newMerchant();
    const t = await api("/auth/token", { body: { apiKey: m.sandbox.publishableKey, secretKey: m.sandbox.secretKey } });
    await rollSecretKey({ shopId: m.shopId, environment: "sandbox" });
    assertEnvelope(await waitFor(async () => { const r = await api("/me", { key: t.body.accessToken }); return r.status === 401 && r; }, "token retired"), "invalid_token", 401);
    assertEnvelope(await api("/auth/refresh", { body: { refreshToken: t.body.refreshToken } }), "invalid_token", 401);
  });
});

describe("refresh tokens", () => {
  test("rotation: both tokens rotate and the old refresh token stops working", async () => {
    const m = await newMerchant();
    const first = await api("/auth/token", { body: { apiKey: m.sandbox.publishableKey, secretKey: m.sandbox.secretKey } });
    const second = await api("/auth/refresh", { body: { refreshToken: first.body.refreshToken } });
    assert.equal(second.status, 200);
    assert.notEqual(second.body.refreshToken, first.body.refreshToken);
    assert.notEqual(second.body.accessToken, first.body.accessToken);
    assert.equal((await api("/me", { key: second.body.accessToken })).status, 200);
    const third = await api("/auth/refresh", { body: { refreshToken: second.body.refreshToken } });
    assert.equal(third.status, 200);
  });

  test("reuse of a spent refresh token revokes the whole family", async () => {
    const m = await newMerchant();
    const first = await api("/auth/token", { body: { apiKey: m.sandbox.publishableKey, secretKey: m.sandbox.secretKey } });
    const second = await api("/auth/refresh", { body: { refreshToken: first.body.refreshToken } });
    assertEnvelope(await api("/auth/refresh", { body: { refreshToken: first.body.refreshToken } }), "invalid_token", 401);
    // The legitimate newest token is revoked too: the family is presumed stolen.
    assertEnvelope(await api("/auth/refresh", { body: { refreshToken: second.body.refreshToken } }), "invalid_token", 401);
  });

  test("two concurrent refreshes of one token: exactly one succeeds", async () => {
    const m = await newMerchant();
    const first = await api("/auth/token", { body: { apiKey: m.sandbox.publishableKey, secretKey: m.sandbox.secretKey } });
    const results = await Promise.all([1, 2].map(() => api("/auth/refresh", { body: { refreshToken: first.body.refreshToken } })));
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 401]);
  });

  test("unknown and expired refresh tokens", async () => {
    assertEnvelope(await api("/auth/refresh", { body: { refreshToken: "rt_unknown" } }), "invalid_token", 401);
    const m = await newMerchant();
    const t = await api("/auth/token", { body: { apiKey: m.sandbox.publishableKey, secretKey: m.sandbox.secretKey } });
    const { sha256Hex } = await import("@/lib/platform/crypto/hash");
    await db().refreshToken.update({ where: { tokenHash: sha256Hex(t.body.refreshToken) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    assertEnvelope(await api("/auth/refresh", { body: { refreshToken: t.body.refreshToken } }), "token_expired", 401);
  });

  test("refresh tokens and secret keys are stored only as hashes", async () => {
    const m = await newMerchant();
    const t = await api("/auth/token", { body: { apiKey: m.sandbox.publishableKey, secretKey: m.sandbox.secretKey } });
    const leaks = await db().$queryRawUnsafe<{ n: bigint }[]>(
      `SELECT (SELECT count(*) FROM refresh_tokens WHERE token_hash = $1) + (SELECT count(*) FROM api_key_pairs WHERE secret_hash = $2 OR secret_preview = $2) AS n`,
      t.body.refreshToken,
      m.sandbox.secretKey,
    );
    assert.equal(Number(leaks[0]!.n), 0);
  });
});
