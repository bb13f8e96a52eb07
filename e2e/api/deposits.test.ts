// Deposit accounts (CLABE) and deposits over real HTTP (API reference 2.6-2.8, 3.4, 4.6, 7, 8;
// decisions.md Deposit accounts): deposit methods per shop, get-or-create with every rule and
// error code, 50 concurrent get-or-create calls giving one account, listing and stats, the
// sandbox's simulate-deposit, and in production CLABEs issued by the simulated providers and
// transfers they report with signed notices (credited once per tracking key).
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHmac, randomUUID } from "node:crypto";
import { API_URL, api, assertEnvelope, newMerchant, tsx } from "./helpers.ts";
import { signedNotice } from "./provider-notices.ts";
import { db } from "@/lib/platform/db";
import { setRate } from "@/lib/money/rates";
import { isValidClabe } from "@/lib/rails/document-rules";
import { createMerchantWideKeys } from "@/lib/merchants/manage-keys";
import { setShopDepositMethods } from "@/lib/deposits/set-shop-deposit-methods";
import { setDepositAccountStatus } from "@/lib/deposits/set-account-status";
import { receiveDeposit } from "@/lib/deposits/receive-deposit";
import { applyHeldDeposits } from "@/lib/deposits/held-deposits";
import { newId } from "@/lib/platform/ids";
import type { CreatedMerchant } from "@/lib/merchants/create-merchant";

after(() => db().$disconnect());

const PSP = { pagosur: process.env.PROVIDER_PAGOSUR_URL!, andespay: process.env.PROVIDER_ANDESPAY_URL! };
type Psp = keyof typeof PSP;

const sk = (m: CreatedMerchant) => m.sandbox.secretKey;
const ref = () => `user-${randomUUID().slice(0, 12)}`;
const email = () => `holder-${randomUUID().slice(0, 8)}@example.com`;
const holder = (extra: Record<string, unknown> = {}) => ({ endUserRef: ref(), name: "María López", email: email(), ...extra });
const createAccount = (key: string, body: Record<string, unknown>) => api("/me/deposit-accounts", { key, body });
// Usable accounts: a row still `provisioning` (no CLABE yet, after an unknown provider answer) is not one.
const accountCount = (m: CreatedMerchant) => db().depositAccount.count({ where: { merchantId: m.merchantId, status: { not: "provisioning" } } });

