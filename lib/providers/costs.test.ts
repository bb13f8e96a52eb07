import { test } from "node:test";
import assert from "node:assert/strict";
import { costFrom, parseCosts } from "./costs.ts";
import { providerConfigErrors } from "./registry.ts";

const spei = { paymentMethodId: "1003", providerFeeBp: 60, networkFeeUsdMinor: 10 };

test("PROVIDER_<CODE>_COSTS: rail entries, a * for the rest, the failed fee defaulting to the fixed one", () => {
  const t = parseCosts("1003:55:12, *:280:10:0");
  assert.ok(typeof t !== "string");
  assert.deepEqual(costFrom(t, spei), { bp: 55, fixedUsdMinor: 12, failedUsdMinor: 12 });
  assert.deepEqual(costFrom(t, { ...spei, paymentMethodId: "1006" }), { bp: 280, fixedUsdMinor: 10, failedUsdMinor: 0 });
});

test("no table, or no entry for the rail: the rail's published fee, failed attempts free (every provider alike)", () => {
  assert.deepEqual(costFrom(null, spei), { bp: 60, fixedUsdMinor: 10, failedUsdMinor: 0 });
  const t = parseCosts("1001:90:0");
  assert.ok(typeof t !== "string");
  assert.deepEqual(costFrom(t, spei), { bp: 60, fixedUsdMinor: 10, failedUsdMinor: 0 });
});

test("a malformed table stops the start, naming the variable; never a payment", () => {
  for (const bad of ["1003:55", "1003:5.5:1", "1003:55:12,1003:60:10", "1003:20000:0", "x y:1:1"]) assert.equal(typeof parseCosts(bad), "string", bad);
  assert.deepEqual(providerConfigErrors({ PROVIDER_RAPIDPAY_COSTS: "1003:55" }, false).filter((e) => e.includes("COSTS")).length, 1);
  assert.match(providerConfigErrors({ PROVIDER_RAPIDPAY_COSTS: "9999:55:1" }, false).join("\n"), /PROVIDER_RAPIDPAY_COSTS: no rail 9999/);
  assert.deepEqual(providerConfigErrors({ PROVIDER_RAPIDPAY_COSTS: "1003:55:12,*:280:10" }, false), []);
});
