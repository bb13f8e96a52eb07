// The recent-requests log behind the Developers page (lib/platform/http/request-log.ts): every
// authenticated request lands with its method, path, status, request id, key and redacted answer,
// written in batches (one statement, its rows as one JSON parameter) off the request path. And a
// NUL in any input, which PostgreSQL's text cannot hold, is the contract's 400, never a 500.
import { test } from "node:test";
import assert from "node:assert/strict";
import { sql } from "@/lib/platform/db";
import { api, newMerchant, waitFor } from "./helpers.ts";

type Logged = { method: string; path: string; status: number; request_id: string; key_id: string; duration_ms: number; answer: unknown; created_at: Date };

test("a batch of requests is logged whole, each with its own answer", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const started = Date.now();
  const sent = await Promise.all([
    api("/ping", { key }),
    api("/payments", { key, body: { amount: 10, paymentMethodId: "sbx_card", merchantOrderId: "caf\u00e9 \u20ac \"quoted\" \\ back", tag1: "<b>&</b>" }, headers: { "idempotency-key": `log-${started}` } }),
    api("/payments/tx_does_not_exist", { key }),
    api("/nothing/h%C3%A9re", { key }),
  ]);
  const ids = sent.map((r) => r.headers.get("x-request-id")!);
  assert.ok(ids.every(Boolean));
  const rows = await waitFor(async () => {
    const found = await sql<Logged>(`SELECT method, path, status, request_id, key_id, duration_ms, answer, created_at FROM api_request_logs WHERE merchant_id = $1 AND request_id = ANY($2)`, [m.merchantId, ids]);
    return found.length >= 3 ? found : null;
  }, "the batch in api_request_logs");
  const byId = new Map(rows.map((r) => [r.request_id, r]));
  for (const [i, res] of sent.entries()) {
    const row = byId.get(ids[i]!);
    // A path no endpoint serves is answered by the catch-all, which authenticates nobody: not logged.
    if (i === 3) {
      assert.equal(row, undefined);
      continue;
    }
    assert.ok(row, `request ${i} logged`);
    assert.equal(row.status, res.status);
    assert.equal(row.key_id.startsWith("sk_test_"), true);
    assert.ok(row.created_at.getTime() >= started - 1_000 && row.created_at.getTime() <= Date.now() + 1_000, "created_at is the request's time");
    assert.ok(row.duration_ms >= 0);
  }
  assert.deepEqual([byId.get(ids[0]!)!.method, byId.get(ids[0]!)!.path, byId.get(ids[0]!)!.answer], ["GET", "/api/v1/ping", sent[0]!.body]);
  assert.equal(byId.get(ids[2]!)!.path, "/api/v1/payments/tx_does_not_exist");
  assert.deepEqual(byId.get(ids[2]!)!.answer, sent[2]!.body);
  assert.equal(sent[1]!.status, 200);
  assert.deepEqual(byId.get(ids[1]!)!.answer, sent[1]!.body);
});

test("a NUL in the body, the query or the path is invalid_request naming where it is", async () => {
  const m = await newMerchant();
  const key = m.sandbox.secretKey;
  const body = await api("/payments", { key, body: { amount: 10, paymentMethodId: "sbx_card", merchantOrderId: "nul\u0000order" }, headers: { "idempotency-key": `nul-${Date.now()}` } });
  assert.equal(body.status, 400);
  assert.equal(body.body.error.code, "invalid_request");
  assert.equal(body.body.error.param, "merchantOrderId");
  const nested = await api("/payments", { key, body: { amount: 10, paymentMethodId: "sbx_card", metadata: { list: ["ok", "x\u0000"] } } });
  assert.equal(nested.status, 400);
  assert.equal(nested.body.error.param, "metadata.list[1]");
  const query = await api("/payments?q=%00abc", { key });
  assert.equal(query.status, 400);
  assert.equal(query.body.error.code, "invalid_request");
  assert.equal(query.body.error.param, "q");
  const path = await api("/payments/tx_%00", { key });
  assert.equal(path.status, 400);
  assert.equal(path.body.error.param, "id");
  // Nothing was created.
  assert.equal((await api("/payments", { key })).body.data.length, 0);
});
