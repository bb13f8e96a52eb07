// Pure helpers only: withIdempotency needs a database and is covered by the API tests.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { canonicalJson, validateIdempotencyKey } from "@/lib/platform/idempotency/keys";
import { AppError } from "@/lib/platform/errors";

describe("canonicalJson", () => {
  test("produces valid JSON that round-trips to an equal value", () => {
    const value = { b: [1, "two", null, { z: true, a: false }], a: { nested: { y: 1.5, x: "s" } } };
    assert.deepEqual(JSON.parse(canonicalJson(value)), value);
  });

  test("key order does not matter at the top level", () => {
    assert.equal(canonicalJson({ a: 1, b: 2 }), canonicalJson({ b: 2, a: 1 }));
    assert.equal(canonicalJson({ b: 2, a: 1 }), '{"a":1,"b":2}');
  });

  test("key order does not matter at any nesting level, including inside arrays", () => {
    const one = { amount: 100, customer: { name: "Ana", address: { city: "Lima", zip: "15001" } }, items: [{ sku: "x", qty: 1 }] };
    const two = { items: [{ qty: 1, sku: "x" }], customer: { address: { zip: "15001", city: "Lima" }, name: "Ana" }, amount: 100 };
    assert.equal(canonicalJson(one), canonicalJson(two));
  });

  test("arrays keep their order", () => {
    assert.notEqual(canonicalJson([1, 2, 3]), canonicalJson([3, 2, 1]));
    assert.notEqual(canonicalJson({ items: [{ a: 1 }, { b: 2 }] }), canonicalJson({ items: [{ b: 2 }, { a: 1 }] }));
  });

  test("undefined properties are dropped, like JSON.stringify", () => {
    assert.equal(canonicalJson({ a: 1, b: undefined }), canonicalJson({ a: 1 }));
    assert.equal(canonicalJson({ outer: { a: undefined, b: 2 } }), '{"outer":{"b":2}}');
  });

  test("null is kept and differs from an absent property", () => {
    assert.equal(canonicalJson({ a: null }), '{"a":null}');
    assert.notEqual(canonicalJson({ a: null }), canonicalJson({}));
  });

  test("different values give different strings", () => {
    assert.notEqual(canonicalJson({ amount: 100 }), canonicalJson({ amount: 101 }));
    assert.notEqual(canonicalJson({ amount: 100 }), canonicalJson({ amount: "100" }));
    assert.notEqual(canonicalJson({ a: { b: 1 } }), canonicalJson({ a: { b: 2 } }));
    assert.notEqual(canonicalJson({ a: 1 }), canonicalJson({ b: 1 }));
    assert.notEqual(canonicalJson({ a: true }), canonicalJson({ a: "true" }));
  });

  test("keys are escaped, so crafted keys cannot collide with structure", () => {
    assert.notEqual(canonicalJson({ 'a":1,"b': 2 }), canonicalJson({ a: 1, b: 2 }));
  });

  test("scalars and an absent body", () => {
    assert.equal(canonicalJson(null), "null");
    assert.equal(canonicalJson(undefined), "null");
    assert.equal(canonicalJson("x"), '"x"');
    assert.equal(canonicalJson(42), "42");
  });
});

describe("validateIdempotencyKey", () => {
  const rejects = (key: string) =>
    assert.throws(
      () => validateIdempotencyKey(key),
      (err: unknown) => {
        assert.ok(err instanceof AppError, "throws an AppError");
        assert.equal(err.code, "invalid_request");
        assert.equal(err.param, "Idempotency-Key");
        assert.equal(err.status, 400);
        return true;
      },
      `key ${JSON.stringify(key)} should be rejected`,
    );

  test("accepts 1 to 255 visible ASCII characters and returns the key", () => {
    assert.equal(validateIdempotencyKey("a"), "a");
    assert.equal(validateIdempotencyKey("order-123_ABC.v2"), "order-123_ABC.v2");
    assert.equal(validateIdempotencyKey("550e8400-e29b-41d4-a716-446655440000"), "550e8400-e29b-41d4-a716-446655440000");
    const k255 = "k".repeat(255);
    assert.equal(validateIdempotencyKey(k255), k255);
  });

  test("accepts every visible ASCII character (! through ~)", () => {
    let all = "";
    for (let c = 0x21; c <= 0x7e; c++) all += String.fromCharCode(c);
    assert.equal(validateIdempotencyKey(all), all);
  });

  test("rejects an empty key", () => rejects(""));

  test("rejects 256 characters", () => rejects("k".repeat(256)));

  test("rejects spaces", () => {
    rejects(" ");
    rejects("abc def");
    rejects(" abc");
  });

  test("rejects control characters", () => {
    rejects("abc\tdef");
    rejects("abc\n");
    rejects("abc\x00");
    rejects("abc\x7f");
  });

  test("rejects non-ASCII", () => {
    rejects("clé");
    rejects("key-😀");
    rejects("\u00a0abc");
  });
});
