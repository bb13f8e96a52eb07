import { test } from "node:test";
import assert from "node:assert/strict";
import { compileRoutingRules, documentTypeOf, seededRng, selectRoute, successRateOrder, type PaymentFacts } from "./select.ts";
import type { RoutingRule } from "./schema.ts";

const ALL = ["pagosur", "andespay", "rapidpay"];
const facts = (over: Partial<PaymentFacts> = {}): PaymentFacts => ({ paymentMethodId: "1003", amountUsdMinor: 2_500n, country: "MEX", currency: "USD", documentType: "rfc", ...over });
const rule = (r: Partial<RoutingRule> & Pick<RoutingRule, "providers">): RoutingRule => ({ paymentMethodId: "1003", strategy: "priority", fallback: true, ...r });

test("no rule: the rail's platform order, reason fallback, version kept", () => {
  const plan = selectRoute([], 0, facts(), ALL, { rng: seededRng(1) });
  assert.deepEqual(plan.steps, ALL.map((provider) => ({ provider, reason: "fallback" })));
  assert.equal(plan.rule, null);
});

test("a 70/30 split over 2,000 payments lands within ±4 points (seeded)", () => {
  const rules = compileRoutingRules([rule({ strategy: "split", providers: [{ provider: "andespay", weight: 70 }, { provider: "rapidpay", weight: 30 }] })]);
  const rng = seededRng(22);
  let andes = 0;
  for (let i = 0; i < 2000; i++) {
    const plan = selectRoute(rules, 3, facts(), ALL, { rng });
    assert.equal(plan.steps[0]!.reason, "split");
    assert.equal(plan.version, 3);
    if (plan.steps[0]!.provider === "andespay") andes++;
    // The other split provider follows, then the rail's remaining one as fallback.
    assert.deepEqual(plan.steps.map((s) => s.provider).sort(), [...ALL].sort());
    assert.deepEqual(plan.steps[2], { provider: "pagosur", reason: "fallback" });
  }
  const share = (andes / 2000) * 100;
  assert.ok(Math.abs(share - 70) <= 4, `andespay got ${share.toFixed(1)} %`);
});

test("a threshold stored with more decimals than USD has (saved before PUT refused it) compiles to the cents it means, never to 0", () => {
  const [min, max] = compileRoutingRules([rule({ when: { minAmountUsd: 500.005 }, providers: [{ provider: "rapidpay" }] }), rule({ when: { maxAmountUsd: 1000.001 }, providers: [{ provider: "rapidpay" }] })]);
  // "at least 500.005" is at least 500.01; "below 1000.001" is at most 1000.00, below 1000.01.
  assert.deepEqual([min!.minUsd, max!.maxUsd], [50_001n, 100_001n]);
  const at = (r: typeof min, cents: bigint) => selectRoute([r!], 1, facts({ amountUsdMinor: cents }), ALL, { rng: seededRng(1) }).rule;
  assert.deepEqual([at(min, 50_000n), at(min, 50_001n), at(min, 1n)], [null, 0, null], "the minimum does not take every payment");
  assert.deepEqual([at(max, 100_000n), at(max, 100_001n), at(max, 1n)], [0, null, 0], "the maximum still matches below it");
});

test("amount, country, currency and document conditions are evaluated in order; the first match decides", () => {
  const rules = compileRoutingRules([
    rule({ when: { minAmountUsd: 500 }, providers: [{ provider: "rapidpay" }], fallback: false }),
    rule({ when: { countries: ["BRA"] }, providers: [{ provider: "pagosur" }] }),
    rule({ when: { currencies: ["MXN"] }, providers: [{ provider: "andespay" }] }),
    rule({ when: { documentTypes: ["curp"] }, providers: [{ provider: "andespay" }, { provider: "pagosur" }] }),
  ]);
  const first = (f: PaymentFacts) => selectRoute(rules, 1, f, ALL, { rng: seededRng(1) });
  assert.deepEqual(first(facts({ amountUsdMinor: 50_000n })).steps, [{ provider: "rapidpay", reason: "rule" }], "500 USD and up: rapidpay only (no fallback)");
  assert.equal(first(facts({ amountUsdMinor: 49_999n })).rule, null, "below 500 USD and nothing else matching: the platform default");
  assert.equal(first(facts({ currency: "MXN" })).steps[0]!.provider, "andespay");
  assert.deepEqual(first(facts({ documentType: "curp" })).steps.map((s) => s.provider), ["andespay", "pagosur", "rapidpay"]);
  assert.equal(first(facts({ documentType: "curp" })).steps[2]!.reason, "fallback");
  assert.equal(first(facts({ paymentMethodId: "1001" })).rule, null, "another rail: no rule");
});

