// Idempotency (decisions.md) through the handler wrapper, over real HTTP, on a creating POST.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { api, assertEnvelope, newMerchant } from "./helpers.ts";
import { db } from "@/lib/db";

after(() => db().$disconnect());

const create = (key: string, body: unknown, idem?: string) =>
  api("/test-fixtures/side-effects", { key, body, headers: idem ? { "idempotency-key": idem } : {} });
const count = async (key: string, label: string) => (await api(`/test-fixtures/side-effects?label=${label}`, { key })).body.count as number;

test("a retry with the same key and body replays the first answer, marked Idempotent-Replayed", async () => {
  const m = await newMerchant();
  const idem = randomUUID();
  const first = await create(m.sandbox.secretKey, { label: "replay", nested: { amount: 5 } }, idem);
  assert.equal(first.status, 201);
  assert.equal(first.headers.get("idempotent-replayed"), "false");
  // Same body with keys in another order is the same request.
  const second = await create(m.sandbox.secretKey, { nested: { amount: 5 }, label: "replay" }, idem);
  assert.equal(second.status, 201);
  assert.equal(second.headers.get("idempotent-replayed"), "true");
  assert.deepEqual(second.body, first.body);
  assert.equal(await count(m.sandbox.secretKey, "replay"), 1);
});

test("the same key with a different body: 409 idempotency_conflict, no side effect", async () => {
  const m = await newMerchant();
  const idem = randomUUID();
  assert.equal((await create(m.sandbox.secretKey, { label: "conflict" }, idem)).status, 201);
  assertEnvelope(await create(m.sandbox.secretKey, { label: "conflict", delayMs: 1 }, idem), "idempotency_conflict", 409);
  assert.equal(await count(m.sandbox.secretKey, "conflict"), 1);
});

test("50 concurrent identical requests: one side effect, 50 identical answers", async () => {
  const m = await newMerchant();
  const idem = randomUUID();
  const results = await Promise.all(Array.from({ length: 50 }, () => create(m.sandbox.secretKey, { label: "burst", delayMs: 300 }, idem)));
  assert.deepEqual(new Set(results.map((r) => r.status)), new Set([201]));
  assert.equal(new Set(results.map((r) => r.text)).size, 1, "every answer carries the same body");
  assert.equal(results.filter((r) => r.headers.get("idempotent-replayed") === "false").length, 1);
  assert.equal(await count(m.sandbox.secretKey, "burst"), 1);
});

test("errors are not stored: the key is reusable after a failed attempt", async () => {
  const m = await newMerchant();
  const idem = randomUUID();
  assertEnvelope(await create(m.sandbox.secretKey, { label: "retry", fail: true }, idem), "amount_invalid", 400);
  assertEnvelope(await create(m.sandbox.secretKey, { label: 42 }, idem), "invalid_request", 400);
  const ok = await create(m.sandbox.secretKey, { label: "retry" }, idem);
  assert.equal(ok.status, 201);
  assert.equal(ok.headers.get("idempotent-replayed"), "false");
  assert.equal(await count(m.sandbox.secretKey, "retry"), 1);
});

test("keys are scoped per merchant and environment; no key means no deduplication", async () => {
  const a = await newMerchant();
  const b = await newMerchant();
  const idem = randomUUID();
  assert.equal((await create(a.sandbox.secretKey, { label: "scope" }, idem)).headers.get("idempotent-replayed"), "false");
  assert.equal((await create(b.sandbox.secretKey, { label: "scope" }, idem)).headers.get("idempotent-replayed"), "false");
  assert.equal(await count(a.sandbox.secretKey, "scope"), 1);
  assert.equal(await count(b.sandbox.secretKey, "scope"), 1);
  await create(a.sandbox.secretKey, { label: "nokey" });
  await create(a.sandbox.secretKey, { label: "nokey" });
  assert.equal(await count(a.sandbox.secretKey, "nokey"), 2);
});

test("an unusable Idempotency-Key is a 400 invalid_request naming the header", async () => {
  const m = await newMerchant();
  const r = await create(m.sandbox.secretKey, { label: "bad" }, "x".repeat(300));
  assertEnvelope(r, "invalid_request", 400);
  assert.equal(r.body.error.param, "Idempotency-Key");
});
