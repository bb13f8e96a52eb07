import { test } from "node:test";
import assert from "node:assert/strict";
import { isCrossSite } from "./cross-site.ts";

const post = (headers: Record<string, string>) => new Request("http://shop.test/checkout/x/select", { method: "POST", headers });

test("Sec-Fetch-Site decides when present", () => {
  assert.equal(isCrossSite(post({ "sec-fetch-site": "same-origin" })), false);
  assert.equal(isCrossSite(post({ "sec-fetch-site": "none" })), false);
  assert.equal(isCrossSite(post({ "sec-fetch-site": "cross-site" })), true);
  assert.equal(isCrossSite(post({ "sec-fetch-site": "same-site" })), true);
});

test("without it, an Origin naming another host is cross-site; no Origin is a non-browser client", () => {
  assert.equal(isCrossSite(post({ origin: "http://evil.test", host: "shop.test" })), true);
  assert.equal(isCrossSite(post({ origin: "http://shop.test", host: "shop.test" })), false);
  assert.equal(isCrossSite(post({ origin: "not a url", host: "shop.test" })), true);
  assert.equal(isCrossSite(post({})), false);
});

test("Origin: null (a sandboxed frame, a data: URL, a page that hides its origin) is cross-site", () => {
  assert.equal(isCrossSite(post({ origin: "null", host: "shop.test" })), true);
  assert.equal(isCrossSite(post({ origin: "null" })), true);
  // A browser that says where the post came from is still believed first.
  assert.equal(isCrossSite(post({ origin: "null", "sec-fetch-site": "same-origin" })), false);
});
