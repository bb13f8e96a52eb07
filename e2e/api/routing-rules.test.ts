// Merchant routing rules over real HTTP (issue 22): GET/PUT /me/routing (validated, versioned,
// per shop), amount and country rules sending payments where they say, a volume split, and
// success-rate routing's state shared by two instances with its circuit opening, half-opening
// and closing.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { api, assertEnvelope, extraServer, newMerchant, waitFor, behave } from "./helpers.ts";
import { setRate } from "@/lib/money/rates";
import { db } from "@/lib/platform/db";

const email = () => `rt-${randomUUID().slice(0, 8)}@example.com`;
const spei = (amount: number, extra: Record<string, unknown> = {}) => ({ amount, paymentMethodId: "1003", userName: "Juan Pérez", userEmail: email(), documentId: "GODE561231GR8", ...extra });

let key: string;
before(async () => {
  for (const [q, r] of [["MXN", "18.20"], ["BRL", "5.40"]] as const) await setRate(q, r, "test");
  key = (await newMerchant()).production.secretKey;
});
after(() => db().$disconnect());

test("GET /me/routing: version 0, no rules, the platform order and the decline codes", async () => {
  const r = await api("/me/routing", { key });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.version, 0);
  assert.deepEqual(r.body.rules, []);
  assert.deepEqual(r.body.platformDefault.find((d: any) => d.paymentMethodId === "1003").providers, ["pagosur", "andespay", "rapidpay"]);
  assert.ok(r.body.declineCodes.some((d: any) => d.code === "suspected_fraud" && d.decision === "stop"));
});

test("PUT /me/routing refuses what cannot route: unknown fields, a provider that does not serve the rail, a split without weights", async () => {
  const bad = async (rules: unknown, param: string | RegExp) => {
    const r = await api("/me/routing", { key, method: "PUT", body: { rules } });
    assert.equal(r.status, 400, r.text);
    if (typeof param === "string") assert.equal(r.body.error.param, param);
    else assert.match(r.body.error.param ?? r.body.error.message, param);
  };
  await bad([{ paymentMethodId: "1005", providers: [{ provider: "pagosur" }] }], "rules[0].providers[0].provider");
  await bad([{ paymentMethodId: "1003", strategy: "split", providers: [{ provider: "pagosur" }] }], "rules[0].providers");
  await bad([{ paymentMethodId: "1003", providers: [{ provider: "pagosur" }], colour: "red" }], /rules/);
  await bad([{ paymentMethodId: "1003", when: { minAmountUsd: 10, maxAmountUsd: 5 }, providers: [{ provider: "pagosur" }] }], "rules[0].when.maxAmountUsd");
  assert.equal((await api("/me/routing", { key })).body.version, 0, "nothing was saved");
});

test("PUT /me/routing refuses thresholds with more decimals than USD has: 400 amount_invalid naming the field, nothing saved (issue 38, point 7)", async () => {
  const k = (await newMerchant()).production.secretKey;
  const rule = (when: Record<string, number>) => [{ paymentMethodId: "1003", providers: [{ provider: "rapidpay" }] }, { paymentMethodId: "1003", when, providers: [{ provider: "pagosur" }] }];
  // Both compiled to 0: a minimum that took every payment, a maximum that never matched.
  for (const [when, param] of [[{ minAmountUsd: 500.005 }, "rules[1].when.minAmountUsd"], [{ maxAmountUsd: 1000.001 }, "rules[1].when.maxAmountUsd"], [{ minAmountUsd: 10, maxAmountUsd: 20.5001 }, "rules[1].when.maxAmountUsd"]] as const) {
    const r = await api("/me/routing", { key: k, method: "PUT", body: { rules: rule(when) } });
    assertEnvelope(r, "amount_invalid", 400);
    assert.equal(r.body.error.param, param, r.text);
  }
  assert.equal((await api("/me/routing", { key: k })).body.version, 0, "nothing was saved");
  // Whole cents (and 0) are thresholds as before.
  const ok = await api("/me/routing", { key: k, method: "PUT", body: { rules: [{ paymentMethodId: "1003", when: { minAmountUsd: 0, maxAmountUsd: 1000.01 }, providers: [{ provider: "pagosur" }] }] } });
  assert.equal(ok.status, 200, ok.text);
  assert.deepEqual(ok.body.rules[0].when, { minAmountUsd: 0, maxAmountUsd: 1000.01 });
});

