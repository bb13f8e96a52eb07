// The rule form's drafts and the API's rules, both ways: what the form shows of a stored rule,
// what it sends back, and the plain words of a schema refusal at its field.
import { test } from "node:test";
import assert from "node:assert/strict";
import { draftToRule, draftsToRules, moved, newDraft, plainRuleIssue, ruleToDraft, rulesToDrafts, shareOf } from "@/lib/routing/rule-form";
import { putRoutingBody, type RoutingRule } from "@/lib/routing/schema";

const RULES: RoutingRule[] = putRoutingBody.parse({
  rules: [
    { name: "Large SPEI", paymentMethodId: "1003", when: { minAmountUsd: 500, countries: ["MEX"] }, providers: [{ provider: "rapidpay" }] },
    { paymentMethodId: "1003", strategy: "split", providers: [{ provider: "andespay", weight: 70 }, { provider: "pagosur", weight: 30 }], fallback: false },
    { paymentMethodId: "1007", strategy: "success_rate", exploration: 0.07, when: { maxAmountUsd: 99.5, currencies: ["USD"], documentTypes: ["rfc"] }, providers: [{ provider: "rapidpay" }, { provider: "andespay" }] },
  ],
}).rules;

test("a stored rule round-trips through the form unchanged (defaults included)", () => {
  const back = putRoutingBody.parse({ rules: draftsToRules(rulesToDrafts(RULES)) }).rules;
  assert.deepEqual(back, RULES);
});

test("the form shows amounts and shares as typed text, exploration as a percent", () => {
  const [large, split, best] = rulesToDrafts(RULES);
  assert.equal(large!.minAmountUsd, "500");
  assert.equal(large!.country, "MEX");
  assert.deepEqual(split!.providers, [{ provider: "andespay", weight: "70" }, { provider: "pagosur", weight: "30" }]);
  assert.equal(split!.fallback, false);
  assert.equal(best!.explorationPercent, "7");
  assert.equal(shareOf("7"), 0.07);
  assert.equal(shareOf("33.3"), 0.333);
  // Conditions the form does not show are kept.
  assert.deepEqual(draftToRule(best!).when, { currencies: ["USD"], documentTypes: ["rfc"], maxAmountUsd: 99.5 });
});

test("weights go only with a split and exploration only with best approval; empty fields are absent", () => {
  const d = { ...ruleToDraft(RULES[1]!), strategy: "priority" as const };
  assert.deepEqual(draftToRule(d).providers, [{ provider: "andespay" }, { provider: "pagosur" }]);
  const fresh = newDraft("sbx_spei", "sandbox");
  assert.deepEqual(draftToRule({ ...fresh, explorationPercent: "10" }), { paymentMethodId: "sbx_spei", strategy: "priority", providers: [{ provider: "sandbox" }] });
  assert.equal(draftToRule({ ...fresh, strategy: "success_rate", explorationPercent: "10" }).exploration, 0.1);
});

test("text that is not a number reaches the schema as text, which refuses it at that field", () => {
  const d = { ...newDraft("1003", "pagosur"), minAmountUsd: "five hundred" };
  const r = putRoutingBody.safeParse({ rules: [draftToRule(d)] });
  assert.equal(r.success, false);
  const issue = r.error!.issues[0]!;
  assert.deepEqual(issue.path, ["rules", 0, "when", "minAmountUsd"]);
  assert.equal(plainRuleIssue("rules[0].when.minAmountUsd", issue), "Rule 1, amount from: enter an amount in USD from 0 to 100,000, like 500.");
  assert.equal(plainRuleIssue("rules[2].providers[1].weight", { message: "Too big" }), "Rule 3, provider 2, share: enter a whole number from 0 to 1000.");
  assert.deepEqual(draftToRule({ ...d, minAmountUsd: "1,000" }).when, { minAmountUsd: 1000 });
});

test("moving a rule or a provider", () => {
  assert.deepEqual(moved(["a", "b", "c"], 2, 0), ["c", "a", "b"]);
  assert.deepEqual(moved(["a", "b", "c"], 0, -1), ["a", "b", "c"]);
});

test("the objective: written only when net revenue is chosen on a best-approval rule, read back as approval when absent", () => {
  const d = newDraft("1003", "rapidpay");
  assert.equal(d.objective, "approval");
  assert.equal("objective" in draftToRule({ ...d, strategy: "success_rate" }), false, "approval, the default, is not written");
  assert.equal(draftToRule({ ...d, strategy: "success_rate", objective: "net_revenue" }).objective, "net_revenue");
  assert.equal("objective" in draftToRule({ ...d, strategy: "priority", objective: "net_revenue" }), false, "a priority rule has none");
  assert.equal(ruleToDraft({ paymentMethodId: "1003", strategy: "success_rate", objective: "net_revenue", fallback: true, providers: [{ provider: "rapidpay" }] }).objective, "net_revenue");
});
