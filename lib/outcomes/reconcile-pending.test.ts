// Reconciliation against the test database and providers over real HTTP on loopback: a simulated
// pagosur (scripts/psp, the charge of the fresh payment), andespay configured at a server that
// never answers within its timeout (a slow provider), rapidpay not configured at all (a provider
// removed from this instance). The job is driven through its own `now`, so the test says what a
// run claims, not how fast the machine is.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { SIMULATED_PROVIDERS, providerEnv } from "../../scripts/psp/providers.ts";
import { startSimulatedProvider } from "../../scripts/psp/simulator.ts";
import { freePort } from "../../scripts/lib/embedded-db.ts";

// Configuration is read once, at first use: the providers are set before anything reads it.
const [pagosurPort, slowPort] = [await freePort(), await freePort()];
const [pagosur] = SIMULATED_PROVIDERS([pagosurPort, 0, 0], ["rec-pagosur-secret", "unused", "unused"]);
Object.assign(process.env, providerEnv([pagosur!]), { PROVIDER_ANDESPAY_URL: `http://127.0.0.1:${slowPort}`, PROVIDER_ANDESPAY_SECRET: "rec-slow-secret", PROVIDER_ANDESPAY_TIMEOUT_MS: "300" });
delete process.env.PROVIDER_RAPIDPAY_URL;
delete process.env.PROVIDER_RAPIDPAY_SECRET;

const { db } = await import("@/lib/platform/db");
const { newId } = await import("@/lib/platform/ids");
const { createMerchant } = await import("@/lib/merchants/create-merchant");
const { insertTransaction } = await import("@/lib/payments/store");
const { railById } = await import("@/lib/rails/rails");
const { firstCheckAt, reconcilePeriodMs } = await import("@/lib/payments/check-schedule");
const { reconcilePending } = await import("@/lib/outcomes/reconcile-pending");
const { seedPendingFrom } = await import("../../scripts/lib/seed-pending.ts");

let sim: { url: string; stop: () => Promise<void> };
// The slow provider: it takes every request and never answers (our 300 ms timeout ends each call).
const held = new Set<http.ServerResponse>();
let slowLookups = 0;
const slow = http.createServer((_req, res) => {
  slowLookups++;
  held.add(res);
});
const seeded: string[] = [];

before(async () => {
  sim = await startSimulatedProvider(pagosur!);
  await new Promise<void>((ok) => slow.listen(slowPort, "127.0.0.1", () => ok()));
});
after(async () => {
  // Nothing this file seeded stays on the schedule (unit and API tests share one database).
  await db().transaction.deleteMany({ where: { id: { in: seeded }, status: "pending" } });
  for (const r of held) r.destroy();
  slow.closeAllConnections();
  await new Promise((ok) => slow.close(ok));
  await sim.stop();
  await db().$disconnect();
});

