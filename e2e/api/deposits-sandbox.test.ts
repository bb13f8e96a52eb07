// Deposit accounts and deposits in the sandbox over real HTTP (API reference 2.7, 2.8, 3.4, 4.6):
// listing with stats, and the sandbox's simulate-deposit crediting a pay-in once per tracking key,
// with the deposits list and the rail's amount rules.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { api, assertEnvelope, newMerchant } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { sk, holder, createAccount, seedRates } from "./deposits-fixtures.ts";

after(() => db().$disconnect());
before(seedRates);

describe("GET /me/deposit-accounts", () => {
  test("newest first, total of the filtered set, limit clamped to 1-200, endUserRef filter, include=stats", async () => {
    const m = await newMerchant();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await createAccount(sk(m), holder())).body.account.id);
    const all = await api("/me/deposit-accounts", { key: sk(m) });
    assert.equal(all.status, 200, all.text);
    assert.deepEqual(all.body.accounts.map((a: any) => a.id), [...ids].reverse());
    assert.deepEqual(all.body.pagination, { total: 4, limit: 50, offset: 0, pages: 1 });
    assert.equal(all.body.accounts[0].stats, undefined, "stats only when asked");

    const page = await api("/me/deposit-accounts?limit=2&offset=1", { key: sk(m) });
    assert.deepEqual(page.body.accounts.map((a: any) => a.id), [ids[2], ids[1]]);
    assert.deepEqual(page.body.pagination, { total: 4, limit: 2, offset: 1, pages: 2 });
    assert.equal((await api("/me/deposit-accounts?limit=0", { key: sk(m) })).body.pagination.limit, 1);
    assert.equal((await api("/me/deposit-accounts?limit=5000", { key: sk(m) })).body.pagination.limit, 200);
    assert.equal((await api("/me/deposit-accounts?limit=abc", { key: sk(m) })).body.pagination.limit, 50);

    const one = (await api(`/me/deposit-accounts/${ids[1]}`, { key: sk(m) })).body.account;
    const filtered = await api(`/me/deposit-accounts?endUserRef=${encodeURIComponent(one.endUserRef)}`, { key: sk(m) });
    assert.deepEqual(filtered.body.accounts.map((a: any) => a.id), [ids[1]]);
    assert.equal(filtered.body.pagination.total, 1);

    await api(`/me/deposit-accounts/${ids[1]}/simulate-deposit`, { key: sk(m), body: { amount: 1820, payerName: "Luis Pérez", payerBank: "BBVA México" } });
    await api(`/me/deposit-accounts/${ids[1]}/simulate-deposit`, { key: sk(m), body: { amount: 910, payerName: "Luis Pérez", payerBank: "BBVA México" } });
    await api(`/me/deposit-accounts/${ids[1]}/simulate-deposit`, { key: sk(m), body: { amount: 1, payerName: "Luis Pérez", payerBank: "BBVA México" } });
    const withStats = await api(`/me/deposit-accounts?include=stats&endUserRef=${encodeURIComponent(one.endUserRef)}`, { key: sk(m) });
    const stats = withStats.body.accounts[0].stats;
    assert.equal(stats.deposits, 3);
    assert.equal(stats.credited, 2);
    assert.equal(stats.totalUsd, 150);
    assert.deepEqual(stats.localTotals, [{ currency: "MXN", amount: 2730 }]);
    assert.ok(stats.lastDepositAt);
    const empty = (await api(`/me/deposit-accounts?include=stats&endUserRef=${encodeURIComponent((await api(`/me/deposit-accounts/${ids[0]}`, { key: sk(m) })).body.account.endUserRef)}`, { key: sk(m) })).body.accounts[0].stats;
    assert.deepEqual(empty, { deposits: 0, credited: 0, totalUsd: 0, localTotals: [], lastDepositAt: null });
    assertEnvelope(await api("/me/deposit-accounts?include=everything", { key: sk(m) }), "invalid_request", 400);
  });
});

