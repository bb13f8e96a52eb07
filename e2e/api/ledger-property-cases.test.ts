// Worked cases beside the ledger properties (ledger-property.test.ts): one paid payment settled
// and its reserve released to the cent, no ledgerWarnings while refunds resolve concurrently, a
// second chargeback that does not freeze the payment again, rejected refunds and won chargebacks
// giving back to `pending`, and the verification job catching a ledger changed behind the
// kernel's back.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { api, newMerchant, waitFor } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { settleDueBalances } from "@/lib/settlements/settle-balances";
import { releaseDueReserves } from "@/lib/ledger/release-reserves";
import { resolveDispute } from "@/lib/claims/resolve-dispute";
import { verifyLedger } from "@/lib/ledger/verify";
import { verifyLedgers } from "@/lib/ledger/verify-ledgers";
import { DAY, type Bucket, j } from "./ledger-property-model.ts";

after(() => db().$disconnect());

test("one paid payment: settlement moves exactly the net from pending to available, then the reserve is released", async () => {
  const m = await newMerchant({ tier: "standard" });
  const key = m.sandbox.secretKey;
  const balance = async () => {
    const res = await api("/me/balance", { key });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.ledgerWarnings, []);
    return res.body.balance as Record<Bucket, number>;
  };
  /** The entries of this payment's postings of one kind, as [account, amount] sorted by account. */
  const postingEntries = async (kind: "settlement" | "reserve_release", transactionId: string) =>
    (await db().ledgerEntry.findMany({ where: { merchantId: m.merchantId, posting: { kind, transactionId } }, orderBy: { account: "asc" } })).map((e) => [e.account, e.amount]);

  // 100.00 USD by card (2.90% + 0.10), standard tier (2.9% + 0.30, reserve 5%):
  // fees 2.90 + 0.30 + 2.90 + 0.10 = 6.20; after fees 93.80; reserve 4.69; net 89.11.
  const created = await api("/payments", { key, body: { amount: 100, paymentMethodId: "sbx_card" } });
  assert.ok(created.status === 200 || created.status === 201, created.text);
  const id = created.body.transactionId as string;
  assert.deepEqual(created.body.fees, { platform: 3.2, provider: 2.9, network: 0.1, total: 6.2 });
  assert.equal(created.body.settlement.reserve, 4.69);
  assert.deepEqual(await balance(), { available: 0, pending: 0, frozen: 0, reserve: 0 });

  const paid = await api(`/payments/${id}/simulate`, { key, body: { action: "paid" } });
  assert.equal(paid.status, 200, paid.text);
  assert.equal(paid.body.status, "completed");
  // Card settles T+2; the reserve is held 90 days.
  const row = (await db().transaction.findUnique({ where: { id } }))!;
  assert.equal(row.settleAt!.getTime() - row.completedAt!.getTime(), 2 * DAY);
  assert.equal(row.reserveReleaseAt!.getTime() - row.completedAt!.getTime(), 90 * DAY);
  // Other test files run settlement jobs with a future clock at any moment (never reserve
  // releases): the net is pending or, once settled by one of them, available.
  const afterPaid = await balance();
  assert.ok(
    j(afterPaid) === j({ available: 0, pending: 89.11, frozen: 0, reserve: 4.69 }) || j(afterPaid) === j({ available: 89.11, pending: 0, frozen: 0, reserve: 4.69 }),
    `after paid: ${j(afterPaid)}`,
  );

  await settleDueBalances({ now: new Date(Date.now() + 4 * DAY), merchantId: m.merchantId });
  assert.deepEqual(await balance(), { available: 89.11, pending: 0, frozen: 0, reserve: 4.69 });
  // One settlement posting, of exactly the net.
  assert.deepEqual(await postingEntries("settlement", id), [
    ["available", 8911n],
    ["pending", -8911n],
  ]);
  assert.equal((await api(`/payments/${id}`, { key })).body.settlement.status, "settled");

  // Settling again changes nothing.
  await settleDueBalances({ now: new Date(Date.now() + 4 * DAY), merchantId: m.merchantId });
  assert.deepEqual(await balance(), { available: 89.11, pending: 0, frozen: 0, reserve: 4.69 });
  assert.equal((await postingEntries("settlement", id)).length, 2);

  // Before the 90 days are over the reserve stays.
  await releaseDueReserves({ now: new Date(Date.now() + 89 * DAY), merchantId: m.merchantId });
  assert.deepEqual(await balance(), { available: 89.11, pending: 0, frozen: 0, reserve: 4.69 });
  assert.ok((await releaseDueReserves({ now: new Date(Date.now() + 91 * DAY), merchantId: m.merchantId })) >= 1);
  assert.deepEqual(await balance(), { available: 93.8, pending: 0, frozen: 0, reserve: 0 });
  assert.deepEqual(await postingEntries("reserve_release", id), [
    ["available", 469n],
    ["reserve", -469n],
  ]);
  // Releasing again changes nothing.
  await releaseDueReserves({ now: new Date(Date.now() + 91 * DAY), merchantId: m.merchantId });
  assert.deepEqual(await balance(), { available: 93.8, pending: 0, frozen: 0, reserve: 0 });
  assert.equal((await postingEntries("reserve_release", id)).length, 2);
});