test("amount and country rules send payments where they say; each attempt names the version and the reason", async () => {
  const put = await api("/me/routing", {
    key,
    method: "PUT",
    body: {
      rules: [
        { name: "large to rapidpay", paymentMethodId: "1003", when: { minAmountUsd: 100 }, providers: [{ provider: "rapidpay" }], fallback: false },
        { name: "Brazil first", paymentMethodId: "1003", when: { countries: ["BRA"] }, providers: [{ provider: "pagosur" }] },
        { name: "Mexico to andespay", paymentMethodId: "1003", when: { countries: ["MEX"] }, providers: [{ provider: "andespay" }, { provider: "rapidpay" }] },
      ],
    },
  });
  assert.equal(put.status, 200, put.text);
  assert.equal(put.body.version, 1);
  assert.equal(put.body.rules[0].strategy, "priority", "defaults are filled in");

  const small = await api("/payments", { key, body: spei(25) });
  assert.equal(small.status, 200, small.text);
  const s = await api(`/payments/${small.body.transactionId}`, { key });
  assert.equal(s.body.provider, "andespay");
  assert.deepEqual([s.body.attempts[0].routingVersion, s.body.attempts[0].routingReason], [1, "rule"]);
  assert.equal(s.body.routingVersion, 1);

  const large = await api("/payments", { key, body: spei(150) });
  assert.equal(large.status, 200, large.text);
  assert.equal((await api(`/payments/${large.body.transactionId}`, { key })).body.provider, "rapidpay");

  // The rule without fallback: rapidpay failing soft ends the cascade there.
  const e = email();
  await behave("rapidpay", "error", e);
  const alone = await api("/payments", { key, body: spei(150, { userEmail: e }) });
  assertEnvelope(alone, "cascade_exhausted", 422);
  assert.deepEqual(alone.body.error.details.attempts.map((a: any) => a.provider), ["rapidpay"]);

  // The listed providers first, then the rail's others as fallback.
  const e2 = email();
  await behave("andespay", "error", e2);
  await behave("rapidpay", "error", e2);
  const fb = await api("/payments", { key, body: spei(25, { userEmail: e2 }) });
  assert.equal(fb.status, 200, fb.text);
  assert.deepEqual((await api(`/payments/${fb.body.transactionId}`, { key })).body.attempts.map((a: any) => [a.provider, a.routingReason]), [["andespay", "rule"], ["rapidpay", "rule"], ["pagosur", "fallback"]]);

  // Rules are per shop: another merchant's payments keep the platform order.
  const other = (await newMerchant()).production.secretKey;
  const o = await api("/payments", { key: other, body: spei(25) });
  assert.equal((await api(`/payments/${o.body.transactionId}`, { key: other })).body.attempts[0].routingReason, "fallback");
});

test("every change is a new version; a 70/30 split lands near its weights", async () => {
  const put = await api("/me/routing", { key, method: "PUT", body: { rules: [{ paymentMethodId: "1006", strategy: "split", providers: [{ provider: "rapidpay", weight: 70 }, { provider: "pagosur", weight: 30 }] }] } });
  assert.equal(put.status, 200, put.text);
  assert.equal(put.body.version, 2);
  assert.equal((await api("/me/routing", { key })).body.version, 2);
  const first = new Map<string, number>();
  const N = 60;
  for (let i = 0; i < N; i++) {
    const r = await api("/payments", { key, body: { amount: 20, paymentMethodId: "1006", userEmail: email() } });
    assert.equal(r.status, 200, r.text);
    const got = await api(`/payments/${r.body.transactionId}`, { key });
    assert.equal(got.body.attempts[0].routingReason, "split");
    first.set(got.body.provider, (first.get(got.body.provider) ?? 0) + 1);
  }
  // 60 draws at p = 0.7: 42 expected, sd 3.5; ±4 points is the seeded unit test's, here ±5 sd.
  const rapid = first.get("rapidpay") ?? 0;
  assert.ok(rapid >= 25 && rapid <= 58, `rapidpay first on ${rapid} of ${N}`);
});

test("success-rate state is shared by two instances; the circuit opens, half-opens after its cool-down and closes when the provider answers", async () => {
  // Card (Mexico): rapidpay and andespay; no other test routes it.
  const put = await api("/me/routing", { key, method: "PUT", body: { rules: [{ paymentMethodId: "1007", strategy: "success_rate", exploration: 0, providers: [{ provider: "rapidpay" }, { provider: "andespay" }] }] } });
  assert.equal(put.status, 200, put.text);
  const card = (userEmail: string) => ({ amount: 20, paymentMethodId: "1007", userEmail });
  // A cool-down long enough for a loaded machine to see the open state before the probe.
  const b = await extraServer({ ...(process.env as Record<string, string>), ROUTING_CIRCUIT_COOLDOWN_MS: "20000", ROUTING_REFRESH_MS: "100" });
  try {
    const onB = (path: string, opts: Parameters<typeof api>[1]) => fetch(`${b.url}/api/v1${path}`, { method: opts?.body ? "POST" : "GET", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: opts?.body ? JSON.stringify(opts.body) : undefined }).then(async (r) => ({ status: r.status, body: await r.json() as any }));
    // On this instance: rapidpay answers 503 six times (andespay declines softly, so both are tried).
    for (let i = 0; i < 6; i++) {
      const e = email();
      await behave("rapidpay", "error", e);
      await behave("andespay", "decline", e, "rate_limited");
      const r = await api("/payments", { key, body: card(e) });
      assertEnvelope(r, "cascade_exhausted", 422);
    }
    // The other instance learns it from the shared window: rapidpay is skipped (one attempt, andespay).
    const skipped = await waitFor(async () => {
      const r = await onB("/payments", { body: card(email()) });
      if (r.status !== 200) return false;
      const got = await api(`/payments/${r.body.transactionId}`, { key });
      return got.body.attempts.length === 1 && got.body.provider === "andespay" ? got.body : false;
    }, "instance B skips rapidpay (circuit open)", 15_000);
    assert.equal(skipped.attempts[0].routingReason, "success_rate");
    // After the cool-down, one payment probes rapidpay first; it answers, and the circuit closes.
    const probe = await waitFor(async () => {
      const r = await onB("/payments", { body: card(email()) });
      if (r.status !== 200) return false;
      const got = await api(`/payments/${r.body.transactionId}`, { key });
      return got.body.attempts[0].provider === "rapidpay" ? got.body : false;
    }, "a half-open probe to rapidpay", 45_000);
    assert.deepEqual([probe.attempts[0].outcome, probe.attempts[0].routingReason], ["accepted", "exploration"]);
    // Closed everywhere: this instance tries rapidpay again (andespay declining softly for this buyer).
    await waitFor(async () => {
      const e = email();
      await behave("andespay", "decline", e, "rate_limited");
      const r = await api("/payments", { key, body: card(e) });
      return r.status === 200 && (await api(`/payments/${r.body.transactionId}`, { key })).body.provider === "rapidpay";
    }, "rapidpay routed again on instance A", 20_000);
  } finally {
    await b.stop();
  }
});
