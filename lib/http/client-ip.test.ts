import { test } from "node:test";
import assert from "node:assert/strict";
import { clientIpFrom } from "./client-ip.ts";

const h = (init: Record<string, string>) => new Headers(init);

test("one trusted proxy: the last hop is the client, whatever the client prepended", () => {
  assert.equal(clientIpFrom(h({ "x-forwarded-for": "203.0.113.7" }), 1), "203.0.113.7");
  assert.equal(clientIpFrom(h({ "x-forwarded-for": "1.2.3.4, 203.0.113.7" }), 1), "203.0.113.7");
});

test("two trusted proxies: the edge's hop is second from the right, never the first hop", () => {
  assert.equal(clientIpFrom(h({ "x-forwarded-for": "6.6.6.6, 203.0.113.7, 10.0.0.2" }), 2), "203.0.113.7");
  assert.equal(clientIpFrom(h({ "x-forwarded-for": "203.0.113.7,10.0.0.2" }), 2), "203.0.113.7");
});

test("fewer hops than trusted proxies falls back to x-real-ip", () => {
  assert.equal(clientIpFrom(h({ "x-forwarded-for": "10.0.0.2", "x-real-ip": "198.51.100.4" }), 2), "198.51.100.4");
  assert.equal(clientIpFrom(h({ "x-forwarded-for": "10.0.0.2" }), 2), null);
});

test("no proxies: every forwarding header is the client's claim and ignored", () => {
  assert.equal(clientIpFrom(h({ "x-forwarded-for": "1.2.3.4", "x-real-ip": "198.51.100.4" }), 0), null);
  assert.equal(clientIpFrom(h({ "x-forwarded-for": "1.2.3.4" }), 0), null);
});

test("garbage hops are not addresses; ports, brackets and v4-mapped v6 are normalised", () => {
  assert.equal(clientIpFrom(h({ "x-forwarded-for": "1.2.3.4, <script>" }), 1), null);
  assert.equal(clientIpFrom(h({ "x-forwarded-for": "not-an-ip", "x-real-ip": "198.51.100.4" }), 1), "198.51.100.4");
  assert.equal(clientIpFrom(h({ "x-forwarded-for": "203.0.113.7:51234" }), 1), "203.0.113.7");
  assert.equal(clientIpFrom(h({ "x-forwarded-for": "[2001:db8::1]:443" }), 1), "2001:db8::1");
  assert.equal(clientIpFrom(h({ "x-forwarded-for": "::ffff:203.0.113.7" }), 1), "203.0.113.7");
  assert.equal(clientIpFrom(h({ "x-forwarded-for": "2001:db8::1" }), 1), "2001:db8::1");
});
