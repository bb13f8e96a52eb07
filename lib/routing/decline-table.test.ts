// The decline table's operator checks (npm run decline:set), against the real table: a unified
// code is one of ours by name, never a property every object inherits.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { db } from "@/lib/platform/db";
import { setDeclineRule, deleteDeclineRule } from "@/lib/routing/decline-table";

after(() => db().$disconnect());

test("--maps-to takes only the unified codes: constructor, __proto__, toString and the like are refused and nothing is written", async () => {
  const provider = "zz_decline_test";
  for (const declineCode of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]) {
    for (const decision of [undefined, "stop"]) {
      await assert.rejects(setDeclineRule({ provider, code: `c_${declineCode}`, declineCode, decision }), /--maps-to must be one of/, `${declineCode} (decision ${decision})`);
    }
  }
  assert.equal(await db().declineRule.count({ where: { provider } }), 0);
  // A unified code still maps, with its own decision.
  const r = await setDeclineRule({ provider, code: "51", declineCode: "insufficient_funds" });
  assert.deepEqual([r.declineCode, r.decision], ["insufficient_funds", "stop"]);
  await deleteDeclineRule({ provider, code: "51" });
});
