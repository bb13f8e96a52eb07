import { test } from "node:test";
import assert from "node:assert/strict";
import { clientIpFrom, isTrustedProxy, PEER_HEADER } from "./client-ip.ts";
import { parseTrustedProxies } from "../config-production.ts";

const h = (o: Record<string, string>) => new Headers(o);
const LB = parseTrustedProxies("10.0.0.0/8");
const TWO = parseTrustedProxies("10.0.0.0/8, 192.0.2.1");

test("no trusted proxy (default): forwarding headers are ignored, the peer is the client", () => {
  assert.equal(clientIpFrom(h({ "x-forwarded-for": "1.2.3.4", "x-real-ip": "198.51.100.4" }), [], "203.0.113.7"), "203.0.113.7");
  assert.equal(clientIpFrom(h({ "x-forwarded-for": "1.2.3.4" }), [], "::ffff:203.0.113.7"), "203.0.113.7");
});

test("the peer comes from the server-stamped header; without it the address is unknown", () => {
  assert.equal(clientIpFrom(h({ [PEER_HEADER]: "203.0.113.7", "x-forwarded-for": "1.2.3.4" }), []), "203.0.113.7");
  assert.equal(clientIpFrom(h({ "x-forwarded-for": "1.2.3.4" }), LB), null);
});

test("an untrusted peer is the client even when it sends X-Forwarded-For", () => {
  assert.equal(clientIpFrom(h({ "x-forwarded-for": "1.2.3.4" }), LB, "203.0.113.7"), "203.0.113.7");
});

test("behind a trusted proxy: the hop it wrote, never a hop the client sent", () => {
  assert.equal(clientIpFrom(h({ "x-forwarded-for": "203.0.113.7" }), LB, "10.0.0.2"), "203.0.113.7");
  assert.equal(clientIpFrom(h({ "x-forwarded-for": "1.2.3.4, 203.0.113.7" }), LB, "10.0.0.2"), "203.0.113.7");
});

test("a chain of trusted proxies is walked right to left", () => {
  assert.equal(clientIpFrom(h({ "x-forwarded-for": "6.6.6.6, 203.0.113.7, 192.0.2.1" }), TWO, "10.0.0.2"), "203.0.113.7");
  assert.equal(clientIpFrom(h({ "x-forwarded-for": "203.0.113.7,10.0.0.9" }), TWO, "10.0.0.2"), "203.0.113.7");
});

test("all hops ours: X-Real-IP names the client, else the last proxy", () => {
  assert.equal(clientIpFrom(h({ "x-forwarded-for": "10.0.0.2", "x-real-ip": "198.51.100.4" }), LB, "10.0.0.3"), "198.51.100.4");
  assert.equal(clientIpFrom(h({ "x-forwarded-for": "10.0.0.2" }), LB, "10.0.0.3"), "10.0.0.2");
  assert.equal(clientIpFrom(h({ "x-real-ip": "198.51.100.4" }), LB, "10.0.0.3"), "198.51.100.4");
  // X-Real-IP from an untrusted peer is its own claim.
  assert.equal(clientIpFrom(h({ "x-real-ip": "198.51.100.4" }), LB, "203.0.113.9"), "203.0.113.9");
});

test("a malformed hop where the client should be: unknown; ports and mapped forms are read", () => {
  assert.equal(clientIpFrom(h({ "x-forwarded-for": "1.2.3.4, <script>" }), LB, "10.0.0.2"), null);
  assert.equal(clientIpFrom(h({ "x-forwarded-for": "<script>, 203.0.113.7" }), LB, "10.0.0.2"), "203.0.113.7");
  assert.equal(clientIpFrom(h({ "x-forwarded-for": "203.0.113.7:51234" }), LB, "10.0.0.2"), "203.0.113.7");
  assert.equal(clientIpFrom(h({ "x-forwarded-for": "[2001:db8::1]:443" }), LB, "10.0.0.2"), "2001:db8::1");
  assert.equal(clientIpFrom(h({ "x-forwarded-for": "::ffff:203.0.113.7" }), LB, "10.0.0.2"), "203.0.113.7");
});

test("CIDR matching: IPv4, IPv6, mapped peers, bare addresses", () => {
  const t = parseTrustedProxies("127.0.0.1/32, 2001:db8::/32, 192.0.2.7");
  assert.ok(isTrustedProxy("127.0.0.1", t));
  assert.ok(isTrustedProxy("::ffff:127.0.0.1", t));
  assert.ok(isTrustedProxy("2001:db8:1::5", t));
  assert.ok(isTrustedProxy("192.0.2.7", t));
  assert.ok(!isTrustedProxy("127.0.0.2", t));
  assert.ok(!isTrustedProxy("192.0.2.8", t));
  assert.ok(!isTrustedProxy("not-an-ip", t));
  assert.ok(!isTrustedProxy("127.0.0.1", []));
});