test("a provider that does not serve the rail (not routable) is left out", () => {
  const rules = compileRoutingRules([rule({ providers: [{ provider: "rapidpay" }, { provider: "andespay" }] })]);
  assert.deepEqual(selectRoute(rules, 1, facts(), ["pagosur", "andespay"], { rng: seededRng(1) }).steps.map((s) => s.provider), ["andespay", "pagosur"]);
});

test("success-rate: the best recent provider first, exploration at its share, open circuits skipped", () => {
  const rules = compileRoutingRules([rule({ strategy: "success_rate", exploration: 0.1, providers: ALL.map((provider) => ({ provider })) })]);
  const score = (p: string) => (p === "andespay" ? { approved: 90, failed: 10 } : p === "rapidpay" ? { approved: 60, failed: 40 } : { approved: 20, failed: 80 });
  const rng = seededRng(7);
  const firsts = new Map<string, number>();
  let explored = 0;
  for (let i = 0; i < 2000; i++) {
    const plan = selectRoute(rules, 2, facts(), ALL, { rng, score });
    firsts.set(plan.steps[0]!.provider, (firsts.get(plan.steps[0]!.provider) ?? 0) + 1);
    if (plan.steps[0]!.reason === "exploration") explored++;
  }
  assert.ok(Math.abs(explored / 2000 - 0.1) < 0.03, `explored ${explored}`);
  assert.ok(firsts.get("andespay")! > 1700, `andespay first ${firsts.get("andespay")}`);
  assert.ok((firsts.get("pagosur") ?? 0) > 20, "the worst provider still gets exploration traffic");
  const open = selectRoute(rules, 2, facts(), ALL, { rng, score, circuit: (p) => (p === "andespay" ? "open" : "closed") });
  assert.deepEqual(open.skipped, ["andespay"]);
  assert.ok(!open.steps.some((s) => s.provider === "andespay"));
  const allOpen = selectRoute(rules, 2, facts(), ALL, { rng, score, circuit: () => "open" });
  assert.equal(allOpen.steps.length, 3, "every circuit open: try them all rather than refuse");
});

test("fixed orders and splits ignore the circuit (it belongs to success-rate routing)", () => {
  const plan = selectRoute([], 0, facts(), ALL, { rng: seededRng(1), circuit: () => "open" });
  assert.equal(plan.steps.length, 3);
  assert.deepEqual(plan.skipped, []);
});

test("Thompson and the sliding window agree on a clear winner; the window's order is deterministic", () => {
  const score = (p: string) => (p === "b" ? { approved: 50, failed: 5 } : { approved: 5, failed: 50 });
  assert.deepEqual(successRateOrder(["a", "b"], score, seededRng(1), "sliding_window"), ["b", "a"]);
  assert.deepEqual(successRateOrder(["a", "b"], score, seededRng(1), "thompson"), ["b", "a"]);
});

test("document types from their shape", () => {
  assert.equal(documentTypeOf("123.456.789-09", "BRA"), "cpf");
  assert.equal(documentTypeOf("11.222.333/0001-81", "BRA"), "cnpj");
  assert.equal(documentTypeOf("GODE561231GR8", "MEX"), "rfc");
  assert.equal(documentTypeOf("GODE561231HDFRRN09", "MEX"), "curp");
  assert.equal(documentTypeOf(undefined, "MEX"), null);
});

test("a half-open provider is probed first", () => {
  const rules = compileRoutingRules([rule({ strategy: "success_rate", exploration: 0, providers: ALL.map((provider) => ({ provider })) })]);
  const plan = selectRoute(rules, 2, facts(), ALL, { rng: seededRng(3), score: () => ({ approved: 10, failed: 0 }), circuit: (p) => (p === "rapidpay" ? "half_open" : "closed") });
  assert.deepEqual(plan.steps[0], { provider: "rapidpay", reason: "exploration" });
});

