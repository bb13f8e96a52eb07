// Reconciliation ("Paid is never lost"): every pending payment has its own next check, and a
// payment's first check is taken before the backlog, so open vouchers, however many, and rows
// nobody here can ask (never claimed here) never hide a newer payment whose notice was lost; a
// bare 404 from a status lookup is unknown, not "never received"; the backlog, lag and rows of
// providers not configured here are in /metrics. Deposits to a CLABE still provisioning are held,
// then applied.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { api, assertEnvelope, newMerchant, waitFor, API_URL } from "./helpers.ts";
import { buyerEmail, paymentRow, psp } from "./psp.ts";
import { db } from "@/lib/platform/db";
import { newId } from "@/lib/platform/ids";
import { setRate } from "@/lib/money/rates";
import { setShopDepositMethods } from "@/lib/deposits/set-shop-deposit-methods";
import { sweepProvisioningAccounts } from "@/lib/deposits/sweep-provisioning";
import { seedPendingFrom } from "../../scripts/lib/seed-pending.ts";

const email = () => buyerEmail("rec");
const spei = (buyer: string) => ({ amount: 25, paymentMethodId: "1003", userName: "Juan Pérez", userEmail: buyer, documentId: "GODE561231GR8" });
const row = paymentRow;

before(async () => {
  await setRate("MXN", "18.20", "test");
});
after(() => db().$disconnect());

describe("reconciliation schedules every pending payment", () => {
  test("300 older open vouchers (half of them of a provider not configured here) do not hide a newer payment whose notice was lost", async () => {
    const m = await newMerchant();
    const key = m.production.secretKey;
    const template = await api("/payments", { key, body: spei(email()) });
    assert.equal(template.status, 200, template.text);
    // Open vouchers, older than everything else, asked before and due now: 150 still pending at
    // pagosur, 150 of a provider this instance has no configuration for.
    const now = Date.now();
    const pendingAtPagosur = (await psp("pagosur", "/_control/charges/bulk", { charges: Array.from({ length: 150 }, (_, i) => ({ reference: `seed-${i}`, amount: "45500", currency: "MXN", method: "oxxo", notifyUrl: `${API_URL}/api/v1/providers/pagosur/notifications` })) })).ids as string[];
    const seeded = [
      ...pendingAtPagosur.map((ref) => ({ provider: "pagosur", providerRef: ref })),
      ...Array.from({ length: 150 }, (_, i) => ({ provider: "nowhere", providerRef: `nowhere_ch_${i}` })),
    ].map((s, i) => ({ id: newId("transaction"), ...s, createdAt: new Date(now - 86_400_000 + i), expiresAt: new Date(now + 2 * 86_400_000), nextCheckAt: new Date(s.provider === "nowhere" ? now - 86_400_000 : now - 60_000), checkedAt: new Date(now - 360_000) }));
    await seedPendingFrom(template.body.transactionId, seeded);
    try {
      // A newer payment: the buyer pays, the notice is lost.
      const r = await api("/payments", { key, body: spei(email()) });
      const id = r.body.transactionId;
      await psp("pagosur", `/_control/charges/${(await row(id)).providerRef}/paid`, { notify: false });
      await waitFor(async () => (await row(id)).status === "completed", "the lost notice found by reconciliation", 20_000);
      // The seeded rows this instance can ask were all asked; those of the provider not configured
      // here were never claimed (left due, for an instance that has its configuration).
      const ofPagosur = seeded.filter((s) => s.provider === "pagosur").map((s) => s.id);
      await waitFor(async () => (await db().transaction.count({ where: { id: { in: ofPagosur }, nextCheckAt: { lte: new Date(now) } } })) === 0, "every pagosur row asked and given its next check");
      const ofNowhere = seeded.filter((s) => s.provider === "nowhere").map((s) => s.id);
      assert.equal(await db().transaction.count({ where: { id: { in: ofNowhere }, nextCheckAt: new Date(now - 86_400_000) } }), 150, "never claimed here");
      const metrics = await fetch(`${API_URL}/metrics`, { headers: { authorization: "Bearer test-metrics-token-0123456789" } }).then((x) => x.text());
      for (const g of ["lp_reconcile_backlog", "lp_reconcile_due", "lp_reconcile_lag_seconds", "lp_reconcile_first_check_lag_seconds", "lp_reconcile_unservable", "lp_deposits_held"]) assert.match(metrics, new RegExp(`^${g} \\d`, "m"), g);
      assert.ok(Number(/^lp_reconcile_backlog (\d+)/m.exec(metrics)![1]) >= 300);
      assert.ok(Number(/^lp_reconcile_unservable (\d+)/m.exec(metrics)![1]) >= 150, "the rows nobody here can ask, for an operator");
      // Those rows (due a day ago) are not a lag of this instance's.
      assert.ok(Number(/^lp_reconcile_lag_seconds (\S+)/m.exec(metrics)![1]) < 3_600, "the unservable rows' day-old due time is not counted as lag");
    } finally {
      await db().transaction.deleteMany({ where: { id: { in: seeded.map((s) => s.id) } } });
    }
  });

  test("a bare 404 on a status lookup (a proxy's error page) is unknown: the payment stays pending and is found later", async () => {
    const m = await newMerchant({ tier: "premium" });
    const key = m.production.secretKey;
    const buyer = email();
    for (const p of ["pagosur", "andespay", "rapidpay"] as const) await psp(p, "/_control/behaviour", { mode: "succeed_then_timeout", forEmail: buyer, times: 1 });
    const r = await api("/payments", { key, body: spei(buyer) });
    assertEnvelope(r, "cascade_exhausted", 422);
    const id = r.body.error.details.transactionId as string;
    // Every lookup by our reference meets a proxy's 404 page, once at each provider.
    for (const p of ["pagosur", "andespay", "rapidpay"] as const) await psp(p, "/_control/behaviour", { mode: "bare_404", forReference: id, times: 1 });
    const used = async () => {
      for (const p of ["pagosur", "andespay", "rapidpay"] as const) if ((await psp(p, "/_control/behaviour")).rules.some((x: any) => x.forReference === id)) return false;
      return true;
    };
    // The job shares its ticks with the whole suite's pending production payments (some of whose
    // providers time out): bounded for a busy suite on a loaded machine, not a target.
    await waitFor(used, "reconciliation asked every provider by reference", 90_000);
    const after404 = await row(id);
    assert.equal(after404.status, "pending", "a bare 404 is not 'never received'");
    assert.equal(await db().event.count({ where: { objectId: id, type: "payment.failed" } }), 0);
    // The next lookups are answered: pagosur holds the charge; the buyer paid, its notice lost.
    await psp("pagosur", `/_control/charges/${id}/paid`, { notify: false });
    await waitFor(async () => (await row(id)).status === "completed", "found and completed by reference", 90_000);
    assert.equal((await row(id)).provider, "pagosur");
  });
});

