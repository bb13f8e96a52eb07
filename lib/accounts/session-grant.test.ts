import { test } from "node:test";
import assert from "node:assert/strict";
import { readSessionGrant, signSessionGrant } from "@/lib/accounts/session-grant";

test("a session grant is read back only for its user, unaltered and unexpired", () => {
  const now = Date.now();
  const g = signSessionGrant("usr_a", { version: 3, secondFactor: true }, now);
  assert.deepEqual(readSessionGrant(g, "usr_a", now), { version: 3, secondFactor: true });
  assert.equal(readSessionGrant(g, "usr_b", now), null, "another user's session");
  assert.equal(readSessionGrant(g, "usr_a", now + 61_000), null, "expired");
  assert.equal(readSessionGrant(g.replace(".3.1.", ".3.0."), "usr_a", now), null, "altered");
  assert.equal(readSessionGrant(g.replace(".3.1.", ".4.1."), "usr_a", now), null, "altered");
  assert.equal(readSessionGrant({ version: 9, secondFactor: true }, "usr_a", now), null, "what a client would send");
});
