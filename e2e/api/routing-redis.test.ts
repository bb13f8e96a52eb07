// Success-rate routing's window in Redis, in running servers (issue 22: "routing state is shared
// by two instances"). Two production-built servers with REDIS_URL, on their own key prefix, each
// learn from what the other recorded: instance A's errors open a provider's circuit that B then
// skips, and B's errors open another's that A then skips. The window is read from Redis (the
// hashes under the prefix are checked); routing-rules.test.ts covers the PostgreSQL store the
// same way, and lib/routing/store.test.ts two store clients on one Redis.
//
// SPEI (1003), where no other test uses success-rate routing: the servers' outcome rows also go
// to the shared test database, and only success-rate plans read the circuit.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import Redis from "ioredis";
import { api, assertEnvelope, extraServer, newMerchant, waitFor, behave, type Psp } from "./helpers.ts";
import { setRate } from "@/lib/money/rates";
import { db } from "@/lib/platform/db";

const email = () => `rr-${randomUUID().slice(0, 8)}@example.com`;
const spei = (amount: number, userEmail = email()) => ({ amount, paymentMethodId: "1003", userName: "Juan Pérez", userEmail, documentId: "GODE561231GR8" });

const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const prefix = `routing-e2e:${randomUUID()}:`;
const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
let key: string;

before(async () => {
  await setRate("MXN", "18.20", "test");
  key = (await newMerchant()).production.secretKey;
});
after(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
  await db().$disconnect();
});

/** The counters one provider's window holds in Redis (lt50 band for small tickets, lt500 for the others). */
async function counters(provider: string, band: string): Promise<{ a: number; d: number; e: number }> {
  const hash = await redis.hgetall(`${prefix}w:${provider}|1003|${band}`);
  const sum = { a: 0, d: 0, e: 0 };
  for (const [field, v] of Object.entries(hash)) sum[field.split(":")[1] as "a" | "d" | "e"] += Number(v);
  return sum;
}

test("two servers on one Redis share the routing window: each skips a provider whose circuit the other's outcomes opened", async () => {
  // Small tickets: rapidpay then andespay; from 100 USD: andespay then pagosur. No exploration, no fallback.
  const rules = [
    { paymentMethodId: "1003", when: { minAmountUsd: 100 }, strategy: "success_rate", exploration: 0, fallback: false, providers: [{ provider: "andespay" }, { provider: "pagosur" }] },
    { paymentMethodId: "1003", strategy: "success_rate", exploration: 0, fallback: false, providers: [{ provider: "rapidpay" }, { provider: "andespay" }] },
  ];
  const put = await api("/me/routing", { key, method: "PUT", body: { rules } });
  assert.equal(put.status, 200, put.text);
  // A cool-down longer than the test: an open circuit stays open while the other instance looks.
  // Errors from 30 % (andespay also carries the small tickets' answers when its own errors come).
  const env = { ...(process.env as Record<string, string>), REDIS_URL: redisUrl, ROUTING_REDIS_PREFIX: prefix, ROUTING_REFRESH_MS: "100", ROUTING_CIRCUIT_COOLDOWN_MS: "120000", ROUTING_CIRCUIT_ERROR_RATE: "0.3", ROUTING_CIRCUIT_MIN_VOLUME: "5" };
  const [a, b] = await Promise.all([extraServer(env), extraServer(env)]);
  try {
    /** Pays on `base`; the payment's attempts as the API reports them. */
    const pay = async (base: string, body: ReturnType<typeof spei>) => {
      const r = await api("/payments", { key, base, body });
      if (r.status !== 200) return { status: r.status, r, attempts: (r.body?.error?.details?.attempts ?? []) as Array<{ provider: string; outcome: string; routingReason: string }> };
      const got = await api(`/payments/${r.body.transactionId}`, { key });
      return { status: 200, r, attempts: got.body.attempts as Array<{ provider: string; outcome: string; routingReason: string }> };
    };

    /**
     * On `base`, `provider` answers 503 (and `other` declines softly, so both are tried) until this
     * instance's own circuit opens and it stops trying `provider`; the errors it took.
     */
    const openCircuit = async (base: string, provider: Psp, other: Psp, amount: number) => {
      for (let errors = 0; errors < 12; errors++) {
        const e = email();
        await behave(provider, "error", e);
        await behave(other, "decline", e, "rate_limited");
        const p = await pay(base, spei(amount, e));
        assertEnvelope(p.r, "cascade_exhausted", 422);
        if (!p.attempts.some((x) => x.provider === provider)) return errors;
        // Both tried (in the order Thompson drew: neither has an approval yet).
        assert.deepEqual(p.attempts.map((x) => x.provider).sort(), [provider, other].sort());
      }
      throw new Error(`${provider}'s circuit never opened on ${base}`);
    };

    // A: rapidpay fails until A's circuit opens (at least ROUTING_CIRCUIT_MIN_VOLUME errors).
    const onA = await openCircuit(a.url, "rapidpay", "andespay", 20);
    assert.ok(onA >= 5, `${onA} errors`);
    // The window in Redis holds A's outcomes: rapidpay's errors and the circuit's last error.
    assert.ok((await counters("rapidpay", "lt50")).e >= onA);
    assert.ok(await redis.hget(`${prefix}c:rapidpay|1003`, "lastError"), "rapidpay's last error in Redis");
    /**
     * Pays on `base` until it charges in one attempt, skipping `open` (whose circuit the other
     * instance opened); that attempt. Until this instance's snapshot holds the circuit it may still
     * try `open`: it errs for these buyers too, so an answer cannot close the circuit behind the
     * test's back.
     */
    const skipping = (base: string, open: Psp, amount: number, what: string) =>
      waitFor(async () => {
        const e = email();
        await behave(open, "error", e);
        const p = await pay(base, spei(amount, e));
        return p.status === 200 && p.attempts.length === 1 ? p.attempts[0]! : false;
      }, what, 15_000);

    // B learns it from Redis: rapidpay skipped, one attempt at andespay.
    const onB1 = await skipping(b.url, "rapidpay", 20, "instance B skips rapidpay (circuit opened by A's outcomes)");
    assert.deepEqual([onB1.provider, onB1.routingReason], ["andespay", "success_rate"]);
    assert.ok((await counters("andespay", "lt50")).a >= 1, "B's approval is in the shared window");

    // B: andespay fails on large tickets until B's circuit opens (pagosur declines softly).
    const onB = await openCircuit(b.url, "andespay", "pagosur", 150);
    assert.ok((await counters("andespay", "lt500")).e >= onB);
    // A learns it from Redis: andespay skipped, one attempt at pagosur.
    const onA1 = await skipping(a.url, "andespay", 150, "instance A skips andespay (circuit opened by B's outcomes)");
    assert.deepEqual([onA1.provider, onA1.routingReason], ["pagosur", "success_rate"]);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
});