test("success-rate: a fallen provider's due probe goes first; random exploration skips a fallen provider", () => {
  const rules = compileRoutingRules([rule({ strategy: "success_rate", exploration: 1, providers: ALL.map((provider) => ({ provider })) })]);
  const score = (p: string) => (p === "andespay" ? { approved: 90, failed: 10 } : { approved: 80, failed: 20 });
  const due = selectRoute(rules, 2, facts(), ALL, { rng: seededRng(5), score, fallen: (p) => (p === "pagosur" ? "due" : null) });
  assert.equal(due.steps[0]!.provider, "pagosur");
  assert.equal(due.steps[0]!.reason, "exploration");
  const rng = seededRng(9);
  for (let k = 0; k < 200; k++) {
    const plan = selectRoute(rules, 2, facts(), ALL, { rng, score, fallen: (p) => (p === "pagosur" ? "fallen" : null) });
    assert.notEqual(plan.steps[0]!.provider, "pagosur", "exploration (share 1 here) never picks the fallen provider");
  }
});

test("net_revenue: of two providers whose approval the data cannot tell apart, the cheaper goes first (approval: either)", () => {
  const rules = compileRoutingRules([rule({ strategy: "success_rate", objective: "net_revenue", exploration: 0, providers: [{ provider: "andespay" }, { provider: "rapidpay" }] })]);
  const cost = (p: string) => (p === "andespay" ? { bp: 95, fixedUsdMinor: 10, failedUsdMinor: 10 } : { bp: 55, fixedUsdMinor: 12, failedUsdMinor: 12 });
  // 88 of 100 each: alike.
  const score = () => ({ approved: 88, failed: 12 });
  const rng = seededRng(5);
  let rapid = 0;
  for (let i = 0; i < 200; i++) if (selectRoute(rules, 1, facts(), ALL, { rng, score, cost }).steps[0]!.provider === "rapidpay") rapid++;
  assert.equal(rapid, 200, "the cheaper one every time");
  const approval = compileRoutingRules([rule({ strategy: "success_rate", exploration: 0, providers: [{ provider: "andespay" }, { provider: "rapidpay" }] })]);
  let rapidA = 0;
  for (let i = 0; i < 200; i++) if (selectRoute(approval, 1, facts(), ALL, { rng, score, cost }).steps[0]!.provider === "rapidpay") rapidA++;
  assert.ok(rapidA > 40 && rapidA < 160, `approval: rapidpay first ${rapidA} of 200 (a coin between equals)`);
});

test("net_revenue: a provider a little better but far dearer loses; one clearly better and a little dearer wins", () => {
  const rules = compileRoutingRules([rule({ strategy: "success_rate", objective: "net_revenue", exploration: 0, providers: [{ provider: "andespay" }, { provider: "rapidpay" }] })]);
  const first = (scores: Record<string, { approved: number; failed: number }>, cost: (p: string) => { bp: number; fixedUsdMinor: number; failedUsdMinor: number }, amount = 2_500n) => {
    const rng = seededRng(9);
    const tally = new Map<string, number>();
    for (let i = 0; i < 200; i++) {
      const p = selectRoute(rules, 1, facts({ amountUsdMinor: amount }), ALL, { rng, score: (p) => scores[p]!, cost }).steps[0]!.provider;
      tally.set(p, (tally.get(p) ?? 0) + 1);
    }
    return tally;
  };
  // 91 % against 90 % over thousands of answers, but andespay takes 5 % of the amount more.
  const dear = first({ andespay: { approved: 2730, failed: 270 }, rapidpay: { approved: 2700, failed: 300 } }, (p) => (p === "andespay" ? { bp: 600, fixedUsdMinor: 10, failedUsdMinor: 10 } : { bp: 100, fixedUsdMinor: 10, failedUsdMinor: 10 }));
  assert.ok((dear.get("rapidpay") ?? 0) >= 190, `rapidpay first ${dear.get("rapidpay")} of 200`);
  // 90 % against 84 %, andespay 0.4 % dearer: worth it.
  const better = first({ andespay: { approved: 900, failed: 100 }, rapidpay: { approved: 840, failed: 160 } }, (p) => (p === "andespay" ? { bp: 95, fixedUsdMinor: 10, failedUsdMinor: 10 } : { bp: 55, fixedUsdMinor: 10, failedUsdMinor: 10 }));
  assert.ok((better.get("andespay") ?? 0) >= 190, `andespay first ${better.get("andespay")} of 200`);
});
