// The production run of the ledger property tests (not a test file itself): payouts and refunds
// through the simulated PSP whose answer is lost, refusals, plain successes and the status jobs.
import assert from "node:assert/strict";
import fc from "fast-check";
import { api, waitFor, type ApiOptions, type ApiResponse } from "./helpers.ts";
import { db } from "@/lib/platform/db";
import { toMajor } from "@/lib/money/amount";
import { runScheduledActions } from "@/lib/jobs/run-scheduled-actions";
import { settleDueBalances } from "@/lib/settlements/settle-balances";
import { checkPayoutStatuses } from "@/lib/payouts/check-payout-status";
import { clabeCheckDigit } from "@/lib/rails/document-rules";
import { setShopDepositMethods } from "@/lib/deposits/set-shop-deposit-methods";
import { DAY, kernelChecks, payoutChecks, j } from "./ledger-property-model.ts";

// ---------------------------------------------------------------------------------------------
// Unknown provider outcomes in production (issue 16): payouts and refunds through the simulated
// PSP (pagosur) whose answer is lost after the provider acted (succeed_then_timeout /
// succeed_then_error), explicit refusals, plain successes, and the status jobs that learn the
// outcome by our reference. Each command uses an email (and a CLABE) of its own, so a mode set on
// the simulator hits that command only. After every step the production ledger keeps the same
// invariants as above, also while rows are processing/pending; at the end every row whose answer
// was lost is completed/resolved, its beneficiary paid once and the merchant debited once.

export const PAGOSUR = process.env.PROVIDER_PAGOSUR_URL!;
export type LostMode = "succeed_then_timeout" | "succeed_then_error";
export type ProdMode = LostMode | "decline" | "none";
export type ProdCmd =
  | { kind: "prodSend"; mode: ProdMode; cents: number }
  | { kind: "prodRefund"; mode: ProdMode; percent: number }
  | { kind: "statusJobs" }
  | { kind: "awaitInFlight" };

export const prodModeArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<ProdMode>("succeed_then_timeout", "succeed_then_error") },
  { weight: 1, arbitrary: fc.constant<ProdMode>("decline") },
  { weight: 2, arbitrary: fc.constant<ProdMode>("none") },
);
export const prodCmdArb: fc.Arbitrary<ProdCmd> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("prodSend" as const), mode: prodModeArb, cents: fc.integer({ min: 1_000, max: 60_000 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("prodRefund" as const), mode: prodModeArb, percent: fc.integer({ min: 1, max: 100 }) }) },
  { weight: 2, arbitrary: fc.constant({ kind: "statusJobs" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "awaitInFlight" as const }) },
);