describe("deposits (sandbox simulate-deposit)", () => {
  test("a transfer credits a completed pay-in with ledger postings and payment.completed; USD, fee and net are snapshotted; the same trackingKey credits once", async () => {
    const m = await newMerchant({ tier: "premium" });
    const body = holder();
    const a = (await createAccount(sk(m), body)).body.account;
    const transfer = { amount: 1820, payerName: "Luis Pérez", payerBank: "BBVA México", payerDocument: "PEGL800101AB1", trackingKey: "BBVA20261122ABC123", reference: "Factura 77" };
    const r = await api(`/me/deposit-accounts/${a.id}/simulate-deposit`, { key: sk(m), body: transfer });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.created, true);
    const d = r.body.deposit;
    // 1820.00 MXN at 18.20 = 100.00 USD; premium SPEI: 2.4% + 0.30 + 0.6% + 0.10 = 3.40; net 96.60.
    assert.deepEqual(
      { ...d, id: undefined, transactionId: undefined, receivedAt: undefined },
      {
        id: undefined,
        transactionId: undefined,
        receivedAt: undefined,
        depositAccountId: a.id,
        amount: 1820,
        currency: "MXN",
        amountUsd: 100,
        feeUsd: 3.4,
        netUsd: 96.6,
        status: "credited",
        rejectReason: null,
        beneficiaryName: "María López",
        beneficiaryEmail: body.email,
        payerName: "Luis Pérez",
        payerBank: "BBVA México",
        payerDocument: "PEGL800101AB1",
        trackingKey: "BBVA20261122ABC123",
        reference: "Factura 77",
      },
    );
    assert.match(d.id, /^edp_/);
    const payment = await api(`/payments/${d.transactionId}`, { key: sk(m) });
    assert.equal(payment.status, 200, payment.text);
    assert.equal(payment.body.status, "completed");
    assert.equal(payment.body.amount, 100);
    assert.equal(payment.body.amountLocal, 1820);
    assert.equal(payment.body.paymentMethod, "spei");
    assert.deepEqual(payment.body.fees, { platform: 2.7, provider: 0.6, network: 0.1, total: 3.4 });
    const row = await db().transaction.findUniqueOrThrow({ where: { id: d.transactionId } });
    assert.equal(row.userEmail, body.email, "the beneficiary email becomes the transaction's userEmail");
    const events = await db().event.findMany({ where: { merchantId: m.merchantId, type: "payment.completed" } });
    assert.equal(events.length, 1);
    assert.equal((events[0]!.payload as any).data.object.id, d.transactionId);
    const entries = await db().ledgerEntry.findMany({ where: { merchantId: m.merchantId, posting: { transactionId: d.transactionId } } });
    assert.equal(entries.reduce((s, e) => s + e.amount, 0n), 0n, "the posting balances");
    const balance = await api("/me/balance", { key: sk(m) });
    assert.equal(balance.body.balance.pending + balance.body.balance.available, 96.6);
    assert.deepEqual(balance.body.ledgerWarnings, []);

    // The same transfer reported again: one deposit, one transaction, one event.
    const dup = await api(`/me/deposit-accounts/${a.id}/simulate-deposit`, { key: sk(m), body: transfer });
    assert.equal(dup.status, 200, dup.text);
    assert.equal(dup.body.created, false);
    assert.equal(dup.body.deposit.id, d.id);
    assert.equal(await db().transaction.count({ where: { merchantId: m.merchantId } }), 1);
    assert.equal(await db().event.count({ where: { merchantId: m.merchantId, type: "payment.completed" } }), 1);

    // Reported ten times at once: still one deposit.
    const burst = await Promise.all(Array.from({ length: 10 }, () => api(`/me/deposit-accounts/${a.id}/simulate-deposit`, { key: sk(m), body: { ...transfer, trackingKey: "BBVA20261122BURST1" } })));
    assert.deepEqual(burst.map((r) => r.status).sort(), [200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    assert.equal(new Set(burst.map((r) => r.body.deposit.id)).size, 1);
    assert.equal(await db().transaction.count({ where: { merchantId: m.merchantId } }), 2);

    // The snapshot is stored, never re-derived.
    const stored = await db().deposit.findUniqueOrThrow({ where: { id: d.id } });
    assert.deepEqual([stored.amountUsd, stored.feeUsd, stored.netUsd], [10000n, 340n, 9660n]);

    const list = await api(`/me/deposit-accounts/${a.id}/deposits`, { key: sk(m) });
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(list.body.account, { id: a.id, endUserRef: a.endUserRef, clabe: a.clabe, currency: "MXN", status: "active" });
    assert.deepEqual(list.body.deposits.map((x: any) => x.id), [burst[0]!.body.deposit.id, d.id]);
    assert.deepEqual([list.body.stats.deposits, list.body.stats.credited, list.body.stats.totalUsd], [2, 2, 200]);
    assert.equal(list.body.pagination.total, 2);
  });

  test("deposits list newest first with pagination; below the rail minimum a transfer is rejected and credits nothing; amount rules", async () => {
    const m = await newMerchant();
    const a = (await createAccount(sk(m), holder())).body.account;
    const ids: string[] = [];
    for (const amount of [100, 200, 300]) ids.push((await api(`/me/deposit-accounts/${a.id}/simulate-deposit`, { key: sk(m), body: { amount, payerName: "P", payerBank: "B" } })).body.deposit.id);
    const page = await api(`/me/deposit-accounts/${a.id}/deposits?limit=2`, { key: sk(m) });
    assert.deepEqual(page.body.deposits.map((x: any) => x.id), [ids[2], ids[1]]);
    assert.deepEqual(page.body.pagination, { total: 3, limit: 2, offset: 0, pages: 2 });
    assert.equal((await api(`/me/deposit-accounts/${a.id}/deposits?limit=900`, { key: sk(m) })).body.pagination.limit, 200);

    const small = await api(`/me/deposit-accounts/${a.id}/simulate-deposit`, { key: sk(m), body: { amount: 9.99, payerName: "P", payerBank: "B" } });
    assert.equal(small.status, 201, small.text);
    assert.equal(small.body.deposit.status, "rejected");
    assert.equal(small.body.deposit.rejectReason, "below_minimum");
    assert.equal(small.body.deposit.transactionId, null);
    assert.equal(small.body.deposit.amountUsd, null);
    assert.equal(await db().transaction.count({ where: { merchantId: m.merchantId } }), 3);

    for (const amount of [0, -5, "100", 1.234, null]) {
      assertEnvelope(await api(`/me/deposit-accounts/${a.id}/simulate-deposit`, { key: sk(m), body: { amount, payerName: "P", payerBank: "B" } }), "amount_invalid", 400);
    }
    assertEnvelope(await api(`/me/deposit-accounts/${a.id}/simulate-deposit`, { key: sk(m), body: { amount: 100, payerBank: "B" } }), "missing_field", 400);
    assertEnvelope(await api(`/me/deposit-accounts/${a.id}/simulate-deposit`, { key: m.production.secretKey, body: { amount: 100, payerName: "P", payerBank: "B" } }), "production_key_refused", 400);
  });
});
