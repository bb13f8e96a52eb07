// EBANX payouts end to end over HTTP, run by providers-ebanx.test.ts on its server (POST /me/payout/send,
// first for po_br_pix and po_mx_spei): create + commit at /ws/payout/*, the signed notice read
// back with /ws/payout/retrieve, a payout to a PIX key and one to a CLABE paid, one refused (the
// debit reversed), one whose commit answer is lost and stays processing until EBANX knows.
import { test, describe, before } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { api, newMerchant, waitFor } from "./helpers.ts";
import { control, env, inspect, post } from "./providers-ebanx-env.ts";
import { db } from "@/lib/platform/db";
import { clabeCheckDigit } from "@/lib/rails/document-rules";
import { settleDueBalances } from "@/lib/settlements/settle-balances";
import { setShopDepositMethods } from "@/lib/deposits/set-shop-deposit-methods";

const PAGOSUR = process.env.PROVIDER_PAGOSUR_URL!;
let key: string;
let merchantId: string;

const email = () => `payee-${randomUUID().slice(0, 8)}@example.com`;
const clabe = (first17 = "00218001234567890") => first17 + clabeCheckDigit(first17);
const speiRecipient = (extra: Record<string, unknown> = {}) => ({ name: "Carlos Ruiz", account: clabe(), bankCode: "002", documentId: "GODE561231GR8", documentType: "RFC", email: email(), ...extra });
const pixRecipient = (extra: Record<string, unknown> = {}) => ({ name: "Ana Souza", account: "529.982.247-25", accountType: "CPF", documentId: "52998224725", documentType: "CPF", email: email(), ...extra });
const send = (body: Record<string, unknown>) => api("/me/payout/send", { key, base: env.server.url, body });
const payoutRow = (id: string) => db().payout.findUniqueOrThrow({ where: { id } });
const available = async (currency: string) => (await api("/me/payout/balance", { key, base: env.server.url })).body.balances.find((b: any) => b.currency === currency)?.available;
/** Production payout money: a SPEI deposit (pagosur), settled, moved to the payout balance and swapped. */
async function fundPayouts(shopId: string) {
  await setShopDepositMethods(shopId, { enable: ["dm_spei_pagosur"] });
  const a = await api("/me/deposit-accounts", { key, base: env.server.url, body: { endUserRef: `u-${randomUUID()}`, name: "Pay In", email: email() } });
  assert.ok(a.status === 201 || a.status === 200, a.text);
  const sent = await post(`${PAGOSUR}/_control/deposits`, { clabe: a.body.account.clabe, amount: "728000", payerName: "Payer", payerBank: "Banorte" });
  assert.deepEqual(sent.statuses, [200]);
  await settleDueBalances({ now: new Date(Date.now() + 4 * 86_400_000), merchantId });
  assert.equal((await api("/me/payout/transfer", { key, base: env.server.url, body: { amountUsd: 300 } })).status, 200);
  for (const currency of ["MXN", "BRL"]) {
    const quote = await api(`/me/payout/swap?currency=${currency}&amountUsd=140`, { key, base: env.server.url });
    assert.equal(quote.status, 200, quote.text);
    assert.equal((await api("/me/payout/swap", { key, base: env.server.url, body: { quoteId: quote.body.quoteId } })).status, 200);
  }
}

export function payoutSuite() {
  describe("payouts", () => {
    before(async () => {
      const m = await newMerchant({ tier: "premium" });
      key = m.production.secretKey;
      merchantId = m.merchantId;
      await fundPayouts(m.shopId);
    });

    test("a payout to a PIX key and one to a CLABE: created and committed at EBANX under our payout id, paid by its signed notice", async () => {
      for (const [methodId, recipient, currency] of [["po_br_pix", pixRecipient(), "BRL"], ["po_mx_spei", speiRecipient(), "MXN"]] as const) {
        const before = await available(currency);
        const r = await send({ methodId, amount: 100, recipient });
        assert.equal(r.status, 200, r.text);
        assert.deepEqual([r.body.payout.status, r.body.payout.provider], ["processing", "ebanx"]);
        const at = await inspect(`payouts/${r.body.payout.id}`);
        assert.equal(at.status, "PE"); // committed
        assert.equal(at.request_amount, "100.00");
        assert.equal(r.body.payout.providerRef, at.uid);
        const sentBody = (await inspect("requests?path=/ws/payout/create")).requests.at(-1).body;
        if (methodId === "po_br_pix") assert.deepEqual([sentBody.target, sentBody.target_account, sentBody.payee.document_type], ["pix_key", "52998224725", "CPF"]);
        else assert.deepEqual(sentBody.payee.bank_info, { bank_details: recipient.account });
        const paid = await control(`payouts/${r.body.payout.id}/pay`, { duplicate: true });
        assert.deepEqual(paid.statuses, [200, 200]);
        await waitFor(async () => (await payoutRow(r.body.payout.id)).status === "completed", `the ${methodId} payout completed`, 20_000);
        assert.equal(await available(currency), before - 100);
      }
    });

    test("a payout EBANX refuses (HP-BR-03, invalid PIX key) fails at once and its debit is reversed", async () => {
      const before = await available("BRL");
      const recipient = pixRecipient();
      await control("behaviour", { forEmail: recipient.email, mode: "reject", code: "HP-BR-03", message: "Invalid PIX key" });
      const r = await send({ methodId: "po_br_pix", amount: 50, recipient });
      assert.equal(r.status, 422, r.text);
      assert.equal(r.body.error.code, "payout_dispatch_failed");
      const row = await payoutRow(r.body.error.details.payoutId);
      assert.equal(row.status, "failed");
      assert.equal(await available("BRL"), before);
      assert.equal(await db().ledgerPosting.count({ where: { merchantId, kind: "payout_reversed" } }) >= 1, true);
    });

    test("a payout cancelled after it was committed (CA) fails by its notice, the debit reversed once", async () => {
      const before = await available("MXN");
      const r = await send({ methodId: "po_mx_spei", amount: 40, recipient: speiRecipient() });
      assert.equal(r.status, 200, r.text);
      const reversed = await db().ledgerPosting.count({ where: { merchantId, kind: "payout_reversed" } });
      await control(`payouts/${r.body.payout.id}/reject`, { duplicate: true });
      await waitFor(async () => (await payoutRow(r.body.payout.id)).status === "failed", "the cancelled payout failed", 20_000);
      assert.equal(await available("MXN"), before);
      assert.equal(await db().ledgerPosting.count({ where: { merchantId, kind: "payout_reversed" } }), reversed + 1);
    });

    test("a payout whose commit answer is lost stays processing with its money held until EBANX says; then it completes", async () => {
      const recipient = speiRecipient();
      await control("behaviour", { forEmail: recipient.email, mode: "unknown" });
      const r = await send({ methodId: "po_mx_spei", amount: 30, recipient });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.payout.status, "processing");
      // The status job asks EBANX (PE: still processing); nothing moves.
      await waitFor(async () => (await db().payout.findUniqueOrThrow({ where: { id: r.body.payout.id } })).providerRef, "the status job found the payout at EBANX", 20_000);
      assert.equal((await payoutRow(r.body.payout.id)).status, "processing");
      // Paid, and its notice lost: the status job learns it by asking.
      await control(`payouts/${r.body.payout.id}/pay`, { notify: false });
      await waitFor(async () => (await payoutRow(r.body.payout.id)).status === "completed", "the payout completed by the status job", 30_000);
    });
  });
}
