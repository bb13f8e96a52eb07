// Deposits in production over real HTTP (API reference 2.6, 2.8; decisions.md Deposit accounts):
// CLABEs issued by the simulated providers, transfers they report with signed notices (credited
// once per tracking key; forged ones refused), a credited notice checked against its pending report
// (issue 38, point 5), and bounded amounts in notices (issue 38, point 6).
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHmac, randomUUID } from "node:crypto";
import { api, assertEnvelope, newMerchant, tsx } from "./helpers.ts";
import { signedNotice } from "./provider-notices.ts";
import { db } from "@/lib/platform/db";
import { isValidClabe } from "@/lib/rails/document-rules";
import { setShopDepositMethods } from "@/lib/deposits/set-shop-deposit-methods";
import { applyHeldDeposits } from "@/lib/deposits/held-deposits";
import { newId } from "@/lib/platform/ids";
import { email, holder, createAccount, accountCount, psp, seedRates, depositNotice, gauge } from "./deposits-fixtures.ts";

after(() => db().$disconnect());
before(seedRates);

describe("production: provider-issued CLABEs and signed transfer notices", () => {
  test("a CLABE from the provider (bank only when the provider states it); an unusable answer is 502 deposit_account_provisioning_failed and creates nothing", async () => {
    const m = await newMerchant();
    const key = m.production.secretKey;
    assertEnvelope(await createAccount(key, holder()), "deposit_accounts_unavailable", 422);
    await setShopDepositMethods(m.shopId, { enable: ["dm_spei_pagosur", "dm_spei_andespay"] });
    const methods = (await api("/me/deposit-methods", { key })).body.methods.map((x: any) => x.depositMethodId);
    assert.deepEqual(methods, ["dm_spei_pagosur", "dm_spei_andespay"]);

    const viaPagosur = await createAccount(key, holder({ depositMethodId: "dm_spei_pagosur" }));
    assert.equal(viaPagosur.status, 201, viaPagosur.text);
    assert.ok(isValidClabe(viaPagosur.body.account.clabe));
    assert.equal(viaPagosur.body.account.bank, "STP", "stated by the provider");
    assert.equal(viaPagosur.body.account.environment, "production");
    const andes = await createAccount(key, holder({ depositMethodId: "dm_spei_andespay", phone: "+525512345678" }));
    assert.equal(andes.status, 201, andes.text);
    assert.ok(isValidClabe(andes.body.account.clabe));
    assert.equal(andes.body.account.bank, null, "not stated, never inferred from the CLABE's digits");
    const noPhone = await createAccount(key, holder({ depositMethodId: "dm_spei_andespay" }));
    assertEnvelope(noPhone, "invalid_request", 400);
    assert.deepEqual(noPhone.body.error.details.required, ["phone"]);

    const before = await accountCount(m);
    for (const mode of ["garbage", "error", "bad_clabe", "no_page", "decline", "duplicate_clabe"]) {
      const who = email();
      await psp("pagosur", "/_control/behaviour", { mode, forEmail: who, times: 1 });
      const r = await createAccount(key, holder({ email: who, depositMethodId: "dm_spei_pagosur" }));
      assertEnvelope(r, "deposit_account_provisioning_failed", 502);
      assert.equal(r.body.error.details.provider, "pagosur", mode);
    }
    assert.equal(await accountCount(m), before, "no account after any provisioning failure");
  });

  test("a signed transfer notice credits the account; a duplicate credits once; unsigned or forged notices are 401; an unknown CLABE is acknowledged", async () => {
    const m = await newMerchant({ tier: "standard" });
    const key = m.production.secretKey;
    await setShopDepositMethods(m.shopId, { enable: ["dm_spei_pagosur"] });
    const a = (await createAccount(key, holder())).body.account;

    const sent = await psp("pagosur", "/_control/deposits", { clabe: a.clabe, amount: "364000", payerName: "Comercial del Norte", payerBank: "Banorte", duplicate: true });
    assert.deepEqual(sent.statuses, [200, 200]);
    const deposits = await api(`/me/deposit-accounts/${a.id}/deposits`, { key });
    assert.equal(deposits.body.deposits.length, 1);
    const d = deposits.body.deposits[0];
    // 3640.00 MXN at 18.20 = 200.00 USD; standard SPEI: 2.9% + 0.30 + 0.6% + 0.10 = 7.40.
    assert.deepEqual([d.status, d.amount, d.amountUsd, d.feeUsd, d.netUsd, d.payerDocument, d.trackingKey], ["credited", 3640, 200, 7.4, 192.6, null, sent.notice.trackingKey]);
    assert.equal(await db().transaction.count({ where: { merchantId: m.merchantId, status: "completed" } }), 1);
    assert.equal(await db().event.count({ where: { merchantId: m.merchantId, type: "payment.completed" } }), 1);

    // A notice first reported pending credits when the credited report follows.
    const pending = await psp("pagosur", "/_control/deposits", { clabe: a.clabe, amount: "18200", status: "pending", trackingKey: "PEND0001" });
    assert.deepEqual(pending.statuses, [200]);
    const pend = (await api(`/me/deposit-accounts/${a.id}/deposits`, { key })).body.deposits.find((x: any) => x.trackingKey === "PEND0001");
    assert.equal(pend.status, "pending");
    assert.equal(pend.transactionId, null);
    await psp("pagosur", "/_control/deposits", { clabe: a.clabe, amount: "18200", trackingKey: "PEND0001" });
    const credited = (await api(`/me/deposit-accounts/${a.id}/deposits`, { key })).body.deposits.find((x: any) => x.trackingKey === "PEND0001");
    assert.equal(credited.id, pend.id);
    assert.equal(credited.status, "credited");
    assert.equal(credited.amountUsd, 10);

    // A transfer in another currency is recorded, rejected, and credits nothing.
    await psp("pagosur", "/_control/deposits", { clabe: a.clabe, amount: "5000", currency: "USD", trackingKey: "USD0001" });
    const usd = (await api(`/me/deposit-accounts/${a.id}/deposits`, { key })).body.deposits.find((x: any) => x.trackingKey === "USD0001");
    assert.deepEqual([usd.status, usd.rejectReason, usd.transactionId], ["rejected", "currency_mismatch", null]);

    const notice = JSON.stringify({ noticeId: "ntc_forged", clabe: a.clabe, amount: "999900", currency: "MXN", trackingKey: "FORGED1" });
    assertEnvelope(await api("/providers/pagosur/deposits", { raw: notice, headers: { "content-type": "application/json" } }), "invalid_signature", 401);
    assertEnvelope(await api("/providers/pagosur/deposits", { raw: notice, headers: { "content-type": "application/json", "x-provider-signature": createHmac("sha256", "wrong").update(notice).digest("hex") } }), "invalid_signature", 401);
    const signed = (body: string) => signedNotice("pagosur", body)["x-provider-signature"]!;
    const unknown = JSON.stringify({ noticeId: "ntc_unknown", clabe: "646180000000000006", amount: "1000", currency: "MXN", trackingKey: "UNK1" });
    const ack = await api("/providers/pagosur/deposits", { raw: unknown, headers: { "content-type": "application/json", "x-provider-signature": signed(unknown) } });
    assert.equal(ack.status, 200, ack.text);
    assert.deepEqual(ack.body, { received: true, applied: false });
    assert.equal(await db().deposit.count({ where: { depositAccountId: a.id } }), 3);
  });
});
describe("production: a credited notice is checked against its pending report (issue 38, point 5)", () => {
  test("a credited notice that disagrees with its pending report (currency, amount) is held for an operator with both figures, never credited on a mix of them", async () => {
    const m = await newMerchant({ tier: "standard" });
    const key = m.production.secretKey;
    await setShopDepositMethods(m.shopId, { enable: ["dm_spei_pagosur"] });
    const a = (await createAccount(key, holder())).body.account;
    const heldBefore = await gauge("lp_deposits_held_mismatch");
    const deposits = async () => (await api(`/me/deposit-accounts/${a.id}/deposits`, { key })).body.deposits as any[];

    // Pending 3,640.00 MXN, then "credited 364000 USD": was credited $3,640 (the pending amount at the USD rate).
    const p1 = await depositNotice({ clabe: a.clabe, amount: "364000", status: "pending", trackingKey: "MIXCUR1" });
    assert.deepEqual([p1.status, p1.body], [200, { received: true, applied: true }], p1.text);
    const usd = await depositNotice({ clabe: a.clabe, amount: "364000", currency: "USD", trackingKey: "MIXCUR1" });
    assert.deepEqual([usd.status, usd.body], [200, { received: true, applied: false }], usd.text);
    // Pending 1,000.00 MXN, then credited 5,000.00 MXN: was credited 1,000.00 silently.
    await depositNotice({ clabe: a.clabe, amount: "100000", status: "pending", trackingKey: "MIXAMT1" });
    const more = await depositNotice({ clabe: a.clabe, amount: "500000", trackingKey: "MIXAMT1" });
    assert.deepEqual([more.status, more.body], [200, { received: true, applied: false }], more.text);

    for (const d of await deposits()) assert.deepEqual([d.status, d.transactionId, d.amountUsd], ["pending", null, null], d.trackingKey);
    assert.equal(await db().transaction.count({ where: { merchantId: m.merchantId } }), 0, "no pay-in on a mix of figures");
    assert.equal(await db().ledgerPosting.count({ where: { merchantId: m.merchantId } }), 0);
    const held = (await db().heldDeposit.findMany({ where: { clabe: a.clabe } })).sort((x, y) => ((x.notice as any).trackingKey < (y.notice as any).trackingKey ? -1 : 1));
    assert.deepEqual(held.map((h) => [(h.notice as any).trackingKey, h.reason, h.pendingAmount, h.pendingCurrency, (h.notice as any).amount, (h.notice as any).currency, h.appliedAt]), [
      ["MIXAMT1", "pending_mismatch", 100000n, "MXN", "500000", "MXN", null],
      ["MIXCUR1", "pending_mismatch", 364000n, "MXN", "364000", "USD", null],
    ]);
    assert.equal(await gauge("lp_deposits_held_mismatch"), (heldBefore ?? NaN) + 2, "counted in /metrics");

    // The operator's list shows both figures of each.
    const listed = JSON.parse(tsx(["scripts/cli.ts", "deposit:held", "--reason", "pending_mismatch", "--json"], {})).held.filter((h: any) => h.clabe === a.clabe);
    assert.deepEqual(listed.map((h: any) => [h.trackingKey, h.pending, h.notice]).sort(), [
      ["MIXAMT1", { amount: "1000.00", currency: "MXN" }, { amount: "5000.00", currency: "MXN" }],
      ["MIXCUR1", { amount: "3640.00", currency: "MXN" }, { amount: "3640.00", currency: "USD" }],
    ]);

    // A credited report that agrees with the pending one still credits it, once.
    const ok = await depositNotice({ clabe: a.clabe, amount: "100000", trackingKey: "MIXAMT1" });
    assert.deepEqual(ok.body, { received: true, applied: true });
    const credited = (await deposits()).find((d) => d.trackingKey === "MIXAMT1");
    assert.deepEqual([credited.status, credited.amount, credited.currency], ["credited", 1000, "MXN"]);
    assert.equal(await db().transaction.count({ where: { merchantId: m.merchantId } }), 1);

    // A notice held while its CLABE was unknown that, applied once the account is active,
    // disagrees with a pending report there: held on, now for an operator (the sweep applies
    // held notices too; whichever applies it, the end is the same).
    await depositNotice({ clabe: a.clabe, amount: "200000", status: "pending", trackingKey: "MIXLATE1" });
    const late = { noticeId: `ntc_${randomUUID()}`, clabe: a.clabe, amount: "250000", currency: "MXN", trackingKey: "MIXLATE1", status: "credited" };
    const id = newId("heldDeposit");
    await db().heldDeposit.create({ data: { id, provider: "pagosur", clabe: a.clabe, noticeId: late.noticeId, notice: late } });
    assert.equal(await applyHeldDeposits(a.id), 0, "nothing applied");
    const row = await db().heldDeposit.findUniqueOrThrow({ where: { id } });
    assert.deepEqual([row.reason, row.pendingAmount, row.pendingCurrency, row.appliedAt], ["pending_mismatch", 200000n, "MXN", null]);
    assert.equal((await deposits()).find((d) => d.trackingKey === "MIXLATE1").status, "pending");
    assert.equal(await db().transaction.count({ where: { merchantId: m.merchantId } }), 1);
  });
});

