import { test } from "node:test";
import assert from "node:assert/strict";
import { addressKey } from "./address-key.ts";

test("IPv6 addresses count by their /64; IPv4 by address", () => {
  assert.equal(addressKey("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::/64");
  assert.equal(addressKey("2001:db8:1:2:ffff:ffff:ffff:ffff"), "2001:db8:1:2::/64");
  assert.equal(addressKey("2001:0db8:0001:0002::9"), "2001:db8:1:2::/64");
  assert.notEqual(addressKey("2001:db8:1:3::1"), addressKey("2001:db8:1:2::1"));
  assert.equal(addressKey("203.0.113.7"), "203.0.113.7");
  assert.equal(addressKey("::ffff:203.0.113.7"), "203.0.113.7");
  assert.equal(addressKey("unknown"), "unknown");
});
