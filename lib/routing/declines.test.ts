import { test } from "node:test";
import assert from "node:assert/strict";
import { classifyWith, compileRules, errorCodeFor, type DeclineRuleRow } from "./declines.ts";

const row = (provider: string, matchKind: string, match: string, declineCode: string, decision: string, priority = 100): DeclineRuleRow => ({ provider, matchKind, match, declineCode, decision, priority });
const rules = compileRules([
  row("*", "code", "timeout", "provider_timeout", "retry_next"),
  row("*", "pattern", "^http_(502|503|504)$", "provider_unavailable", "retry_next", 50),
  row("*", "pattern", "^http_5[0-9][0-9]$", "provider_error", "retry_next", 60),
  row("*", "code", "insufficient_funds", "insufficient_funds", "stop"),
  row("pagosur", "code", "51", "insufficient_funds", "stop"),
  row("pagosur", "code", "61", "limit_exceeded", "retry_same_later"),
  row("rapidpay", "pattern", "saldo insuficiente", "insufficient_funds", "stop"),
  row("rapidpay", "pattern", "fraude", "suspected_fraud", "stop"),
]);

test("a provider's code, its message pattern, and our transport reasons", () => {
  assert.deepEqual(classifyWith(rules, "pagosur", "51"), { declineCode: "insufficient_funds", decision: "stop", mapped: true });
  assert.deepEqual(classifyWith(rules, "pagosur", "61"), { declineCode: "limit_exceeded", decision: "retry_same_later", mapped: true });
  assert.equal(classifyWith(rules, "rapidpay", "rejected", "Saldo INSUFICIENTE en la cuenta").declineCode, "insufficient_funds", "patterns ignore case");
  assert.equal(classifyWith(rules, "rapidpay", "rejected", "Rechazada por sospecha de fraude").declineCode, "suspected_fraud");
  assert.equal(classifyWith(rules, "andespay", "http_503").declineCode, "provider_unavailable", "lower priority number first");
  assert.equal(classifyWith(rules, "andespay", "http_500").declineCode, "provider_error");
  assert.equal(classifyWith(rules, "andespay", "TIMEOUT").declineCode, "provider_timeout", "codes ignore case");
});

test("a provider's own code is not read as another provider's", () => {
  assert.equal(classifyWith(rules, "andespay", "51").mapped, false);
  assert.equal(classifyWith(rules, "pagosur", "rejected", "sospecha de fraude").mapped, false);
});

test("unmapped answers are soft", () => {
  assert.deepEqual(classifyWith(rules, "pagosur", "N7"), { declineCode: "unmapped_decline", decision: "retry_next", mapped: false });
});

test("a bad pattern in the table matches nothing instead of breaking every payment", () => {
  const bad = compileRules([row("*", "pattern", "([", "suspected_fraud", "stop")]);
  assert.equal(classifyWith(bad, "pagosur", "([").mapped, false);
});

test("the contract's 402 code of a stop", () => {
  assert.equal(errorCodeFor("insufficient_funds"), "insufficient_funds");
  assert.equal(errorCodeFor("expired_card"), "expired_card");
  assert.equal(errorCodeFor("suspected_fraud"), "card_declined");
});
