import { test } from "node:test";
import assert from "node:assert/strict";
import { newSandboxClabe } from "@/lib/deposits/provision-clabe";
import { isValidClabe } from "@/lib/rails/document-rules";

test("sandbox CLABEs: 18 digits, STP prefix, valid check digit, all different", () => {
  const seen = new Set<string>();
  for (let i = 0; i < 2000; i++) {
    const c = newSandboxClabe();
    assert.ok(isValidClabe(c), c);
    assert.ok(c.startsWith("646180"), c);
    seen.add(c);
  }
  assert.equal(seen.size, 2000);
});
