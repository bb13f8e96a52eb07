// CLABE provisioning in production is row-first (decisions.md "Money leaves at most once"), over
// real HTTP against the simulated provider: timeouts, lost answers, refusals, a provisioning row
// nobody sees, idempotent retries, and concurrent first calls getting one CLABE.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { api, assertEnvelope, newMerchant } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { isValidClabe } from "@/lib/rails/document-rules";
import { setShopDepositMethods } from "@/lib/deposits/set-shop-deposit-methods";
import { setDepositAccountStatus } from "@/lib/deposits/set-account-status";
import { receiveDeposit } from "@/lib/deposits/receive-deposit";
import type { CreatedMerchant } from "@/lib/merchants/create-merchant";
import { holder, createAccount, psp, clabeCalls, seedRates } from "./deposits-fixtures.ts";

after(() => db().$disconnect());
before(seedRates);

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