describe("production: amounts in provider notices are bounded (issue 38, point 6)", () => {
  test("a deposit notice with an amount beyond the bound is 400 invalid_request (param amount) on every retry, never a 500; nothing is recorded as a deposit", async () => {
    const m = await newMerchant();
    await setShopDepositMethods(m.shopId, { enable: ["dm_spei_pagosur"] });
    const a = (await createAccount(m.production.secretKey, holder())).body.account;
    const noticeId = `ntc_${randomUUID()}`;
    for (const amount of ["18446744073709551616", "9223372036854775808", "1000000000000001"]) {
      for (const status of ["credited", "pending"]) {
        for (let retry = 0; retry < 2; retry++) {
          const r = await depositNotice({ noticeId, clabe: a.clabe, amount, status, trackingKey: "HUGE1" });
          assertEnvelope(r, "invalid_request", 400);
          assert.equal(r.body.error.param, "amount");
        }
      }
    }
    assert.equal(await db().deposit.count({ where: { depositAccountId: a.id } }), 0);
    // The bound itself is an amount: credited.
    const max = await depositNotice({ clabe: a.clabe, amount: "1000000000000000", trackingKey: "MAX1" });
    assert.deepEqual([max.status, max.body], [200, { received: true, applied: true }], max.text);
  });
});
