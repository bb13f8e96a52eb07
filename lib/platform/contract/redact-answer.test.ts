import { test } from "node:test";
import assert from "node:assert/strict";
import { REDACTED, redactAnswer } from "@/lib/platform/contract/redact-answer";

test("secrets are replaced at any depth; ids, amounts and booleans stay", () => {
  const out = redactAnswer({
    accessToken: "at_x",
    refreshToken: "rt_x",
    keys: { secretKey: "sk_live_x", publishableKey: "pk_live_y", keyId: "key_1" },
    subscription: { id: "wh_1", secret: "whsec_abc", hasSecret: true },
    payment: { id: "tx_1", amount: 10.5, clientSecret: "cs_x", customer: { email: "a@b.test" } },
    items: [{ signingSecret: "s", name: "n" }],
  }) as Record<string, any>;
  assert.equal(out.accessToken, REDACTED);
  assert.equal(out.refreshToken, REDACTED);
  assert.equal(out.keys.secretKey, REDACTED);
  assert.equal(out.keys.keyId, "key_1");
  assert.equal(out.subscription.secret, REDACTED);
  assert.equal(out.subscription.id, "wh_1");
  assert.equal(out.payment.clientSecret, REDACTED);
  assert.equal(out.payment.amount, 10.5);
  assert.equal(out.payment.customer.email, "a@b.test");
  assert.equal(out.items[0].signingSecret, REDACTED);
  assert.ok(!JSON.stringify(out).includes("whsec_abc"));
  assert.ok(!JSON.stringify(out).includes("sk_live_x"));
});

test("a list keeps its first item and says how many more there were; other arrays keep 5", () => {
  const out = redactAnswer({ data: Array.from({ length: 100 }, (_, i) => ({ id: `tx_${i}`, clientSecret: "cs", attempts: [1, 2, 3, 4, 5, 6, 7] })), hasMore: true }) as {
    data: Array<{ attempts: unknown[] } | string>;
    hasMore: boolean;
  };
  assert.equal(out.data.length, 2);
  assert.deepEqual(out.data[0], { id: "tx_0", clientSecret: REDACTED, attempts: [1, 2, 3, 4, 5, "… 2 more items"] });
  assert.equal(out.data[1], "… 99 more items");
  assert.equal(out.hasMore, true);
  // `data` deeper down is not a list envelope's.
  const nested = redactAnswer({ payment: { data: [1, 2, 3] } }) as { payment: { data: unknown[] } };
  assert.deepEqual(nested.payment.data, [1, 2, 3]);
});

test("a big answer is kept as a bounded preview", () => {
  const out = redactAnswer({ items: Array.from({ length: 5 }, (_, i) => ({ id: `tx_${i}`, note: "x".repeat(4_000) })) }) as { truncated: boolean; size: number; preview: string };
  assert.equal(out.truncated, true);
  assert.ok(out.size > 16_000);
  assert.equal(out.preview.length, 2_000);
});

test("no body is no answer", () => {
  assert.equal(redactAnswer(undefined), null);
});