test(
  "GET /me/balance reports no ledgerWarnings while refunds resolve concurrently",
  async () => {
    const m = await newMerchant({ tier: "premium" });
    const key = m.sandbox.secretKey;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const c = await api("/payments", { key, body: { amount: 1000, paymentMethodId: "sbx_card" } });
      assert.ok(c.status === 200 || c.status === 201, c.text);
      ids.push(c.body.transactionId);
      assert.equal((await api(`/payments/${c.body.transactionId}/simulate`, { key, body: { action: "paid" } })).status, 200);
    }
    await settleDueBalances({ now: new Date(Date.now() + 4 * DAY), merchantId: m.merchantId });

    // Refunds of 1.00 one after another (the server's ticker resolves each ~50 ms later) while
    // balance reads run alongside; stop at the first warning or after a bounded number of reads.
    const warnings: string[] = [];
    let stop = false;
    let reads = 0;
    const refunder = (async () => {
      for (let i = 0; !stop && i < 300; i++) {
        const r = await api(`/payments/${ids[i % ids.length]}/refund`, { key, body: { amount: 1 } });
        assert.ok(r.status < 500, r.text);
        if (r.status === 429) break;
      }
    })();
    const reader = async () => {
      while (!stop && reads < 1200) {
        reads++;
        const r = await api("/me/balance", { key });
        assert.ok(r.status < 500, r.text);
        if (r.status === 429) break;
        if (r.body.ledgerWarnings.length) {
          warnings.push(`${j(r.body.ledgerWarnings)} with balance ${j(r.body.balance)}`);
          stop = true;
        }
      }
    };
    await Promise.all([reader(), reader(), reader(), reader()]);
    stop = true;
    await refunder;
    assert.deepEqual(warnings, [], `after ${reads} balance reads`);
  },
);

test(
  "a payment's open claims never freeze more than the payment: a second chargeback does not take the amount again",
  async () => {
    const m = await newMerchant({ tier: "premium" });
    const key = m.sandbox.secretKey;
    const c = await api("/payments", { key, body: { amount: 100, paymentMethodId: "sbx_card" } });
    const id = c.body.transactionId as string;
    assert.equal((await api(`/payments/${id}/simulate`, { key, body: { action: "paid" } })).status, 200);
    assert.equal((await api(`/payments/${id}/simulate`, { key, body: { action: "chargeback" } })).status, 200);
    const second = await api(`/payments/${id}/simulate`, { key, body: { action: "chargeback" } });
    assert.ok(second.status === 200 || second.status === 400, second.text);
    const open = await db().claim.aggregate({ where: { transactionId: id, status: { in: ["open", "pending"] } }, _sum: { amountUsd: true } });
    assert.ok((open._sum.amountUsd ?? 0n) <= 10_000n, `open claims hold ${open._sum.amountUsd} minor units of a 10000 payment`);
    const balance = await api("/me/balance", { key });
    assert.ok(balance.body.balance.frozen <= 100, `frozen ${balance.body.balance.frozen}`);
  },
);

