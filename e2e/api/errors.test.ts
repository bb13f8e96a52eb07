// The error contract (section 7): the envelope everywhere, the body errors, JSON 404/405, and a
// sweep of malformed requests over every endpoint that must never produce a 5xx.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { api, assertEnvelope, newMerchant } from "./helpers.ts";
import { ENDPOINTS } from "@/lib/openapi/endpoints";
import { createSideEffectEndpoint, readSideEffectEndpoint } from "@/lib/test-fixtures/side-effects";
import { db } from "@/lib/platform/db";
import type { EndpointDef } from "@/lib/platform/contract/endpoint";

after(() => db().$disconnect());

test("a body that is not JSON: 415 content_type_required; unparsable JSON: 400 invalid_json", async () => {
  const form = await api("/auth/token", { raw: "apiKey=a&secretKey=b", headers: { "content-type": "application/x-www-form-urlencoded" } });
  assertEnvelope(form, "content_type_required", 415);
  assertEnvelope(await api("/auth/token", { raw: '{"apiKey": ', headers: { "content-type": "application/json" } }), "invalid_json", 400);
  // charset parameters and +json media types are JSON too
  const charset = await api("/auth/token", { raw: "{}", headers: { "content-type": "application/json; charset=utf-8" } });
  assertEnvelope(charset, "missing_field", 400);
});

test("schema violations: invalid_request with details.issues; an absent field: missing_field with param", async () => {
  const missing = await api("/auth/token", { body: { apiKey: "pk_test_x" } });
  assertEnvelope(missing, "missing_field", 400);
  assert.equal(missing.body.error.param, "secretKey");
  assert.equal(missing.body.error.type, "invalid_request_error");
  const wrong = await api("/auth/token", { body: { apiKey: 5, secretKey: "sk" } });
  assertEnvelope(wrong, "invalid_request", 400);
  assert.deepEqual(Object.keys(wrong.body.error.details.issues[0]).sort(), ["message", "path"]);
  assert.equal(wrong.body.error.details.issues[0].path, "apiKey");
  const array = await api("/auth/token", { body: [1, 2] });
  assertEnvelope(array, "invalid_request", 400);
});

test("unknown paths under /api/v1 answer a JSON 404; wrong methods a JSON 405 with Allow", async () => {
  assertEnvelope(await api("/does-not-exist"), "route_not_found", 404);
  assertEnvelope(await api("/payments/x/y/z", { method: "DELETE" }), "route_not_found", 404);
  const wrong = await api("/ping", { method: "DELETE" });
  assertEnvelope(wrong, "method_not_allowed", 405);
  assert.equal(wrong.headers.get("allow"), "GET");
  assertEnvelope(await api("/auth/token", { method: "GET" }), "method_not_allowed", 405);
});

test("every answer carries X-Request-Id; errors repeat it in the body", async () => {
  const m = await newMerchant();
  const ok = await api("/ping", { key: m.sandbox.secretKey });
  assert.match(ok.headers.get("x-request-id") ?? "", /^req_\w{24}$/);
  const bad = await api("/me");
  assert.equal(bad.headers.get("x-request-id"), bad.body.error.requestId);
});

const MALFORMED: Array<{ name: string; raw?: string; body?: unknown; contentType?: string }> = [
  { name: "empty", raw: "" },
  { name: "truncated", raw: '{"a":' },
  { name: "null", raw: "null" },
  { name: "number", raw: "123" },
  { name: "string", raw: '"text"' },
  { name: "array", raw: "[]" },
  { name: "wrong types", body: { apiKey: [], secretKey: {}, refreshToken: 1, label: null, amount: "x", nested: "y" } },
  { name: "deep nesting", raw: "[".repeat(5000) + "]".repeat(5000) },
  { name: "huge string", body: { apiKey: "k".repeat(200_000), secretKey: "s", refreshToken: "r".repeat(100_000), label: "l".repeat(100_000) } },
  { name: "bad unicode", raw: '{"apiKey":"\\ud800","secretKey":"\\u0000"}' },
  { name: "prototype pollution", raw: '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}' },
  { name: "form content type", raw: "a=b", contentType: "application/x-www-form-urlencoded" },
  { name: "no content type", raw: '{"a":1}', contentType: "" },
];

test("malformed requests to every endpoint never produce a 5xx", async () => {
  const m = await newMerchant();
  const endpoints: EndpointDef[] = [...ENDPOINTS, createSideEffectEndpoint, readSideEffectEndpoint];
  const failures: string[] = [];
  for (const e of endpoints) {
    // The listen stream (server-sent events) stays open for its session: sdk/test/listen.test.ts covers it.
    if (e.responseType === "text/event-stream") continue;
    const path = e.path.replace(/\{\w+\}/g, "%00%ff..%2F");
    for (const key of [undefined, m.sandbox.secretKey, m.production.secretKey, m.sandbox.publishableKey, "garbage"]) {
      for (const c of MALFORMED) {
        const headers: Record<string, string> = {};
        if (c.contentType !== "") headers["content-type"] = c.contentType ?? "application/json";
        if (e.idempotent) headers["idempotency-key"] = `malformed-${c.name}`;
        const raw = e.method === "GET" ? undefined : (c.raw ?? JSON.stringify(c.body));
        const res = await api(`${path}?limit=-1&offset=abc&label=%ff&x[]=1`, { method: e.method, key, raw, headers });
        // A file answer (CSV, PDF) has no JSON body; every other answer and every error has one.
        const file = e.responseType !== undefined && res.status < 400;
        if (res.status >= 500 || (!res.body && !file) || (res.status >= 400 && !res.body?.error?.code)) failures.push(`${e.method} ${e.path} [${c.name}, ${key?.slice(0, 8)}] -> ${res.status} ${res.text.slice(0, 120)}`);
      }
    }
  }
  assert.deepEqual(failures, []);
});