const simulator = async (path: string, body: unknown) => {
  const r = await fetch(`${sim.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  assert.equal(r.status, 200, await r.clone().text());
  return r.json() as Promise<any>;
};

test("a fresh payment's first check is not queued behind older due checks (150 of a provider no longer configured, 150 of one that times out): the first claims at its first-check time take it", async (t) => {
  const m = await createMerchant({ name: "Reconcile backlog" });
  const rail = railById("1004")!;
  const templateId = newId("transaction");
  const T = Date.now();
  await db().$transaction((tx) =>
    insertTransaction(
      {
        id: templateId, merchantId: m.merchantId, shopId: m.shopId, environment: "production", status: "expired", amountUsd: 2500n, amountLocal: 45500n, currencyLocal: "MXN",
        inputCurrency: null, inputAmount: null, paymentMethodId: rail.paymentMethodId, method: rail.method, railName: rail.name, country: rail.countryIso3,
        feePlatform: 90n, feeProvider: 63n, feeNetwork: 50n, reserveAmount: 0n, settlementDelay: rail.settlementDelay, provider: "pagosur", providerRef: "template",
        paymentFormUrl: null, instructions: null, hostedCheckout: false, returnUrl: null, merchantOrderId: null, qrOrderId: null, tag1: null, tag2: null, tag3: null,
        userName: "Ana Ruiz", userEmail: "ana@example.com", userPhone: "+525512345678", userIp: null, expiresAt: new Date(T), createdAt: new Date(T - 86_400_000), attempts: [],
        settlementStatus: "pending", settleAt: null, refundedLocal: 0n, pendingDebited: 0n, reserveReleaseAt: null, reserveReleasedAt: null, completedAt: null,
      },
      "18.2",
      tx,
    ),
  );
  seeded.push(templateId);

  // The backlog: old open vouchers (asked before, as every voucher past its first check has been),
  // all due before the fresh payment's first check.
  const day = 86_400_000;
  const backlog = [
    ...Array.from({ length: 150 }, (_, i) => ({ provider: "rapidpay", providerRef: `rapidpay_ch_gone_${i}` })),
    ...Array.from({ length: 150 }, (_, i) => ({ provider: "andespay", providerRef: `andespay_ch_slow_${i}` })),
  ].map((s, i) => ({ id: newId("transaction"), ...s, createdAt: new Date(T - day + i), expiresAt: new Date(T + 2 * day), nextCheckAt: new Date(T - 120_000 + i), checkedAt: new Date(T - 420_000) }));
  // The fresh payment: its buyer has paid, the notice is lost; its first check is due at T.
  const [charge] = (await simulator("/_control/charges/bulk", { charges: [{ reference: "fresh", amount: "45500", currency: "MXN", method: "oxxo", notifyUrl: "http://127.0.0.1:9/unused" }] })).ids as string[];
  await simulator(`/_control/charges/${charge}/paid`, { notify: false });
  const createdAt = new Date(T - firstCheckAt(new Date(0), reconcilePeriodMs()).getTime());
  const fresh = { id: newId("transaction"), provider: "pagosur", providerRef: charge!, createdAt, expiresAt: new Date(T + 2 * day), nextCheckAt: firstCheckAt(createdAt) };
  assert.equal(fresh.nextCheckAt.getTime(), T);
  await seedPendingFrom(templateId, [...backlog, fresh]);
  seeded.push(...backlog.map((b) => b.id), fresh.id);

  // A run at T that makes only its first claims (no budget): the fresh payment is among them.
  const first = await reconcilePending({ now: () => new Date(T), budgetMs: 0 });
  t.diagnostic(`first run: ${JSON.stringify(first)}; slow provider asked ${slowLookups} times`);
  const row = await db().transaction.findUniqueOrThrow({ where: { id: fresh.id } });
  assert.equal(row.status, "completed", "the lost notice found at the payment's first check");

  // A whole run goes on through the rest: every row this instance can ask got its next check; the
  // rows of the provider not configured here were never claimed (no batch of ours holds them).
  const whole = await reconcilePending({ now: () => new Date(T) });
  t.diagnostic(`whole run: ${JSON.stringify(whole)}; slow provider asked ${slowLookups} times`);
  const rows = await db().transaction.findMany({ where: { id: { in: backlog.map((b) => b.id) } }, select: { provider: true, nextCheckAt: true, status: true } });
  const slowRows = rows.filter((r) => r.provider === "andespay");
  assert.ok(slowRows.every((r) => r.status === "pending" && r.nextCheckAt!.getTime() > T), "every slow provider's row asked and rescheduled, still pending (unknown is not failed)");
  assert.ok(slowLookups <= 150, `none asked twice (${slowLookups} lookups reached the slow provider)`);
  const gone = rows.filter((r) => r.provider === "rapidpay");
  assert.deepEqual(gone.map((r) => r.nextCheckAt!.getTime()).sort((a, b) => a - b), backlog.filter((b) => b.provider === "rapidpay").map((b) => b.nextCheckAt.getTime()).sort((a, b) => a - b), "rows of a provider not configured here are never claimed");
});
