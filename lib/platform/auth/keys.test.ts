import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { environmentTag, generateKeyPair, hashSecretKey, looksLikeApiKey, maskKey, parseApiKey } from "@/lib/platform/auth/keys";

const BASE62_32 = /^[0-9A-Za-z]{32}$/;
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const body = (key: string) => key.split("_")[2]!;

describe("generateKeyPair", () => {
  test("sandbox keys are pk_test_ / sk_test_ plus 32 base62 characters", () => {
    const { publishableKey, secretKey } = generateKeyPair("sandbox");
    assert.match(publishableKey, /^pk_test_[0-9A-Za-z]{32}$/);
    assert.match(secretKey, /^sk_test_[0-9A-Za-z]{32}$/);
  });

  test("production keys are pk_live_ / sk_live_ plus 32 base62 characters", () => {
    const { publishableKey, secretKey } = generateKeyPair("production");
    assert.match(publishableKey, /^pk_live_[0-9A-Za-z]{32}$/);
    assert.match(secretKey, /^sk_live_[0-9A-Za-z]{32}$/);
  });

  test("secretHash is the SHA-256 hex of the secret key", () => {
    const { secretKey, secretHash } = generateKeyPair("sandbox");
    assert.equal(secretHash, sha256(secretKey));
    assert.match(secretHash, /^[0-9a-f]{64}$/);
    assert.equal(hashSecretKey(secretKey), secretHash);
  });

  test("secretPreview is the last 4 characters of the secret key", () => {
    const { secretKey, secretPreview } = generateKeyPair("production");
    assert.equal(secretPreview.length, 4);
    assert.equal(secretPreview, secretKey.slice(-4));
  });

  test("the result does not carry the secret anywhere but secretKey", () => {
    const pair = generateKeyPair("sandbox");
    const { secretKey, ...rest } = pair;
    assert.doesNotMatch(JSON.stringify(rest), new RegExp(body(secretKey)));
  });

  test("keys are random: publishable and secret differ, and pairs differ", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const { publishableKey, secretKey } = generateKeyPair("sandbox");
      assert.notEqual(body(publishableKey), body(secretKey));
      seen.add(body(publishableKey)).add(body(secretKey));
    }
    assert.equal(seen.size, 100);
  });

  test("bodies use the whole base62 alphabet over many keys", () => {
    const chars = new Set<string>();
    for (let i = 0; i < 200; i++) for (const c of body(generateKeyPair("sandbox").secretKey)) chars.add(c);
    assert.equal(chars.size, 62);
  });
});

describe("parseApiKey", () => {
  test("round-trips generated keys", () => {
    const sandbox = generateKeyPair("sandbox");
    const live = generateKeyPair("production");
    assert.deepEqual(parseApiKey(sandbox.publishableKey), { kind: "publishable", environment: "sandbox" });
    assert.deepEqual(parseApiKey(sandbox.secretKey), { kind: "secret", environment: "sandbox" });
    assert.deepEqual(parseApiKey(live.publishableKey), { kind: "publishable", environment: "production" });
    assert.deepEqual(parseApiKey(live.secretKey), { kind: "secret", environment: "production" });
  });

  test("rejects malformed keys", () => {
    const good = body(generateKeyPair("sandbox").secretKey);
    assert.ok(BASE62_32.test(good));
    const bad = [
      "",
      `sk_test_${good.slice(1)}`, // 31 characters
      `sk_test_${good}x`, // 33 characters
      `rk_test_${good}`, // wrong kind prefix
      `SK_test_${good}`, // prefix is case-sensitive
      `sk_prod_${good}`, // wrong environment tag
      `sk_TEST_${good}`,
      `sk__${good}`,
      `sk_test${good}`, // missing separator
      `sk_test_${good.slice(1)}-`, // non-base62 character
      `sk_test_${good.slice(1)}_`,
      ` sk_test_${good}`, // surrounding whitespace
      `sk_test_${good}\n`,
      `Bearer sk_test_${good}`,
    ];
    for (const key of bad) assert.equal(parseApiKey(key), null, JSON.stringify(key));
  });
});

describe("looksLikeApiKey / environmentTag", () => {
  test("looksLikeApiKey tells keys from JWTs by prefix", () => {
    assert.equal(looksLikeApiKey("sk_anything"), true);
    assert.equal(looksLikeApiKey("pk_anything"), true);
    assert.equal(looksLikeApiKey("eyJhbGciOiJIUzI1NiJ9.e30.sig"), false);
  });

  test("environmentTag maps sandbox to test and production to live", () => {
    assert.equal(environmentTag("sandbox"), "test");
    assert.equal(environmentTag("production"), "live");
  });
});

describe("maskKey", () => {
  test("shows kind, environment and only the last 4 characters", () => {
    const { secretKey, secretPreview, publishableKey } = generateKeyPair("production");
    assert.equal(maskKey("secret", "production", secretPreview), `sk_live_…${secretKey.slice(-4)}`);
    assert.equal(maskKey("publishable", "sandbox", publishableKey.slice(-4)), `pk_test_…${publishableKey.slice(-4)}`);
  });

  test("never contains more than 4 characters of the key body", () => {
    for (let i = 0; i < 20; i++) {
      const { secretKey, secretPreview } = generateKeyPair("sandbox");
      const masked = maskKey("secret", "sandbox", secretPreview);
      const keyBody = body(secretKey);
      // No run of 5 consecutive body characters appears in the masked form.
      for (let start = 0; start + 5 <= keyBody.length; start++) {
        assert.equal(masked.includes(keyBody.slice(start, start + 5)), false, `masked ${masked} leaks ${keyBody.slice(start, start + 5)}`);
      }
      const visible = masked.split("…")[1]!;
      assert.equal(visible.length, 4);
    }
  });
});