export async function pagosur(path: string, body?: unknown) {
  const r = await fetch(`${PAGOSUR}${path}`, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  assert.equal(r.status, 200, `${path}: ${await r.clone().text()}`);
  return r.json() as Promise<any>;
}
export const uniq = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
export const freshClabe = () => {
  let first17 = "002180";
  for (let i = 0; i < 11; i++) first17 += String(Math.floor(Math.random() * 10));
  return first17 + clabeCheckDigit(first17);
};


export type LostPayout = { id: string; account: string; mode: LostMode };
export type LostRefund = { claimId: string; charge: string; mode: LostMode };

export class ProdRun {
  readonly trace: string[] = [];
  readonly lostPayouts: LostPayout[] = [];
  readonly lostRefunds: LostRefund[] = [];
  /** Payouts sent normally: processing until the provider's PAID notice, sent by `confirmSent`. */
  readonly unconfirmed: string[] = [];
  constructor(
    readonly merchantId: string,
    readonly key: string,
  ) {}

  fail(step: string, message: string): never {
    assert.fail(`after ${step}: ${message}\ntrace:\n${this.trace.join("\n")}`);
  }

  async call(path: string, opts: ApiOptions = {}): Promise<ApiResponse> {
    const res = await api(path, { key: this.key, ...opts });
    if (res.status >= 500) this.fail(path, `answered ${res.status}: ${res.text.slice(0, 500)}`);
    return res;
  }

  /** A completed, settled production SPEI payment through pagosur for `buyer`. */
  async paidPayment(buyer: string, amount: number) {
    const r = await this.call("/payments", { body: { amount, paymentMethodId: "1003", userName: "Juan Pérez", userEmail: buyer, documentId: "GODE561231GR8" } });
    if (r.status !== 200) this.fail("create production payment", `${r.status} ${r.text.slice(0, 300)}`);
    const tx = r.body.transactionId as string;
    const charge = (await db().transaction.findUniqueOrThrow({ where: { id: tx } })).providerRef!;
    await pagosur(`/_control/charges/${charge}/paid`, {});
    await waitFor(async () => (await this.call(`/payments/${tx}`)).body.status === "completed", "the production payment to complete", 20_000);
    await settleDueBalances({ now: new Date(Date.now() + 4 * DAY), merchantId: this.merchantId });
    return { tx, charge };
  }

  /** MXN in the payout balance: a SPEI deposit through pagosur, settled, moved and swapped. */
  async fund(shopId: string) {
    await setShopDepositMethods(shopId, { enable: ["dm_spei_pagosur"] });
    const a = await this.call("/me/deposit-accounts", { body: { endUserRef: `u-${uniq()}`, name: "Pay In", email: `dep-${uniq()}@example.com` } });
    if (a.status !== 201 && a.status !== 200) this.fail("deposit account", a.text.slice(0, 300));
    const sent = await pagosur("/_control/deposits", { clabe: a.body.account.clabe, amount: "364000", payerName: "Payer", payerBank: "Banorte" });
    assert.deepEqual(sent.statuses, [200]);
    await settleDueBalances({ now: new Date(Date.now() + 4 * DAY), merchantId: this.merchantId });
    assert.equal((await this.call("/me/payout/transfer", { body: { amountUsd: 150 } })).status, 200);
    const quote = await this.call("/me/payout/swap?currency=MXN&amountUsd=150");
    assert.equal((await this.call("/me/payout/swap", { body: { quoteId: quote.body.quoteId } })).status, 200);
  }

  async exec(cmd: ProdCmd): Promise<string> {
    switch (cmd.kind) {
      case "prodSend": {
        const who = `po-${uniq()}@example.com`;
        const account = freshClabe();
        if (cmd.mode !== "none") await pagosur("/_control/behaviour", { mode: cmd.mode, forEmail: who, times: 1 });
        const recipient = { name: "Carlos Ruiz", account, bankCode: "002", documentId: "GODE561231GR8", documentType: "RFC", email: who };
        const headers = { "idempotency-key": `k-${uniq()}` };
        const body = { methodId: "po_mx_spei", amount: cmd.cents / 100, recipient };
        const res = await this.call("/me/payout/send", { body, headers });
        const code = res.body?.error?.code;
        if (res.status === 422 && code === "balance_insufficient") return `${cmd.cents / 100} MXN refused: balance_insufficient`;
        if (cmd.mode === "decline") {
          if (!(res.status === 422 && code === "payout_dispatch_failed")) this.fail(`send (decline)`, `expected 422 payout_dispatch_failed, got ${res.status} ${res.text.slice(0, 300)}`);
          return `${cmd.cents / 100} MXN declined ${res.body.error.details.payoutId}`;
        }
        if (res.status !== 200) this.fail(`send ${cmd.mode}`, `unexpected ${res.status} ${res.text.slice(0, 300)}`);
        const id = res.body.payout.id as string;
        if (cmd.mode !== "none") {
          if (res.body.payout.status !== "processing") this.fail(`send ${cmd.mode}`, `expected processing, got ${res.body.payout.status}`);
          // A retry with the same key is the same payout: nothing sent or debited again.
          const retry = await this.call("/me/payout/send", { body, headers });
          if (retry.status !== 200 || retry.body.payout.id !== id) this.fail(`retry ${id}`, `${retry.status} ${retry.text.slice(0, 300)}`);
          this.lostPayouts.push({ id, account, mode: cmd.mode });
        } else this.unconfirmed.push(id);
        return `${cmd.cents / 100} MXN ${cmd.mode} ${id} ${res.body.payout.status}`;
      }
      case "prodRefund": {
        const buyer = `rf-${uniq()}@example.com`;
        const { tx, charge } = await this.paidPayment(buyer, 40);
        if (cmd.mode !== "none") await pagosur("/_control/behaviour", { mode: cmd.mode, forEmail: buyer, times: 1 });
        const p = await this.call(`/payments/${tx}`);
        const minor = BigInt(Math.round(p.body.amountLocal * 100));
        const part = (minor * BigInt(cmd.percent)) / 100n;
        const amount = toMajor(part > 0n ? part : 1n, p.body.currencyLocal);
        const res = await this.call(`/payments/${tx}/refund`, { body: { amount }, headers: { "idempotency-key": `k-${uniq()}` } });
        const code = res.body?.error?.code;
        if (res.status === 422 && (code === "balance_insufficient" || code === "amount_out_of_limits")) return `${tx} ${amount} refused: ${code}`;
        if (res.status === 400 && code === "amount_invalid") return `${tx} ${amount} refused: ${code}`;
        if (res.status !== 200) this.fail(`refund ${cmd.mode}`, `unexpected ${res.status} ${res.text.slice(0, 300)}`);
        const claimId = res.body.refundId as string;
        if (cmd.mode === "succeed_then_timeout" || cmd.mode === "succeed_then_error") this.lostRefunds.push({ claimId, charge, mode: cmd.mode });
        return `${tx} ${amount} ${cmd.mode} ${claimId} ${res.body.status}`;
      }
      case "statusJobs": {
        // The jobs the server's ticker also runs, asked with a clock ahead so a row's backoff is due.
        const now = new Date(Date.now() + 10 * 60_000);
        return `payouts ${j(await checkPayoutStatuses({ now }))} refunds ${j(await runScheduledActions({ merchantId: this.merchantId, now }))}`;
      }
      case "awaitInFlight": {
        await this.confirmSent();
        // The server's ticker settles them; a status check that itself failed waits out its
        // 30 s lease there, so each poll also runs the jobs with a clock past any lease.
        await waitFor(async () => {
          if ((await this.inFlight()) === 0) return true;
          const now = new Date(Date.now() + 10 * 60_000);
          await checkPayoutStatuses({ now });
          await runScheduledActions({ merchantId: this.merchantId, now });
          return (await this.inFlight()) === 0;
        }, "the status jobs to settle every processing payout and pending refund", 30_000);
        return "nothing in flight";
      }
    }
  }

  /** The provider's PAID notice for every payout sent normally (lost ones learn theirs by status). */
  async confirmSent() {
    for (const id of this.unconfirmed.splice(0)) await pagosur(`/_control/payouts/${id}/PAID`, {});
  }

  async inFlight(): Promise<number> {
    const payouts = await db().payout.count({ where: { merchantId: this.merchantId, environment: "production", status: "processing" } });
    const claims = await db().claim.count({ where: { merchantId: this.merchantId, environment: "production", status: "pending" } });
    return payouts + claims;
  }

  async check(step: string) {
    await kernelChecks(this.merchantId, "production", (message) => this.fail(step, message));
    for (const c of await payoutChecks(this.merchantId, "production")) {
      if (c.available < 0n) this.fail(step, `payout balance ${c.currency} is ${c.available}`);
      if (c.in_flight !== c.processing) this.fail(step, `${c.currency} in flight ${c.in_flight} but processing payouts hold ${c.processing}`);
    }
  }

  /** Every lost answer ended completed/resolved exactly once. */
  async final() {
    await this.confirmSent();
    await waitFor(async () => {
      await checkPayoutStatuses({ now: new Date(Date.now() + 10 * 60_000) });
      await runScheduledActions({ merchantId: this.merchantId, now: new Date(Date.now() + 10 * 60_000) });
      return (await this.inFlight()) === 0;
    }, "every unknown outcome to be learned", 30_000);
    await this.check("final");
    for (const p of this.lostPayouts) {
      const row = await db().payout.findUniqueOrThrow({ where: { id: p.id } });
      if (row.status !== "completed") this.fail("final", `lost payout ${p.id} (${p.mode}) ended ${row.status}`);
      const paid = (await pagosur(`/_control/beneficiaries/${p.account}`)).paid;
      if (paid !== 1) this.fail("final", `beneficiary of ${p.id} paid ${paid} times`);
      const rows = await db().payout.count({ where: { merchantId: this.merchantId, recipient: { path: ["account"], equals: p.account } } });
      if (rows !== 1) this.fail("final", `${rows} payouts to ${p.account}`);
    }
    // One debit per payout that was sent, one completion per completed payout, nothing in flight.
    const debited = await db().payout.count({ where: { merchantId: this.merchantId, environment: "production", debited: true } });
    const completed = await db().payout.findMany({ where: { merchantId: this.merchantId, environment: "production", status: "completed" }, select: { amount: true } });
    const kinds = async (kind: string) => db().ledgerPosting.count({ where: { merchantId: this.merchantId, environment: "production", kind } });
    const debits = await kinds("payout_debit");
    if (debits < debited) this.fail("final", `${debits} payout_debit postings for ${debited} debited payouts`);
    const sentPostings = await kinds("payout_completed");
    if (sentPostings !== completed.length) this.fail("final", `${sentPostings} payout_completed postings for ${completed.length} completed payouts`);
    const sent = await db().ledgerEntry.aggregate({ where: { merchantId: this.merchantId, environment: "production", account: "payouts_sent", currency: "MXN" }, _sum: { amount: true } });
    const want = completed.reduce((s, c) => s + c.amount, 0n);
    if ((sent._sum.amount ?? 0n) !== want) this.fail("final", `payouts_sent ${sent._sum.amount} but completed payouts total ${want}`);
    for (const r of this.lostRefunds) {
      const claim = await db().claim.findUniqueOrThrow({ where: { id: r.claimId } });
      if (claim.status !== "resolved") this.fail("final", `lost refund ${r.claimId} (${r.mode}) ended ${claim.status}`);
      const refunds = (await pagosur(`/_control/charges/${r.charge}`)).refunds as { reference: string }[];
      if (j(refunds.map((x) => x.reference)) !== j([r.claimId])) this.fail("final", `provider refunds of ${r.charge}: ${j(refunds)}`);
      const resolved = await db().ledgerPosting.count({ where: { claimId: r.claimId, kind: "refund_resolved" } });
      const rejected = await db().ledgerPosting.count({ where: { claimId: r.claimId, kind: "refund_rejected" } });
      if (resolved !== 1 || rejected !== 0) this.fail("final", `refund ${r.claimId}: ${resolved} resolved, ${rejected} rejected postings`);
    }
    const frozen = await db().ledgerEntry.aggregate({ where: { merchantId: this.merchantId, environment: "production", account: "frozen" }, _sum: { amount: true } });
    if ((frozen._sum.amount ?? 0n) !== 0n) this.fail("final", `frozen is ${frozen._sum.amount} with no refund pending`);
  }
}
