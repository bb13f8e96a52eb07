// Structured logs: one JSON line per request with the fields operators need, unexpected errors
// logged with their cause under the requestId, and no secret ever written.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { api, assertEnvelope, extraServer, newMerchant, waitFor } from "./helpers.ts";
import { db } from "@/lib/platform/db";

after(() => db().$disconnect());

test("request log lines carry time, level, requestId, merchant, route, status, duration — and no secrets", async () => {
  const server = await extraServer({ ...(process.env as Record<string, string>), LOG_LEVEL: "info" }, { captureOutput: true });
  try {
    const m = await newMerchant();
    const ok = await api("/me", { key: m.sandbox.secretKey, base: server.url });
    const token = await api("/auth/token", { base: server.url, body: { apiKey: m.sandbox.publishableKey, secretKey: m.sandbox.secretKey } });
    await api("/auth/refresh", { base: server.url, body: { refreshToken: token.body.refreshToken } });
    await api("/me", { key: token.body.accessToken, base: server.url });
    const crash = await api("/test-fixtures/side-effects", { key: m.sandbox.secretKey, base: server.url, body: { label: "boom", crash: true } });

    const lines = await waitFor(async () => {
      const parsed = server.output().split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
      return parsed.some((l) => l.requestId === crash.body?.error?.requestId && l.status === 500) && parsed;
    }, "the crash's request line");
    const me = lines.find((l) => l.requestId === ok.headers.get("x-request-id"));
    assert.ok(me, "the request has a log line under its requestId");
    assert.equal(me.level, "info");
    assert.equal(me.merchant, m.merchantId);
    assert.equal(me.route, "GET /me");
    assert.equal(me.status, 200);
    assert.equal(typeof me.durationMs, "number");
    assert.ok(!Number.isNaN(Date.parse(me.time)));

    // An unexpected error: a generic 500 to the caller, the cause in the log under the same requestId.
    assertEnvelope(crash, "internal_error", 500);
    assert.ok(!crash.text.includes("/srv/secret") && !crash.text.includes("fixture crash"), "no internals in the answer");
    const cause = lines.find((l) => l.requestId === crash.body.error.requestId && l.level === "error");
    assert.match(JSON.stringify(cause), /fixture crash/);

    const all = server.output();
    for (const secret of [m.sandbox.secretKey, token.body.refreshToken, token.body.accessToken]) {
      assert.ok(!all.includes(secret), "a secret reached the logs");
    }
  } finally {
    await server.stop();
  }
});
