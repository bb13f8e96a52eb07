// A dashboard action's refusal: an AppError keeps its code and field; a transaction rolled back by
// a concurrent change or an unreachable database is "nothing was applied, try again" (what the API
// answers 503), never an internal error with a support reference; anything else is one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { runAction } from "@/lib/dashboard/action-result";
import { AppError } from "@/lib/platform/errors";

test("an AppError keeps its code and field", async () => {
  assert.deepEqual(await runAction(async () => { throw new AppError("invalid_request", "Bad.", { param: "amount" }); }), { ok: false, error: { code: "invalid_request", message: "Bad.", param: "amount" } });
  assert.deepEqual(await runAction(async () => 7), { ok: true, data: 7 });
});

test("a write conflict or deadlock is service_unavailable: nothing applied, try again", async () => {
  const conflicts = [
    Object.assign(new Error("Transaction failed due to a write conflict or a deadlock."), { name: "PrismaClientKnownRequestError", code: "P2034" }),
    Object.assign(new Error("deadlock detected"), { code: "40P01" }),
    new Error("outer", { cause: Object.assign(new Error("could not serialize access"), { code: "40001" }) }),
  ];
  for (const err of conflicts) {
    const r = await runAction(async () => { throw err; });
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.error.code, "service_unavailable");
    assert.match(!r.ok ? r.error.message : "", /nothing was applied\. Try again/);
  }
});

test("anything else is an internal error with a reference, leaking nothing", async () => {
  const r = await runAction(async () => { throw new Error("secret detail"); });
  assert.equal(!r.ok && r.error.code, "internal_error");
  assert.ok(!r.ok && !r.error.message.includes("secret detail"));
});
