// Deposit accounts (CLABE) over real HTTP (API reference 2.6, 2.7, 7, 8; decisions.md Deposit
// accounts): deposit methods per shop and the credentials that may use them, get-or-create with
// every rule and error code, 50 concurrent get-or-create calls giving one account, and a disabled
// account that still answers and accepts transfers.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { api, assertEnvelope, newMerchant } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { isValidClabe } from "@/lib/rails/document-rules";
import { createMerchantWideKeys } from "@/lib/merchants/manage-keys";
import { setShopDepositMethods } from "@/lib/deposits/set-shop-deposit-methods";
import { setDepositAccountStatus } from "@/lib/deposits/set-account-status";
import { sk, ref, email, holder, createAccount, accountCount, seedRates } from "./deposits-fixtures.ts";

after(() => db().$disconnect());
before(seedRates);

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
