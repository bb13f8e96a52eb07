// The API fast path (scripts/lib/api-dispatch.ts) answers exactly as Next did: every route file,
// every method, with and without a credential, through the suite's server (fast path) and through
// a second server on the same build and database with API_FAST_PATH=off (Next's router). Status,
// error code, content type and the contract's headers must match.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { readApiRoutes } from "../../scripts/lib/api-dispatch.ts";
import { API_URL, extraServer, newMerchant } from "./helpers.ts";
import { db } from "@/lib/db";

after(() => db().$disconnect());

const root = path.resolve(import.meta.dirname, "../..");

type Seen = { status: number; code?: string; type: string; allow: string | null; requestId: boolean; cache: string | null };

async function hit(base: string, method: string, p: string, key?: string): Promise<Seen> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (key) headers.authorization = `Bearer ${key}`;
  const res = await fetch(`${base}${p}`, { method, headers, body: method === "GET" || method === "DELETE" ? undefined : "{" });
  const text = await res.text();
  let code: string | undefined;
  try {
    code = JSON.parse(text)?.error?.code;
  } catch {}
  return { status: res.status, code, type: (res.headers.get("content-type") ?? "").split(";")[0]!, allow: res.headers.get("allow"), requestId: res.headers.has("x-request-id"), cache: res.headers.get("cache-control") };
}

test("every route file answers through the fast path as it does through Next (status, code, headers)", { timeout: 300_000 }, async () => {
  const viaNext = await extraServer({ API_FAST_PATH: "off" });
  try {
    const m = await newMerchant();
    const mismatches: string[] = [];
    let compared = 0;
    for (const r of readApiRoutes(root)) {
      // Unknown ids everywhere: nothing is found, nothing is changed, both servers see the same state.
      const p = r.pattern.replace(/\[\.\.\.\w+\]/, "no/such/path").replace(/\[\w+\]/g, "x_unknown");
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
        for (const key of [undefined, m.sandbox.secretKey]) {
          // Creating POSTs with a credential would act (a new resource each): compared without one.
          if (key && method === "POST" && !p.includes("x_unknown")) continue;
          const [fast, slow] = [await hit(API_URL, method, p, key), await hit(viaNext.url, method, p, key)];
          compared++;
          if (JSON.stringify(fast) !== JSON.stringify(slow)) mismatches.push(`${method} ${p}${key ? " (key)" : ""}: fast ${JSON.stringify(fast)} vs Next ${JSON.stringify(slow)}`);
        }
      }
    }
    assert.deepEqual(mismatches, []);
    assert.ok(compared > 500, `compared ${compared}`);
    // A malformed escape and a path no route serves: the same JSON answers.
    for (const p of ["/api/v1/payments/%ff", "/api/v1/nothing/here"]) assert.deepEqual(await hit(API_URL, "GET", p), await hit(viaNext.url, "GET", p), p);
  } finally {
    await viaNext.stop();
  }
});

test("a body refused before it is read (no credential, too large) is answered, and the connection is not reset", async () => {
  const big = "x".repeat(3 * 1024 * 1024);
  for (let i = 0; i < 3; i++) {
    const res = await fetch(`${API_URL}/api/v1/payments`, { method: "POST", headers: { "content-type": "application/json" }, body: big });
    assert.ok([401, 413].includes(res.status), String(res.status));
    assert.ok((await res.json()).error.code);
  }
});
