// The rule trial: test payments go where the rules say (order, split by share, best approval,
// platform order when no rule matches), a declined attempt moves on, and bad rules are refused as
// PUT /me/routing refuses them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { AppError } from "@/lib/platform/errors";
import { compileRoutingRules, seededRng } from "@/lib/routing/select";
import { putRoutingBody } from "@/lib/routing/schema";
import { ruleProviders } from "@/lib/routing/providers";
import { railById } from "@/lib/rails/rails";
import { runTrial, tryRoutingRules } from "@/lib/routing/try-rules";

const spei = railById("sbx_spei")!;
const facts = { paymentMethodId: "sbx_spei", amountUsdMinor: 2500n, country: "MEX", currency: "MXN", documentType: null };
const rules = (r: unknown[]) => compileRoutingRules(putRoutingBody.parse({ rules: r }).rules);

test("a sandbox rail may name the test provider and the simulated providers of its production twin", () => {
  assert.deepEqual(ruleProviders(spei), ["sandbox", "pagosur", "andespay", "rapidpay"]);
  assert.deepEqual(ruleProviders(railById("1003")!), railById("1003")!.providers);
});

test("in this order: every first attempt at the rule's first provider; a decline moves to the next", () => {
  const t = runTrial(rules([{ paymentMethodId: "sbx_spei", providers: [{ provider: "rapidpay" }, { provider: "sandbox" }] }]), facts, ruleProviders(spei), 40, seededRng(1));
  assert.ok(t.payments.every((p) => p.rule === 0 && p.attempts[0]!.provider === "rapidpay" && p.attempts[0]!.reason === "rule"));
  const declined = t.payments.filter((p) => p.attempts[0]!.outcome === "declined");
  assert.ok(declined.length > 0, "rapidpay declines some");
  // The test provider approves every payment it gets: none is left unpaid.
  assert.ok(declined.every((p) => p.attempts[1]!.provider === "sandbox" && p.paidBy === "sandbox"));
  assert.equal(t.providers.find((p) => p.provider === "rapidpay")!.first, 40);
});

test("a split draws the first provider by share; best approval learns from the trial's answers", () => {
  const split = runTrial(rules([{ paymentMethodId: "sbx_spei", strategy: "split", providers: [{ provider: "pagosur", weight: 70 }, { provider: "andespay", weight: 30 }] }]), facts, ruleProviders(spei), 200, seededRng(2));
  const pagosur = split.providers.find((p) => p.provider === "pagosur")!.first;
  assert.ok(pagosur > 115 && pagosur < 165, `about 70 % to pagosur: ${pagosur}`);
  assert.ok(split.payments.every((p) => p.attempts[0]!.reason === "split"));
  const best = runTrial(rules([{ paymentMethodId: "sbx_spei", strategy: "success_rate", exploration: 0, providers: [{ provider: "pagosur" }, { provider: "rapidpay" }], fallback: false }]), facts, ruleProviders(spei), 200, seededRng(3));
  const lastHalf = best.payments.slice(100);
  assert.ok(lastHalf.filter((p) => p.attempts[0]!.provider === "pagosur").length > 70, "pagosur (9 in 10) leads rapidpay (6 in 10) once learnt");
  assert.ok(best.payments.every((p) => p.attempts.every((a) => a.provider === "pagosur" || a.provider === "rapidpay")), "no other provider without fallback");
});

test("no rule matching: the platform order, said so", () => {
  const t = runTrial(rules([{ paymentMethodId: "sbx_pix", providers: [{ provider: "pagosur" }] }]), facts, ruleProviders(spei), 3, seededRng(4));
  assert.ok(t.payments.every((p) => p.rule === null && p.attempts[0]!.reason === "fallback" && p.attempts[0]!.provider === "sandbox"));
});

test("rules are checked as PUT checks them; only test payment methods are tried", () => {
  assert.throws(() => tryRoutingRules({ rules: [{ paymentMethodId: "sbx_pse", strategy: "priority", fallback: true, providers: [{ provider: "pagosur" }] }], paymentMethodId: "sbx_pse", amountUsd: 10, count: 1 }), (e: unknown) => e instanceof AppError && e.param === "rules[0].providers[0].provider");
  assert.throws(() => tryRoutingRules({ rules: [], paymentMethodId: "1003", amountUsd: 10, count: 1 }), (e: unknown) => e instanceof AppError && e.param === "paymentMethodId");
  assert.throws(() => tryRoutingRules({ rules: [], paymentMethodId: "sbx_spei", amountUsd: 10.123, count: 1 }), (e: unknown) => e instanceof AppError && e.code === "amount_invalid");
  const r = tryRoutingRules({ rules: [{ name: "Split", paymentMethodId: "sbx_spei", strategy: "split", fallback: true, providers: [{ provider: "andespay", weight: 1 }, { provider: "pagosur", weight: 0 }] }], paymentMethodId: "sbx_spei", amountUsd: 25, count: 5 });
  assert.equal(r.railName, "SPEI (test)");
  assert.ok(r.payments.every((p) => p.rule?.name === "Split" && p.attempts[0]!.provider === "andespay"));
});
