// POST /me/payout/send over real HTTP (API reference 2.11, 4.7, 6, 7, 8; decisions.md Payouts):
// debits in the method's currency with the payout, sandbox rails, every refusal and error code,
// Idempotency-Key, 40 parallel sends against a balance of 10 sends, a failure's debit returned
// once, simulation and its events, and the list and get.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { api, assertEnvelope, newMerchant } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { sk, clabe, speiRecipient, pixRecipient, coRecipient, send, balanceOf, fund, simulate, ledger, seedRates } from "./payouts-fixtures.ts";

after(() => db().$disconnect());
before(seedRates);

describe("POST /me/payout/send", () => {
  test("a real rail debits the balance in the method's currency, in the same transaction as the payout; simulate completes it with payout.completed", async () => {
    const m = await newMerchant();
    const key = sk(m);
    await fund(key, "MXN", 1000);
    const r = await send(key, { methodId: "po_mx_spei", amount: 250.75, recipient: speiRecipient() });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.methodName, "SPEI");
    assert.match(r.body.logoUrl, /spei\.svg$/);
    assert.equal(r.body.iconUrl, r.body.logoUrl);
    const p = r.body.payout;
    assert.match(p.id, /^po_/);
    assert.deepEqual(
      [p.methodId, p.methodName, p.method, p.currency, p.amount, p.status, p.provider, p.environment, p.completedAt, p.failureReason, p.recipient],
      ["po_mx_spei", "SPEI", "spei", "MXN", 250.75, "processing", "sandbox", "sandbox", null, null, { name: "Carlos Ruiz", accountLast4: clabe().slice(-4) }],
    );
    assert.deepEqual(await balanceOf(key, "MXN"), { currency: "MXN", available: 749.25, pending: 0, reserved: 250.75 });

    const done = await simulate(key, p.id, "completed");
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.payout.status, "completed");
    assert.ok(done.body.payout.completedAt);
    assert.deepEqual(await balanceOf(key, "MXN"), { currency: "MXN", available: 749.25, pending: 0, reserved: 0 });
    const events = await db().event.findMany({ where: { merchantId: m.merchantId, type: "payout.completed" } });
    assert.equal(events.length, 1);
    const obj = (events[0]!.payload as any).data.object;
    assert.deepEqual([obj.id, obj.status, obj.amount, obj.currency, obj.method], [p.id, "completed", 250.75, "MXN", "spei"]);
    assert.ok(obj.timestamps.created && obj.timestamps.completed);
    // Sandbox payouts never auto-settle; a completed one does not move again.
    assertEnvelope(await simulate(key, p.id, "failed"), "invalid_request", 400);
    assert.deepEqual(await balanceOf(key, "MXN"), { currency: "MXN", available: 749.25, pending: 0, reserved: 0 });
    assertEnvelope(await simulate(m.production.secretKey, p.id, "completed"), "simulate_sandbox_only", 400);
  });

  test("sbx_po_* rails never debit and need no balance; their simulated failure reverses nothing", async () => {
    const m = await newMerchant();
    const key = sk(m);
    const r = await send(key, { methodId: "sbx_po_br_pix", amount: 99.99, recipient: pixRecipient() });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.payout.status, "processing");
    assert.equal(r.body.payout.currency, "BRL");
    assert.deepEqual((await api("/me/payout/balance", { key })).body.balances, [{ currency: "USD", available: 0, pending: 0, reserved: 0 }]);
    const stay = await simulate(key, r.body.payout.id, "processing");
    assert.equal(stay.status, 200);
    assert.equal(stay.body.payout.status, "processing");
    const failed = await simulate(key, r.body.payout.id, "returned");
    assert.equal(failed.body.payout.status, "failed");
    assert.equal(failed.body.payout.failureReason, "returned");
    assert.equal(await db().ledgerPosting.count({ where: { merchantId: m.merchantId } }), 0);
    const ev = await db().event.findMany({ where: { merchantId: m.merchantId, type: "payout.failed" } });
    assert.equal(ev.length, 1);
    assert.equal((ev[0]!.payload as any).data.object.failureReason, "returned");
    for (const [methodId, recipient] of [["sbx_po_mx_spei", speiRecipient()], ["sbx_po_co_bank", coRecipient()], ["sbx_po_pe_bank", coRecipient({ documentType: "DNI", documentId: "12345678" })]] as const) {
      const s = await send(key, { methodId, amount: 10, recipient });
      assert.equal(s.status, 200, `${methodId}: ${s.text}`);
      assert.equal((await simulate(key, s.body.payout.id, "paid")).body.payout.status, "completed");
    }
  });

  test("every refusal: payout_method_unavailable, amount_invalid, currency_not_funded, balance_insufficient (details), invalid recipients per rail; none debits", async () => {
    const m = await newMerchant();
    const key = sk(m);
    assertEnvelope(await send(key, { methodId: "po_xx_nope", amount: 10, recipient: speiRecipient() }), "payout_method_unavailable", 422);
    assertEnvelope(await send(m.production.secretKey, { methodId: "sbx_po_mx_spei", amount: 10, recipient: speiRecipient() }), "payout_method_unavailable", 422);
    assertEnvelope(await send(key, { amount: 10, recipient: speiRecipient() }), "missing_field", 400);
    for (const amount of [0, -10, "10", 1.001, null]) assertEnvelope(await send(key, { methodId: "po_mx_spei", amount, recipient: speiRecipient() }), "amount_invalid", 422);
    const notFunded = await send(key, { methodId: "po_br_pix", amount: 10, recipient: pixRecipient() });
    assertEnvelope(notFunded, "currency_not_funded", 422);
    assert.equal(notFunded.body.error.details.currency, "BRL");

    await fund(key, "MXN", 182);
    const short = await send(key, { methodId: "po_mx_spei", amount: 200.2, recipient: speiRecipient() });
    assertEnvelope(short, "balance_insufficient", 422);
    // 182 MXN = 10 USD available; 18.20 MXN = 1 USD short (sandbox rate 18.20).
    assert.deepEqual(short.body.error.details, { currency: "MXN", available: 182, shortfall: 18.2, availableUsd: 10, shortfallUsd: 1 });

    const refusals: Array<[string, Record<string, unknown> | undefined, string]> = [
      ["po_mx_spei", undefined, "recipient"],
      ["po_mx_spei", speiRecipient({ name: undefined }), "recipient.name"],
      ["po_mx_spei", speiRecipient({ account: clabe().slice(0, 17) + String((Number(clabe()[17]) + 1) % 10) }), "recipient.account"],
      ["po_mx_spei", speiRecipient({ account: "12345" }), "recipient.account"],
      ["po_mx_spei", speiRecipient({ bankCode: undefined }), "recipient.bankCode"],
      ["po_mx_spei", speiRecipient({ bankCode: "012" }), "recipient.bankCode"],
      ["po_mx_spei", speiRecipient({ documentType: "CPF" }), "recipient.documentType"],
      ["po_mx_spei", speiRecipient({ documentId: "NOT-AN-RFC" }), "recipient.documentId"],
      ["po_mx_spei", speiRecipient({ documentId: undefined }), "recipient.documentId"],
      ["sbx_po_br_pix", pixRecipient({ account: "529.982.247-24" }), "recipient.account"],
      ["sbx_po_br_pix", pixRecipient({ accountType: undefined }), "recipient.accountType"],
      ["sbx_po_br_pix", pixRecipient({ accountType: "EMAIL", account: "not-email" }), "recipient.account"],
      ["sbx_po_br_pix", pixRecipient({ accountType: "PHONE", account: "+5411999998888" }), "recipient.account"],
      ["sbx_po_br_pix", pixRecipient({ accountType: "EVP", account: "1234" }), "recipient.account"],
      ["sbx_po_br_pix", pixRecipient({ accountType: "CNPJ", account: "11.222.333/0001-80" }), "recipient.account"],
      ["sbx_po_br_pix", pixRecipient({ documentId: "11111111111" }), "recipient.documentId"],
      ["sbx_po_co_bank", coRecipient({ account: "12-34-ab" }), "recipient.account"],
      ["sbx_po_co_bank", coRecipient({ bankCode: undefined }), "recipient.bankCode"],
      ["sbx_po_co_bank", coRecipient({ accountType: "CURRENT" }), "recipient.accountType"],
      ["sbx_po_co_bank", coRecipient({ documentType: "DNI" }), "recipient.documentType"],
      ["sbx_po_pe_bank", coRecipient({ documentType: "DNI", documentId: "123" }), "recipient.documentId"],
    ];
    for (const [methodId, recipient, path] of refusals) {
      const r = await send(key, { methodId, amount: 10, ...(recipient ? { recipient } : {}) });
      assertEnvelope(r, "invalid_request", 400);
      assert.ok(r.body.error.details.issues.some((i: any) => i.path === path), `${methodId} ${JSON.stringify(recipient)}: expected an issue at ${path}, got ${JSON.stringify(r.body.error.details.issues)}`);
    }
    // Valid variants pass.
    for (const recipient of [
      pixRecipient({ accountType: "EMAIL", account: "ana@example.com" }),
      pixRecipient({ accountType: "PHONE", account: "+5511987654321" }),
      pixRecipient({ accountType: "EVP", account: randomUUID() }),
      pixRecipient({ accountType: "CNPJ", account: "11.222.333/0001-81", documentType: "CNPJ", documentId: "11222333000181" }),
    ]) {
      const ok = await send(key, { methodId: "sbx_po_br_pix", amount: 1, recipient });
      assert.equal(ok.status, 200, `${JSON.stringify(recipient)}: ${ok.text}`);
    }
    assert.equal(await db().payout.count({ where: { merchantId: m.merchantId, debited: true } }), 0);
    assert.deepEqual(await balanceOf(key, "MXN"), { currency: "MXN", available: 182, pending: 0, reserved: 0 });
  });

  test("Idempotency-Key: a retry never sends twice; the same key with another body is 409", async () => {
    const m = await newMerchant();
    const key = sk(m);
    await fund(key, "MXN", 100);
    const body = { methodId: "po_mx_spei", amount: 40, recipient: speiRecipient() };
    const idem = { "idempotency-key": `k-${randomUUID()}` };
    const [a, b] = await Promise.all([send(key, body, idem), send(key, body, idem)]);
    assert.equal(a.status, 200, a.text);
    assert.equal(b.status, 200, b.text);
    assert.equal(a.body.payout.id, b.body.payout.id);
    const c = await send(key, body, idem);
    assert.equal(c.headers.get("idempotent-replayed"), "true");
    assert.equal(c.body.payout.id, a.body.payout.id);
    assertEnvelope(await send(key, { ...body, amount: 41 }, idem), "idempotency_conflict", 409);
    assert.equal(await db().payout.count({ where: { merchantId: m.merchantId } }), 1);
    assert.deepEqual(await balanceOf(key, "MXN"), { currency: "MXN", available: 60, pending: 0, reserved: 40 });
  });

  test("concurrency: a balance of 100 and 40 parallel sends of 10 give exactly 10 payouts and 30 balance_insufficient; the balance ends at 0, never below", async () => {
    const m = await newMerchant();
    const key = sk(m);
    await fund(key, "MXN", 100);
    const answers = await Promise.all(Array.from({ length: 40 }, () => send(key, { methodId: "po_mx_spei", amount: 10, recipient: speiRecipient() })));
    const ok = answers.filter((r) => r.status === 200);
    const insufficient = answers.filter((r) => r.status === 422 && r.body.error.code === "balance_insufficient");
    assert.equal(ok.length, 10, answers.map((r) => r.status).join(","));
    assert.equal(insufficient.length, 30);
    assert.deepEqual(await balanceOf(key, "MXN"), { currency: "MXN", available: 0, pending: 0, reserved: 100 });
    assert.equal(await ledger(m.merchantId, "sandbox", "payout_available", "MXN"), 0n);
    // Never below zero at any point: replaying the postings in commit order never dips.
    const entries = await db().ledgerEntry.findMany({ where: { merchantId: m.merchantId, account: "payout_available", currency: "MXN" }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    let running = 0n;
    for (const e of entries) {
      running += e.amount;
      assert.ok(running >= 0n, `balance went to ${running}`);
    }
    assert.equal(await db().payout.count({ where: { merchantId: m.merchantId } }), 10);
  });

  test("a failed payout's debit comes back exactly once, however often the failure is reported", async () => {
    const m = await newMerchant();
    const key = sk(m);
    await fund(key, "COP", 50000);
    const r = await send(key, { methodId: "po_co_bank", amount: 20000, recipient: coRecipient() });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(await balanceOf(key, "COP"), { currency: "COP", available: 30000, pending: 0, reserved: 20000 });
    const answers = await Promise.all(["failed", "rejected", "refunded", "failed"].map((a) => simulate(key, r.body.payout.id, a)));
    assert.equal(answers.filter((x) => x.status === 200).length, 1, answers.map((x) => x.text).join("\n"));
    assert.equal(answers.filter((x) => x.status === 400).length, 3);
    assert.deepEqual(await balanceOf(key, "COP"), { currency: "COP", available: 50000, pending: 0, reserved: 0 });
    assert.equal(await db().ledgerPosting.count({ where: { merchantId: m.merchantId, kind: "payout_reversed" } }), 1);
    assert.equal(await db().event.count({ where: { merchantId: m.merchantId, type: "payout.failed" } }), 1);
    const got = await api(`/me/payout/send/${r.body.payout.id}`, { key });
    assert.equal(got.body.payout.status, "failed");
    assert.ok(got.body.payout.failureReason);
    assert.ok(got.body.payout.timestamps.failed);
  });

  test("GET /me/payout/send: newest first, status filter, offset envelope; GET one; 404 payout_not_found for unknown or another merchant's", async () => {
    const m = await newMerchant();
    const key = sk(m);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await send(key, { methodId: "sbx_po_mx_spei", amount: 10 + i, recipient: speiRecipient() })).body.payout.id);
    await simulate(key, ids[1]!, "paid");
    const list = await api("/me/payout/send", { key });
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(list.body.data.map((p: any) => p.id), [...ids].reverse());
    assert.deepEqual(list.body.pagination, { total: 3, limit: 50, offset: 0, pages: 1 });
    const completed = await api("/me/payout/send?status=completed", { key });
    assert.deepEqual(completed.body.data.map((p: any) => p.id), [ids[1]]);
    const page = await api("/me/payout/send?limit=1&offset=1", { key });
    assert.deepEqual(page.body.data.map((p: any) => p.id), [ids[1]]);
    assert.equal(page.body.pagination.pages, 3);
    assertEnvelope(await api("/me/payout/send?status=weird", { key }), "invalid_request", 400);
    const one = await api(`/me/payout/send/${ids[0]}`, { key });
    assert.equal(one.status, 200);
    assert.equal(one.body.payout.id, ids[0]);
    assertEnvelope(await api("/me/payout/send/po_unknown", { key }), "payout_not_found", 404);
    const other = await newMerchant();
    assertEnvelope(await api(`/me/payout/send/${ids[0]}`, { key: sk(other) }), "payout_not_found", 404);
    assertEnvelope(await simulate(sk(other), ids[0]!, "paid"), "payout_not_found", 404);
    assertEnvelope(await api(`/me/payout/send/${ids[0]}`, { key: m.production.secretKey }), "payout_not_found", 404);
    assertEnvelope(await api("/me/payout/send", { key: m.sandbox.publishableKey }), "key_kind_not_allowed", 403);
  });
});
