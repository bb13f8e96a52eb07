import { test } from "node:test";
import assert from "node:assert/strict";
import * as OTPAuth from "otpauth";
import { looksLikeTotp, newRecoveryCodes, newTotpSecret, recoveryCodeRows, totpOf, totpStep } from "@/lib/accounts/totp";
import { twoFactorRequired } from "@/lib/platform/auth/two-factor-policy";

const T = Date.UTC(2026, 10, 23, 12, 0, 10);
const code = (secret: string, ms: number) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: ms });

test("a code is valid for its own step and one step either way, and names its step", () => {
  const secret = newTotpSecret();
  const step = Math.floor(T / 30_000);
  assert.equal(totpStep(secret, code(secret, T), T), step);
  assert.equal(totpStep(secret, code(secret, T + 30_000), T), step + 1);
  assert.equal(totpStep(secret, code(secret, T - 30_000), T), step - 1);
  assert.equal(totpStep(secret, code(secret, T + 90_000), T), null);
  assert.equal(totpStep(newTotpSecret(), code(secret, T), T) === step, false);
});

test("the otpauth URI names the issuer and the user", () => {
  const uri = totpOf(newTotpSecret(), "owner@example.test").toString();
  assert.match(uri, /^otpauth:\/\/totp\/Latam%20Payments:owner%40example\.test\?/);
  assert.match(uri, /issuer=Latam%20Payments/);
});

test("ten distinct recovery codes, stored only as hashes", () => {
  const codes = newRecoveryCodes();
  assert.equal(new Set(codes).size, 10);
  for (const c of codes) assert.match(c, /^[0-9a-f]{5}-[0-9a-f]{5}$/);
  const rows = recoveryCodeRows("usr_x", codes);
  for (const [i, r] of rows.entries()) {
    assert.match(r.codeHash, /^[0-9a-f]{64}$/);
    assert.ok(!r.codeHash.includes(codes[i]!.replace("-", "")));
  }
  assert.equal(looksLikeTotp("123 456"), true);
  assert.equal(looksLikeTotp(codes[0]!), false);
});

test("two-factor is required in production only, for owners and roles that move money", () => {
  assert.deepEqual((["owner", "developer", "viewer"] as const).map((r) => twoFactorRequired(r, "production")), [true, true, false]);
  assert.deepEqual((["owner", "developer", "viewer"] as const).map((r) => twoFactorRequired(r, "development")), [false, false, false]);
});
