import { test } from "node:test";
import assert from "node:assert/strict";
import { can } from "@/lib/dashboard/roles";

test("viewers read only; owners and developers move money, see secrets once, manage webhooks", () => {
  for (const p of ["moveMoney", "seeSecrets", "manageWebhooks"] as const) {
    assert.equal(can("owner", p), true);
    assert.equal(can("developer", p), true);
    assert.equal(can("viewer", p), false);
  }
});

test("only owners manage the team and read the security log", () => {
  for (const p of ["manageTeam", "readSecurityLog"] as const) {
    assert.deepEqual([can("owner", p), can("developer", p), can("viewer", p)], [true, false, false]);
  }
});