test("a rejected refund and a won chargeback give back to `pending` what they froze from it; settlement then moves the whole net", async () => {
  const m = await newMerchant({ tier: "standard" });
  const key = m.sandbox.secretKey;
  const balance = async () => (await api("/me/balance", { key })).body.balance as Record<Bucket, number>;
  const created = await api("/payments", { key, body: { amount: 100, paymentMethodId: "sbx_card" } });
  const id = created.body.transactionId as string;
  // Settled only by this test: other test files settle with a clock 4 days ahead.
  await db().transaction.update({ where: { id }, data: { settlementDelay: "T+30" } });
  assert.equal((await api(`/payments/${id}/simulate`, { key, body: { action: "paid" } })).status, 200);
  assert.deepEqual(await balance(), { available: 0, pending: 89.11, frozen: 0, reserve: 4.69 });

  // A refund of 10.00 freezes it from pending; the provider rejects it (the sandbox's scheduled
  // confirmation turned into a rejection before it runs: retried with a new refund if the ticker
  // was first).
  await waitFor(async () => {
    const r = await api(`/payments/${id}/refund`, { key, body: { amount: 10 } });
    assert.equal(r.status, 200, r.text);
    const flipped = await db().scheduledAction.updateMany({ where: { claimId: r.body.refundId, state: "pending" }, data: { action: "reject" } });
    if (flipped.count === 0) return false;
    await waitFor(async () => (await db().claim.findUnique({ where: { id: r.body.refundId } }))?.status === "rejected", "the refund to be rejected", 20_000);
    return true;
  }, "a refund rejected by the provider", 30_000);
  const afterRefunds = await balance();
  // Refunds the ticker resolved before the flip left for good; the rejected one came back to pending.
  const resolved = await db().claim.aggregate({ where: { transactionId: id, status: "resolved" }, _sum: { amountUsd: true } });
  const gone = Number(resolved._sum.amountUsd ?? 0n) / 100;
  assert.deepEqual(afterRefunds, { available: 0, pending: Math.round((89.11 - gone) * 100) / 100, frozen: 0, reserve: 4.69 });

  // A chargeback freezes the rest of the captured amount: the unsettled net first, the remainder from available.
  assert.equal((await api(`/payments/${id}/simulate`, { key, body: { action: "chargeback" } })).status, 200);
  const claim = await db().claim.findFirstOrThrow({ where: { transactionId: id, kind: "chargeback" } });
  assert.ok(claim.frozenFromPending > 0n);
  await resolveDispute(claim.id, "won");
  assert.deepEqual(await balance(), afterRefunds);

  await settleDueBalances({ now: new Date(Date.now() + 31 * DAY), merchantId: m.merchantId });
  assert.deepEqual(await balance(), { available: afterRefunds.pending, pending: 0, frozen: 0, reserve: 4.69 });
  const v = await verifyLedger(m.merchantId, "sandbox");
  assert.deepEqual(v.warnings, []);
});

test("the verification job finds a ledger changed behind the kernel's back, and GET /me/balance shows its warnings", async () => {
  const m = await newMerchant({ tier: "premium" });
  const key = m.sandbox.secretKey;
  assert.equal((await api("/me/payout/fund-sandbox", { key, body: { currency: "USD", amount: 50 } })).status, 200);
  await verifyLedgers({ merchantId: m.merchantId, force: true });
  assert.deepEqual((await api("/me/balance", { key })).body.ledgerWarnings, []);
  // An entry written by hand: no running total knows of it, and its posting does not balance.
  const posting = await db().ledgerPosting.findFirstOrThrow({ where: { merchantId: m.merchantId } });
  await db().ledgerEntry.create({ data: { id: `ent_tamper${Date.now()}`, postingId: posting.id, merchantId: m.merchantId, environment: "sandbox", account: "payout_available", currency: "USD", amount: 100n } });
  const checked = await waitFor(async () => (await verifyLedgers({ merchantId: m.merchantId, force: true })).find((c) => c.merchantId === m.merchantId), "the job to check the changed ledger", 30_000);
  assert.deepEqual(checked.warnings.map((w) => w.code).sort(), ["running_total_mismatch", "unbalanced_posting"]);
  const shown = (await api("/me/balance", { key })).body.ledgerWarnings as { code: string }[];
  assert.deepEqual(shown.map((w) => w.code).sort(), ["running_total_mismatch", "unbalanced_posting"]);
  // Checked again with nothing new: nothing to do.
  assert.equal((await verifyLedgers({ merchantId: m.merchantId })).length, 0);
  // The hand-written entry taken out and the ledger checked again: the warnings are gone, and the
  // server-wide lp_ledger_warnings (metrics.test.ts expects 0) is not left counting this test's.
  await db().ledgerEntry.deleteMany({ where: { merchantId: m.merchantId, id: { startsWith: "ent_tamper" } } });
  const mended = (await verifyLedgers({ merchantId: m.merchantId, force: true })).find((c) => c.merchantId === m.merchantId);
  assert.deepEqual(mended?.warnings ?? [], []);
});