describe("deposits to a CLABE still provisioning", () => {
  const holder = () => ({ endUserRef: `user-${randomUUID().slice(0, 12)}`, name: "María López", email: `holder-${randomUUID().slice(0, 8)}@example.com` });
  const clabes = async (endUserRef: string) => (await psp("pagosur", `/_control/clabes?endUserRef=${encodeURIComponent(endUserRef)}`)).clabes as string[];

  test("a transfer to a CLABE whose answer was lost is held, and credited when the account becomes active (retry, or the sweep); a row never issued is closed", async () => {
    const m = await newMerchant({ tier: "standard" });
    const key = m.production.secretKey;
    await setShopDepositMethods(m.shopId, { enable: ["dm_spei_pagosur"] });
    const deposited = async (accountId: string) => (await api(`/me/deposit-accounts/${accountId}/deposits`, { key })).body.deposits;

    // 1. The provider issued the CLABE, our answer was lost; the end user pays into it at once.
    const a = holder();
    await psp("pagosur", "/_control/behaviour", { mode: "succeed_then_timeout", forEmail: a.email, times: 1 });
    assertEnvelope(await api("/me/deposit-accounts", { key, body: a }), "deposit_account_provisioning_failed", 502);
    const [clabeA] = await clabes(a.endUserRef);
    const sent = await psp("pagosur", "/_control/deposits", { clabe: clabeA, amount: "364000", payerName: "Comercial del Norte", payerBank: "Banorte" });
    assert.deepEqual(sent.statuses, [200], "acknowledged");
    assert.equal(await db().heldDeposit.count({ where: { clabe: clabeA, appliedAt: null } }), 1, "held, not dropped");
    // The merchant retries: the account is active with that CLABE and the held transfer credits.
    const retried = await api("/me/deposit-accounts", { key, body: a });
    assert.equal(retried.status, 201, retried.text);
    assert.equal(retried.body.account.clabe, clabeA);
    const [d] = await waitFor(async () => ((await deposited(retried.body.account.id)) as any[]).length === 1 && deposited(retried.body.account.id), "the held deposit credited");
    assert.deepEqual([d.status, d.amount, d.trackingKey], ["credited", 3640, sent.notice.trackingKey]);
    assert.equal(await db().event.count({ where: { merchantId: m.merchantId, environment: "production", type: "payment.completed" } }), 1);

    // 2. Nobody retries: the sweep asks the provider by reference and activates the row.
    const b = holder();
    await psp("pagosur", "/_control/behaviour", { mode: "succeed_then_error", forEmail: b.email, times: 1 });
    assertEnvelope(await api("/me/deposit-accounts", { key, body: b }), "deposit_account_provisioning_failed", 502);
    const [clabeB] = await clabes(b.endUserRef);
    const sentB = await psp("pagosur", "/_control/deposits", { clabe: clabeB, amount: "182000", payerName: "P", payerBank: "B" });
    assert.deepEqual(sentB.statuses, [200]);
    // 3. And a row the provider never issued (the call timed out before it made anything).
    const c = holder();
    await psp("pagosur", "/_control/behaviour", { mode: "timeout", forEmail: c.email, times: 1 });
    assertEnvelope(await api("/me/deposit-accounts", { key, body: c }), "deposit_account_provisioning_failed", 502);
    assert.deepEqual(await clabes(c.endUserRef), []);

    const swept = await sweepProvisioningAccounts({ abandonedAfterMs: 0 });
    assert.ok(swept.activated >= 1 && swept.closed >= 1, JSON.stringify(swept));
    const rowB = await db().depositAccount.findFirstOrThrow({ where: { merchantId: m.merchantId, endUserRef: b.endUserRef } });
    assert.deepEqual([rowB.status, rowB.clabe], ["active", clabeB]);
    const [dB] = await deposited(rowB.id);
    assert.deepEqual([dB.status, dB.amount], ["credited", 1820]);
    assert.equal(await db().depositAccount.count({ where: { merchantId: m.merchantId, endUserRef: c.endUserRef } }), 0, "closed: nothing was issued there");
    assert.equal(await db().heldDeposit.count({ where: { clabe: { in: [clabeA!, clabeB!] }, appliedAt: null } }), 0);
    // A notice replayed later credits nothing twice.
    assert.equal((await deposited(rowB.id)).length, 1);
  });
});