async function psp(p: Psp, path: string, body: unknown) {
  const r = await fetch(`${PSP[p]}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  assert.equal(r.status, 200, `${path}: ${await r.clone().text()}`);
  return r.json() as Promise<any>;
}

/** What the simulated provider was asked for this end user: requests, our references, CLABEs it issued. */
async function clabeCalls(p: Psp, endUserRef: string): Promise<{ requests: number; references: string[]; clabes: string[] }> {
  const r = await fetch(`${PSP[p]}/_control/clabes?endUserRef=${encodeURIComponent(endUserRef)}`);
  assert.equal(r.status, 200);
  return r.json() as Promise<any>;
}

before(async () => {
  // Production FX rates are a table shared by every test file; these are the values the other
  // files seed too.
  await setRate("MXN", "18.20", "test");
});

describe("deposit methods and credentials", () => {
  test("GET /me/deposit-methods: the sandbox SPEI method by default; the shop's overrides change it; an empty list means create is 422 deposit_accounts_unavailable", async () => {
    const m = await newMerchant();
    const r = await api("/me/deposit-methods", { key: sk(m) });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { methods: [{ depositMethodId: "sbx_dm_spei", method: "spei", name: "SPEI (test)", country: "MEX", currency: "MXN" }] });

    await setShopDepositMethods(m.shopId, { enable: ["sbx_dm_spei_kyc"] });
    assert.deepEqual((await api("/me/deposit-methods", { key: sk(m) })).body.methods.map((x: any) => x.depositMethodId), ["sbx_dm_spei", "sbx_dm_spei_kyc"]);

    await setShopDepositMethods(m.shopId, { disable: ["sbx_dm_spei", "sbx_dm_spei_kyc"] });
    assert.deepEqual((await api("/me/deposit-methods", { key: sk(m) })).body, { methods: [] });
    const none = await createAccount(sk(m), holder());
    assertEnvelope(none, "deposit_accounts_unavailable", 422);
    assert.equal(await accountCount(m), 0);

    // Production methods are off until the operator enables them.
    assert.deepEqual((await api("/me/deposit-methods", { key: m.production.secretKey })).body, { methods: [] });
  });

  test("a merchant-wide credential gets 400 invalid_request on every deposit endpoint; a publishable key 403", async () => {
    const m = await newMerchant();
    const wide = await createMerchantWideKeys({ merchantId: m.merchantId, environment: "sandbox" });
    const own = await createAccount(sk(m), holder());
    assert.equal(own.status, 201, own.text);
    const id = own.body.account.id;
    for (const [path, body] of [
      ["/me/deposit-methods", undefined],
      ["/me/deposit-accounts", holder()],
      ["/me/deposit-accounts", undefined],
      [`/me/deposit-accounts/${id}`, undefined],
      [`/me/deposit-accounts/${id}/deposits`, undefined],
      [`/me/deposit-accounts/${id}/simulate-deposit`, { amount: 100, payerName: "A B", payerBank: "BBVA" }],
    ] as const) {
      assertEnvelope(await api(path, { key: wide.secretKey, body }), "invalid_request", 400);
    }
    assertEnvelope(await api("/me/deposit-methods", { key: m.sandbox.publishableKey }), "key_kind_not_allowed", 403);
    assert.equal(await accountCount(m), 1);
  });
});

describe("POST /me/deposit-accounts (get-or-create)", () => {
  test("creates (201, created true) a valid, fixed CLABE; the same endUserRef answers 200 created false with the same account, even without email", async () => {
    const m = await newMerchant();
    const body = holder({ phone: "+525512345678", documentType: "RFC", documentId: "LOMM800101AB1", country: "mx", metadata: { crmId: "42", tier: "gold" } });
    const r = await createAccount(sk(m), body);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.created, true);
    const a = r.body.account;
    assert.match(a.id, /^eda_/);
    assert.ok(isValidClabe(a.clabe), `${a.clabe} has a valid check digit`);
    assert.deepEqual(
      { ...a, id: undefined, clabe: undefined, createdAt: undefined, updatedAt: undefined },
      {
        id: undefined,
        clabe: undefined,
        createdAt: undefined,
        updatedAt: undefined,
        endUserRef: body.endUserRef,
        depositMethodId: "sbx_dm_spei",
        bank: null,
        currency: "MXN",
        country: "MEX",
        methodName: "SPEI (test)",
        beneficiary: { name: "María López", email: body.email },
        customer: { name: "María López", email: body.email, phone: "+525512345678", documentType: "RFC", documentId: "LOMM800101AB1", country: "MX" },
        metadata: { crmId: "42", tier: "gold" },
        status: "active",
        environment: "sandbox",
      },
    );

    const again = await createAccount(sk(m), { endUserRef: body.endUserRef, name: "Someone Else" });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.created, false);
    assert.equal(again.body.account.id, a.id);
    assert.equal(again.body.account.clabe, a.clabe, "the CLABE never changes");
    assert.equal(again.body.account.beneficiary.name, "María López", "an existing account is returned as it is");
    assert.equal(await accountCount(m), 1);

    // Another shop's (merchant's) end user with the same ref gets its own account.
    const other = await newMerchant();
    const theirs = await createAccount(sk(other), { ...body });
    assert.equal(theirs.status, 201);
    assert.notEqual(theirs.body.account.clabe, a.clabe);
    // ...and cannot see this one.
    assertEnvelope(await api(`/me/deposit-accounts/${a.id}`, { key: sk(other) }), "deposit_account_not_found", 404);
    assertEnvelope(await api(`/me/deposit-accounts/${a.id}/deposits`, { key: sk(other) }), "deposit_account_not_found", 404);
    assertEnvelope(await api(`/me/deposit-accounts/eda_unknown`, { key: sk(m) }), "deposit_account_not_found", 404);
    // Sandbox and production never mix.
    assertEnvelope(await api(`/me/deposit-accounts/${a.id}`, { key: m.production.secretKey }), "deposit_account_not_found", 404);
  });

  test("missing required fields: 400 invalid_request with details.required, nothing created", async () => {
    const m = await newMerchant();
    const noEmail = await createAccount(sk(m), { endUserRef: ref(), name: "Ana Ruiz" });
    assertEnvelope(noEmail, "invalid_request", 400);
    assert.deepEqual(noEmail.body.error.details.required, ["email"]);
    const nothing = await createAccount(sk(m), {});
    assertEnvelope(nothing, "invalid_request", 400);
    assert.deepEqual(nothing.body.error.details.required, ["endUserRef", "name"]);
    const noName = await createAccount(sk(m), { endUserRef: ref(), email: email() });
    assert.deepEqual(noName.body.error.details.required, ["name"]);
    // A setup that needs more (the KYC test method wants phone and documentId).
    await setShopDepositMethods(m.shopId, { enable: ["sbx_dm_spei_kyc"], disable: ["sbx_dm_spei"] });
    const kyc = await createAccount(sk(m), holder());
    assertEnvelope(kyc, "invalid_request", 400);
    assert.deepEqual(kyc.body.error.details.required, ["phone", "documentId"]);
    assert.equal(await accountCount(m), 0);
    const ok = await createAccount(sk(m), holder({ phone: "+525512345678", documentId: "LOMM800101AB1" }));
    assert.equal(ok.status, 201, ok.text);
    assert.equal(ok.body.account.depositMethodId, "sbx_dm_spei_kyc");
  });

  test("limits: endUserRef 200, name 200, phone 40, documentType 20, documentId 60, metadata 20 entries of at most 500 chars; country must be ISO-2/3", async () => {
    const m = await newMerchant();
    const bad: Array<Record<string, unknown>> = [
      holder({ endUserRef: "x".repeat(201) }),
      holder({ name: "n".repeat(201) }),
      holder({ phone: "1".repeat(41) }),
      holder({ documentType: "d".repeat(21) }),
      holder({ documentId: "9".repeat(61) }),
      holder({ email: "not-an-email" }),
      holder({ country: "MEXICO" }),
      holder({ metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, "v"])) }),
      holder({ metadata: { note: "v".repeat(501) } }),
      holder({ metadata: { n: 5 } }),
    ];
    for (const body of bad) assertEnvelope(await createAccount(sk(m), body), "invalid_request", 400);
    assert.equal(await accountCount(m), 0);
    const edge = await createAccount(sk(m), holder({ endUserRef: "r".repeat(200), metadata: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, "v".repeat(500)])) }));
    assert.equal(edge.status, 201, edge.text);
    assert.equal(Object.keys(edge.body.account.metadata).length, 20);
  });

  test("two methods: 422 deposit_method_required without depositMethodId; an id not enabled is 422 deposit_method_unavailable; several accounts for one endUserRef is 409 deposit_account_conflict", async () => {
    const m = await newMerchant();
    await setShopDepositMethods(m.shopId, { enable: ["sbx_dm_spei_kyc"] });
    const kycFields = { phone: "+525512345678", documentId: "LOMM800101AB1" };
    const user = holder(kycFields);
    const required = await createAccount(sk(m), user);
    assertEnvelope(required, "deposit_method_required", 422);
    assert.deepEqual(required.body.error.details.depositMethods.map((x: any) => x.depositMethodId), ["sbx_dm_spei", "sbx_dm_spei_kyc"]);
    const unavailable = await createAccount(sk(m), { ...user, depositMethodId: "dm_spei_pagosur" });
    assertEnvelope(unavailable, "deposit_method_unavailable", 422);
    assert.deepEqual(unavailable.body.error.details.depositMethods.map((x: any) => x.depositMethodId), ["sbx_dm_spei", "sbx_dm_spei_kyc"]);
    assert.equal(await accountCount(m), 0);

    const a = await createAccount(sk(m), { ...user, depositMethodId: "sbx_dm_spei" });
    const b = await createAccount(sk(m), { ...user, depositMethodId: "sbx_dm_spei_kyc" });
    assert.equal(a.status, 201);
    assert.equal(b.status, 201);
    assert.notEqual(a.body.account.clabe, b.body.account.clabe);
    // With a method named, each is found again.
    assert.equal((await createAccount(sk(m), { ...user, depositMethodId: "sbx_dm_spei_kyc" })).body.account.id, b.body.account.id);
    const conflict = await createAccount(sk(m), user);
    assertEnvelope(conflict, "deposit_account_conflict", 409);
    assert.equal(conflict.body.error.details.accounts.length, 2);
    // Still a conflict with one method left enabled: the accounts exist.
    await setShopDepositMethods(m.shopId, { disable: ["sbx_dm_spei_kyc"] });
    assertEnvelope(await createAccount(sk(m), user), "deposit_account_conflict", 409);
    assert.equal(await accountCount(m), 2);
  });

  test("50 concurrent get-or-create calls for one endUserRef create exactly one account", async () => {
    const m = await newMerchant();
    const body = holder();
    const answers = await Promise.all(Array.from({ length: 50 }, () => createAccount(sk(m), body)));
    const statuses = answers.map((r) => r.status).sort();
    assert.equal(statuses.filter((s) => s === 201).length, 1, `statuses ${statuses.join(",")}`);
    assert.equal(statuses.filter((s) => s === 200).length, 49, `statuses ${statuses.join(",")}`);
    assert.equal(new Set(answers.map((r) => r.body.account.id)).size, 1);
    assert.equal(new Set(answers.map((r) => r.body.account.clabe)).size, 1);
    assert.equal(await db().depositAccount.count({ where: { merchantId: m.merchantId, endUserRef: body.endUserRef } }), 1);
  });

  test("a disabled account (operator action) is still returned by get-or-create and still accepts transfers", async () => {
    const m = await newMerchant();
    const body = holder();
    const a = (await createAccount(sk(m), body)).body.account;
    await setDepositAccountStatus(a.id, "disabled");
    const again = await createAccount(sk(m), body);
    assert.equal(again.status, 200);
    assert.equal(again.body.account.status, "disabled");
    assert.equal(again.body.account.id, a.id);
    const d = await api(`/me/deposit-accounts/${a.id}/simulate-deposit`, { key: sk(m), body: { amount: 500, payerName: "Luis Pérez", payerBank: "BBVA México" } });
    assert.equal(d.status, 201, d.text);
    assert.equal(d.body.deposit.status, "credited");
  });
});

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

/** A deposit notice signed as pagosur signs it (a fresh noticeId unless given); the raw answer. */
async function depositNotice(body: Record<string, unknown>) {
  const raw = JSON.stringify({ noticeId: `ntc_${randomUUID()}`, currency: "MXN", ...body });
  return api("/providers/pagosur/deposits", { raw, headers: signedNotice("pagosur", raw) });
}

/** A gauge of /metrics (shared state: the same on every instance); undefined when it is not there. */
async function gauge(name: string): Promise<number | undefined> {
  const text = await (await fetch(`${API_URL}/metrics`, { headers: { authorization: `Bearer ${process.env.METRICS_TOKEN}` } })).text();
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(" ").pop());
}

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

describe("production: CLABE provisioning is row-first (decisions.md \"Money leaves at most once\")", () => {
  async function productionShop() {
    const m = await newMerchant();
    await setShopDepositMethods(m.shopId, { enable: ["dm_spei_pagosur"] });
    return { m, key: m.production.secretKey };
  }
  const rowsOf = (m: CreatedMerchant, endUserRef: string) => db().depositAccount.findMany({ where: { merchantId: m.merchantId, endUserRef } });

  test("a timeout leaves one provisioning row without a CLABE (502); the retry asks again by the same reference and the end user gets exactly one CLABE", async () => {
    const { m, key } = await productionShop();
    const body = holder();
    await psp("pagosur", "/_control/behaviour", { mode: "timeout", forEmail: body.email, times: 1 });
    const first = await createAccount(key, body);
    assertEnvelope(first, "deposit_account_provisioning_failed", 502);
    assert.equal(first.body.error.details.reason, "provider_timeout");
    const [row, ...more] = await rowsOf(m, body.endUserRef);
    assert.equal(more.length, 0);
    assert.deepEqual([row!.status, row!.clabe, row!.provisioningUntil], ["provisioning", null, null], "committed before the call, released after the unknown answer");

    const retry = await createAccount(key, body);
    assert.equal(retry.status, 201, retry.text);
    assert.equal(retry.body.created, true);
    assert.equal(retry.body.account.id, row!.id, "the row committed before the first call is the account");
    assert.ok(isValidClabe(retry.body.account.clabe));
    assert.equal(retry.body.account.status, "active");
    const again = await createAccount(key, body);
    assert.deepEqual([again.status, again.body.created, again.body.account.clabe], [200, false, retry.body.account.clabe]);

    const calls = await clabeCalls("pagosur", body.endUserRef);
    assert.deepEqual(calls, { requests: 2, references: [row!.id], clabes: [retry.body.account.clabe] }, "asked twice, by one reference, one CLABE issued");
  });

  test("a 5xx (or a lost answer) after the provider issued a CLABE: the retry gets that same CLABE", async () => {
    const { m, key } = await productionShop();
    for (const mode of ["succeed_then_error", "succeed_then_timeout"]) {
      const body = holder();
      await psp("pagosur", "/_control/behaviour", { mode, forEmail: body.email, times: 1 });
      assertEnvelope(await createAccount(key, body), "deposit_account_provisioning_failed", 502);
      const issued = await clabeCalls("pagosur", body.endUserRef);
      assert.equal(issued.clabes.length, 1, `${mode}: the provider did issue one`);
      const [row] = await rowsOf(m, body.endUserRef);
      assert.deepEqual([row!.status, row!.clabe], ["provisioning", null], mode);

      const retry = await createAccount(key, body);
      assert.equal(retry.status, 201, retry.text);
      assert.equal(retry.body.account.clabe, issued.clabes[0], `${mode}: the CLABE issued under our reference, not a second one`);
      assert.deepEqual(await clabeCalls("pagosur", body.endUserRef), { requests: 2, references: [row!.id], clabes: issued.clabes }, mode);
    }
  });

  test("an explicit refusal removes the row; the retry starts over with a new reference", async () => {
    const { m, key } = await productionShop();
    const body = holder();
    await psp("pagosur", "/_control/behaviour", { mode: "decline", forEmail: body.email, times: 1 });
    const refused = await createAccount(key, body);
    assertEnvelope(refused, "deposit_account_provisioning_failed", 502);
    assert.equal(refused.body.error.details.reason, "kyc_rejected");
    assert.equal((await rowsOf(m, body.endUserRef)).length, 0, "a refusal leaves nothing behind");

    const retry = await createAccount(key, body);
    assert.equal(retry.status, 201, retry.text);
    const calls = await clabeCalls("pagosur", body.endUserRef);
    assert.equal(calls.requests, 2);
    assert.equal(calls.references.length, 2, "a new account id, so a new reference");
    assert.equal(calls.references[1], retry.body.account.id);
    assert.deepEqual(calls.clabes, [retry.body.account.clabe]);
  });

  test("a provisioning row is invisible (list, GET, deposits, get-or-create never answer it) and cannot be credited", async () => {
    const { m, key } = await productionShop();
    const body = holder();
    await psp("pagosur", "/_control/behaviour", { mode: "error", forEmail: body.email, times: 1 });
    assertEnvelope(await createAccount(key, body), "deposit_account_provisioning_failed", 502);
    const [row] = await rowsOf(m, body.endUserRef);
    assert.equal(row!.status, "provisioning");

    const list = await api(`/me/deposit-accounts?endUserRef=${body.endUserRef}`, { key });
    assert.equal(list.status, 200, list.text);
    assert.deepEqual([list.body.accounts, list.body.pagination.total], [[], 0]);
    assert.equal((await api("/me/deposit-accounts", { key })).body.pagination.total, 0);
    assertEnvelope(await api(`/me/deposit-accounts/${row!.id}`, { key }), "deposit_account_not_found", 404);
    assertEnvelope(await api(`/me/deposit-accounts/${row!.id}/deposits`, { key }), "deposit_account_not_found", 404);
    await assert.rejects(
      receiveDeposit(row!.id, { amount: 364000n, currency: "MXN", trackingKey: "PROV0001", payerName: "P", payerBank: "B", payerDocument: null, reference: null, receivedAt: new Date(), status: "credited" }),
      (e: any) => e.code === "deposit_account_not_found",
    );
    await assert.rejects(setDepositAccountStatus(row!.id, "active"), "an operator cannot switch a provisioning row on");
    assert.equal(await db().deposit.count({ where: { depositAccountId: row!.id } }), 0);
    assert.equal(await db().transaction.count({ where: { merchantId: m.merchantId } }), 0);
    assert.deepEqual([(await db().depositAccount.findUniqueOrThrow({ where: { id: row!.id } })).status], ["provisioning"]);
  });

  test("the same Idempotency-Key after an unknown answer runs again (nothing was bound) and gets the one CLABE", async () => {
    const { key } = await productionShop();
    const body = holder();
    const headers = { "idempotency-key": randomUUID() };
    await psp("pagosur", "/_control/behaviour", { mode: "garbage", forEmail: body.email, times: 1 });
    assertEnvelope(await api("/me/deposit-accounts", { key, body, headers }), "deposit_account_provisioning_failed", 502);
    const retry = await api("/me/deposit-accounts", { key, body, headers });
    assert.equal(retry.status, 201, retry.text);
    const replay = await api("/me/deposit-accounts", { key, body, headers });
    assert.deepEqual([replay.status, replay.headers.get("idempotent-replayed"), replay.body.account.clabe], [201, "true", retry.body.account.clabe]);
    assert.equal((await clabeCalls("pagosur", body.endUserRef)).references.length, 1);
  });

  test("50 concurrent first calls for one end user: one row, one request to the provider, one CLABE for all", async () => {
    const { m, key } = await productionShop();
    const body = holder();
    const answers = await Promise.all(Array.from({ length: 50 }, () => createAccount(key, body)));
    assert.deepEqual([...new Set(answers.map((a) => a.status))].sort(), [200, 201], answers.map((a) => a.text).find((t) => !t.includes("clabe")));
    assert.equal(answers.filter((a) => a.status === 201).length, 1, "exactly one call created it");
    assert.equal(new Set(answers.map((a) => a.body.account.id)).size, 1);
    assert.equal(new Set(answers.map((a) => a.body.account.clabe)).size, 1);
    assert.equal((await rowsOf(m, body.endUserRef)).length, 1);
    const calls = await clabeCalls("pagosur", body.endUserRef);
    assert.deepEqual(calls, { requests: 1, references: [answers[0]!.body.account.id], clabes: [answers[0]!.body.account.clabe] });
  });

  test("10 concurrent first calls while the provider hangs: one request to it, all 502, the row stays provisioning; the next call completes it", async () => {
    const { m, key } = await productionShop();
    const body = holder();
    await psp("pagosur", "/_control/behaviour", { mode: "timeout", forEmail: body.email, times: 1 });
    const answers = await Promise.all(Array.from({ length: 10 }, () => createAccount(key, body)));
    for (const a of answers) assertEnvelope(a, "deposit_account_provisioning_failed", 502);
    assert.equal((await clabeCalls("pagosur", body.endUserRef)).requests, 1, "the others waited for the one asking");
    const [row, ...more] = await rowsOf(m, body.endUserRef);
    assert.deepEqual([more.length, row!.status], [0, "provisioning"]);
    const retry = await createAccount(key, body);
    assert.equal(retry.status, 201, retry.text);
    assert.equal(retry.body.account.id, row!.id);
    assert.deepEqual(await clabeCalls("pagosur", body.endUserRef), { requests: 2, references: [row!.id], clabes: [retry.body.account.clabe] });
  });
});
