// The security headers every page carries: buyer pages (checkout-pages.test.ts has the details) and
// the dashboard: a per-response nonce on every framework script, no framing, no inline script.
import { test } from "node:test";
import assert from "node:assert/strict";
import { API_URL } from "./helpers.ts";

test("dashboard pages: CSP with a nonce that every script carries, DENY framing, nosniff, same-origin referrer", async () => {
  const res = await fetch(`${API_URL}/dashboard/sign-in`);
  assert.equal(res.status, 200);
  const csp = res.headers.get("content-security-policy") ?? "";
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  assert.ok(nonce, csp);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.match(csp, /script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  assert.doesNotMatch(/script-src[^;]*/.exec(csp)?.[0] ?? "", /unsafe-inline/);
  assert.equal(res.headers.get("x-frame-options"), "DENY");
  assert.equal(res.headers.get("x-content-type-options"), "nosniff");
  assert.equal(res.headers.get("referrer-policy"), "same-origin");
  const html = await res.text();
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  assert.ok(scripts.length > 0);
  for (const tag of scripts) assert.ok(tag.includes(`nonce="${nonce}"`), `script without the nonce: ${tag}`);
});

test("a redirect to sign-in carries the headers too", async () => {
  const res = await fetch(`${API_URL}/dashboard`, { redirect: "manual" });
  assert.ok([200, 302, 303, 307].includes(res.status), String(res.status));
  assert.equal(res.headers.get("x-frame-options"), "DENY");
});
