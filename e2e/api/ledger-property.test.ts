// The ledger under random sequences of pay-in commands (decisions.md, Pay-ins and Refunds and
// claims), QR orders (their BR Code asks exactly the amount, order and transaction agree), the
// merchant's answers to chargebacks (accept, evidence then won), withdrawals (held, completed or
// failed), crypto top-ups (reported several times, credited once), deposits to a CLABE, and the payout environment (sandbox funding, transfers from the
// pay-in balance, swaps, sends and their simulated outcomes): whatever happens, every posting
// sums to zero per currency, GET /me/balance and GET /me/payout/balance equal the ledger,
// `ledgerWarnings` is empty, no payout balance goes below zero, what processing payouts hold
// equals the in-flight account, and no request answers 5xx. Every move runs through the money
// kernel (lib/ledger/transition.ts): after every step the running totals equal the sums
// recomputed from the entries, and the ledger verification job finds nothing to warn about. The server's own job ticker runs
// concurrently with the jobs called here, so every check must hold at any moment.
// A third property runs the same ledger checks in production, through the simulated PSP, with
// payouts and refunds whose provider answer is lost and the status jobs that learn the outcome.
//   LEDGER_PROP_RUNS=n (LEDGER_PROP_PROD_RUNS=n for the production one) and LEDGER_PROP_SEED=s reproduce or widen a search; LEDGER_PROP_TRACE=1
//   prints every run's steps.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { api, newMerchant, waitFor, API_URL, type ApiOptions, type ApiResponse } from "./helpers.ts";
import { registerEstablishment } from "@/lib/qr/establishments";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { toMajor } from "@/lib/money/amount";
import { runScheduledActions } from "@/lib/jobs/run-scheduled-actions";
import { settleDueBalances } from "@/lib/settlements/settle-balances";
import { releaseDueReserves } from "@/lib/ledger/release-reserves";
import { resolveChargeback } from "@/lib/claims/transitions";
import { verifyLedger } from "@/lib/ledger/verify";
import { verifyLedgers } from "@/lib/ledger/verify-ledgers";
import { checkPayoutStatuses } from "@/lib/payouts/check-payout-status";
import { setRate } from "@/lib/money/rates";
import { clabeCheckDigit } from "@/lib/rails/document-rules";
import { setShopDepositMethods } from "@/lib/deposits/set-shop-deposit-methods";

after(() => db().$disconnect());

const DAY = 86_400_000;
const BUCKETS = ["available", "pending", "reserve", "frozen"] as const;
type Bucket = (typeof BUCKETS)[number];
type Tier = "starter" | "standard" | "premium";

// ---------------------------------------------------------------------------------------------
// Buyer data each sandbox rail needs (decisions.md, Pay-ins).
const BUYER = { userName: "Ana Souza", userEmail: "ana@example.com" };
const RAIL_DATA = {
  sbx_pix: { ...BUYER, documentId: "529.982.247-25" },
  sbx_spei: { userName: "Diego Gómez", documentId: "GODE561231GR8" },
  sbx_pse: { ...BUYER, documentId: "1234567890" },
  sbx_cash: { ...BUYER, userPhone: "+525512345678", documentId: "GODE561231GR8" },
  sbx_card: {},
} as const;
type RailId = keyof typeof RAIL_DATA;
const RAILS = Object.keys(RAIL_DATA) as RailId[];

type Action = "paid" | "failed" | "expired" | "refunded" | "chargeback";
type Cmd =
  | { kind: "create"; rail: RailId; cents: number; sandboxSimulate?: "paid" | "chargeback" }
  | { kind: "simulate"; pick: number; action: Action }
  | { kind: "refund"; pick: number; percent: number | null }
  | { kind: "runScheduledActions" }
  | { kind: "settle" }
  | { kind: "releaseReserves" }
  | { kind: "resolveChargeback"; pick: number; outcome: "won" | "lost" }
  | { kind: "qrOrder"; cents: number; then: "paid" | "cancel" | "expired" | "none" }
  | { kind: "dispute"; pick: number; answer: "accept" | "evidenceThenWon" | "wonWithoutEvidence" }
  | { kind: "withdraw"; percent: number; outcome: "completed" | "failed" | "none" }
  | { kind: "topup"; cents: number; times: number }
  | { kind: "deposit"; mxnCents: number; repeat: boolean }
  | { kind: "fundSandbox"; currency: PayoutCurrency; cents: number }
  | { kind: "transfer"; percent: number }
  | { kind: "swap"; currency: Exclude<PayoutCurrency, "USD">; percent: number; executeTwice: boolean }
  | { kind: "send"; methodId: PayoutMethodId; percent: number }
  | { kind: "simulatePayout"; pick: number; action: PayoutAction };

type PayoutCurrency = "USD" | "MXN" | "BRL" | "COP";
const PAYOUT_KINDS = new Set<Cmd["kind"]>(["fundSandbox", "transfer", "swap", "send", "simulatePayout"]);
const PAYOUT_METHODS = { po_mx_spei: "MXN", po_br_pix: "BRL", po_co_bank: "COP", sbx_po_mx_spei: "MXN" } as const;
type PayoutMethodId = keyof typeof PAYOUT_METHODS;
type PayoutAction = "completed" | "failed" | "rejected" | "processing";
const RECIPIENTS: Record<string, Record<string, string>> = {
  MXN: { name: "Carlos Ruiz", account: "002180012345678906", bankCode: "002", documentId: "GODE561231GR8" },
  BRL: { name: "Ana Souza", account: "52998224725", accountType: "CPF", documentId: "52998224725" },
  COP: { name: "Camila Rojas", account: "00123456789", bankCode: "007", documentId: "1020304050" },
};

const pick = fc.nat({ max: 63 });
const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record(
      {
        kind: fc.constant("create" as const),
        rail: fc.constantFrom(...RAILS),
        cents: fc.integer({ min: 200, max: 50_000 }),
        // Now and then an outcome the server's ticker applies by itself (50-100 ms later), so that
        // transitions also race with the steps of this test.
        sandboxSimulate: fc.constantFrom("paid" as const, "chargeback" as const),
      },
      { requiredKeys: ["kind", "rail", "cents"] },
    ),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("simulate" as const),
      pick,
      action: fc.oneof(
        { weight: 4, arbitrary: fc.constant("paid" as const) },
        { weight: 1, arbitrary: fc.constantFrom("failed" as const, "expired" as const) },
        { weight: 2, arbitrary: fc.constantFrom("refunded" as const, "chargeback" as const) },
      ),
    }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("refund" as const), pick, percent: fc.option(fc.integer({ min: 1, max: 100 }), { nil: null }) }) },
  { weight: 2, arbitrary: fc.constant({ kind: "runScheduledActions" as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: "settle" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "releaseReserves" as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("resolveChargeback" as const), pick, outcome: fc.constantFrom("won" as const, "lost" as const) }) },
  // QR orders (a pay-in by another door) and the merchant's answers to chargebacks, over the API.
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("qrOrder" as const), cents: fc.integer({ min: 200, max: 50_000 }), then: fc.constantFrom("paid" as const, "paid" as const, "cancel" as const, "expired" as const, "none" as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("dispute" as const), pick, answer: fc.constantFrom("accept" as const, "evidenceThenWon" as const, "wonWithoutEvidence" as const) }) },
  // Money out of the pay-in balance on demand, and stablecoins into the payout balance.
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("withdraw" as const), percent: fc.integer({ min: 1, max: 120 }), outcome: fc.constantFrom("completed" as const, "failed" as const, "none" as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("topup" as const), cents: fc.integer({ min: 50, max: 500_000 }), times: fc.integer({ min: 1, max: 3 }) }) },
  // Deposits: 5.00-20,000.00 MXN (under 10.00 is rejected by the rail's minimum); now and then
  // the last transfer reported again.
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("deposit" as const), mxnCents: fc.integer({ min: 500, max: 2_000_000 }), repeat: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("fundSandbox" as const), currency: fc.constantFrom<PayoutCurrency>("USD", "MXN", "BRL", "COP"), cents: fc.integer({ min: 1, max: 5_000_000 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("transfer" as const), percent: fc.integer({ min: 1, max: 120 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("swap" as const), currency: fc.constantFrom("MXN" as const, "BRL" as const, "COP" as const), percent: fc.integer({ min: 1, max: 120 }), executeTwice: fc.boolean() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("send" as const), methodId: fc.constantFrom<PayoutMethodId>("po_mx_spei", "po_br_pix", "po_co_bank", "sbx_po_mx_spei"), percent: fc.integer({ min: 1, max: 120 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("simulatePayout" as const), pick, action: fc.constantFrom<PayoutAction>("completed", "failed", "rejected", "processing") }) },
);

/** Commands that move money between the pay-in and payout ledgers, for the focused property. */
const moneyCmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("deposit" as const), mxnCents: fc.integer({ min: 500, max: 2_000_000 }), repeat: fc.boolean() }) },
  { weight: 2, arbitrary: fc.constant({ kind: "settle" as const }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("fundSandbox" as const), currency: fc.constantFrom<PayoutCurrency>("USD", "USD", "MXN", "BRL", "COP"), cents: fc.integer({ min: 1, max: 5_000_000 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("transfer" as const), percent: fc.integer({ min: 1, max: 120 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("swap" as const), currency: fc.constantFrom("MXN" as const, "BRL" as const, "COP" as const), percent: fc.integer({ min: 1, max: 120 }), executeTwice: fc.boolean() }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("send" as const), methodId: fc.constantFrom<PayoutMethodId>("po_mx_spei", "po_br_pix", "po_co_bank", "sbx_po_mx_spei"), percent: fc.integer({ min: 1, max: 120 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("simulatePayout" as const), pick, action: fc.constantFrom<PayoutAction>("completed", "failed", "rejected", "processing") }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("refund" as const), pick, percent: fc.option(fc.integer({ min: 1, max: 100 }), { nil: null }) }) },
);

// ---------------------------------------------------------------------------------------------
// Reads of the database, each one SQL statement (one snapshot).

type Sums = Record<string, { total: bigint; n: bigint }>;

/** Every account's USD sum and entry count for the merchant in sandbox. */
async function accountSums(merchantId: string): Promise<Sums> {
  const rows = await db().$queryRaw<{ account: string; total: bigint; n: bigint }[]>`
    SELECT account, SUM(amount)::bigint AS total, COUNT(*)::bigint AS n FROM ledger_entries
    WHERE merchant_id = ${merchantId} AND environment = 'sandbox' AND currency = 'USD'
    GROUP BY account`;
  return Object.fromEntries(rows.map((r) => [r.account, { total: r.total, n: r.n }]));
}
const bucket = (s: Sums, b: string) => s[b]?.total ?? 0n;
const sameSums = (a: Sums, b: Sums) => JSON.stringify(a, (_, v) => (typeof v === "bigint" ? v.toString() : v)) === JSON.stringify(b, (_, v) => (typeof v === "bigint" ? v.toString() : v));

async function unbalancedPostings(merchantId: string) {
  return db().$queryRaw<{ posting_id: string; currency: string; total: bigint }[]>`
    SELECT posting_id, currency, SUM(amount)::bigint AS total FROM ledger_entries
    WHERE merchant_id = ${merchantId}
    GROUP BY posting_id, currency HAVING SUM(amount) <> 0`;
}

/**
 * Running totals (ledger_balances) that differ from the sums and counts recomputed from the
 * entries, over every account and currency of the merchant, in one statement (one snapshot).
 */
async function runningTotalMismatches(merchantId: string) {
  return db().$queryRaw<{ environment: string; account: string; currency: string; running: bigint | null; summed: bigint | null; running_n: bigint | null; summed_n: bigint | null }[]>`
    WITH s AS (
      SELECT environment, account, currency, SUM(amount)::bigint AS total, COUNT(*)::bigint AS n FROM ledger_entries
      WHERE merchant_id = ${merchantId} GROUP BY environment, account, currency),
    b AS (SELECT environment, account, currency, balance, entries FROM ledger_balances WHERE merchant_id = ${merchantId})
    SELECT COALESCE(s.environment, b.environment)::text AS environment, COALESCE(s.account, b.account) AS account, COALESCE(s.currency, b.currency) AS currency,
      b.balance AS running, s.total AS summed, b.entries AS running_n, s.n AS summed_n
    FROM s FULL OUTER JOIN b ON s.environment = b.environment AND s.account = b.account AND s.currency = b.currency
    WHERE b.balance IS DISTINCT FROM s.total OR b.entries IS DISTINCT FROM s.n`;
}

/** The two cross-checks behind ledgerWarnings, read in one statement. */
async function crossChecks(merchantId: string) {
  const [r] = await db().$queryRaw<{ frozen: bigint; open_claims: bigint; reserve: bigint; held_reserves: bigint }[]>`
    SELECT
      (SELECT COALESCE(SUM(amount), 0) FROM ledger_entries WHERE merchant_id = ${merchantId} AND environment = 'sandbox' AND currency = 'USD' AND account = 'frozen')::bigint AS frozen,
      (SELECT COALESCE(SUM(amount_usd), 0) FROM claims WHERE merchant_id = ${merchantId} AND environment = 'sandbox' AND status IN ('pending', 'open'))::bigint AS open_claims,
      (SELECT COALESCE(SUM(amount), 0) FROM ledger_entries WHERE merchant_id = ${merchantId} AND environment = 'sandbox' AND currency = 'USD' AND account = 'reserve')::bigint AS reserve,
      (SELECT COALESCE(SUM(reserve_amount), 0) FROM transactions WHERE merchant_id = ${merchantId} AND environment = 'sandbox' AND completed_at IS NOT NULL AND reserve_released_at IS NULL)::bigint AS held_reserves`;
  return r!;
}

/**
 * The payout ledger from one snapshot: per currency, the available and in-flight accounts, and
 * what processing (debited) payouts hold.
 */
async function payoutChecks(merchantId: string, environment: "sandbox" | "production" = "sandbox") {
  return db().$queryRaw<{ currency: string; available: bigint; in_flight: bigint; processing: bigint }[]>`
    WITH l AS (
      SELECT currency,
        SUM(CASE WHEN account = 'payout_available' THEN amount ELSE 0 END)::bigint AS available,
        SUM(CASE WHEN account = 'payout_in_flight' THEN amount ELSE 0 END)::bigint AS in_flight
      FROM ledger_entries WHERE merchant_id = ${merchantId} AND environment = ${environment}::"Environment" AND account IN ('payout_available', 'payout_in_flight')
      GROUP BY currency),
    p AS (
      SELECT currency, SUM(amount)::bigint AS processing FROM payouts
      WHERE merchant_id = ${merchantId} AND environment = ${environment}::"Environment" AND status = 'processing' AND debited
      GROUP BY currency)
    SELECT COALESCE(l.currency, p.currency) AS currency, COALESCE(l.available, 0)::bigint AS available, COALESCE(l.in_flight, 0)::bigint AS in_flight, COALESCE(p.processing, 0)::bigint AS processing
    FROM l FULL OUTER JOIN p ON l.currency = p.currency ORDER BY 1`;
}

async function scheduledActionsOf(merchantId: string) {
  return db().$queryRaw<{ id: string; kind: string; action: string; state: string; last_error: string | null }[]>`
    SELECT sa.id, sa.kind, sa.action, sa.state, sa.last_error, sa.attempts, sa.due_at, sa.locked_until, t.status AS payment_status FROM scheduled_actions sa
    JOIN transactions t ON t.id = sa.transaction_id
    WHERE t.merchant_id = ${merchantId}`;
}

async function openChargebacks(merchantId: string): Promise<string[]> {
  const rows = await db().claim.findMany({ where: { merchantId, kind: "chargeback", status: "open" }, select: { id: true }, orderBy: { createdAt: "asc" } });
  return rows.map((r) => r.id);
}

const usdMinor = (major: number) => Math.round(major * 100);
/** API number -> minor units for the check only (every payout currency here has 2 decimals). */
const toMinorOf = (major: number, _currency: string) => Math.round(major * 100);
const j = (v: unknown) => JSON.stringify(v, (_, x) => (typeof x === "bigint" ? x.toString() : x));

// ---------------------------------------------------------------------------------------------
// One run: a fresh merchant, the commands, a check after every step.

type Payment = { id: string; amountLocal: number; currencyLocal: string };

class Run {
  readonly trace: string[] = [];
  readonly payments: Payment[] = [];
  readonly payouts: string[] = [];
  depositAccountId: string | null = null;
  lastTrackingKey: string | null = null;
  qrReady = false;
  constructor(
    readonly merchantId: string,
    readonly key: string,
  ) {}

  /** Every request of the run goes through here: a 5xx fails the run at once. */
  async call(path: string, opts: ApiOptions = {}): Promise<ApiResponse> {
    // A starter key has 100 requests a minute: should a run outpace it, wait for the bucket to
    // let the request through (a refused request changes nothing).
    const res = await waitFor(async () => {
      const r = await api(path, { key: this.key, ...opts });
      return r.status !== 429 && r;
    }, `${path} past the rate limit`, 70_000);
    if (res.status >= 500) assert.fail(`${opts.method ?? (opts.body !== undefined ? "POST" : "GET")} ${path} answered ${res.status}: ${res.text.slice(0, 500)}\ntrace:\n${this.trace.join("\n")}`);
    return res;
  }

  fail(step: string, message: string): never {
    assert.fail(`after ${step}: ${message}\ntrace:\n${this.trace.join("\n")}`);
  }

  async exec(cmd: Cmd): Promise<string> {
    switch (cmd.kind) {
      case "create": {
        const amount = cmd.cents / 100;
        const headers: Record<string, string> = cmd.sandboxSimulate ? { "sandbox-simulate": cmd.sandboxSimulate } : {};
        const res = await this.call("/payments", { body: { amount, paymentMethodId: cmd.rail, ...RAIL_DATA[cmd.rail] }, headers });
        if (res.status !== 200 && res.status !== 201) this.fail(`create ${cmd.rail} ${amount}`, `expected 2xx, got ${res.status} ${res.text.slice(0, 400)}`);
        this.payments.push({ id: res.body.transactionId, amountLocal: res.body.amountLocal, currencyLocal: res.body.currencyLocal });
        return `${res.status} ${res.body.transactionId}`;
      }
      case "simulate": {
        const p = this.payments[cmd.pick % Math.max(1, this.payments.length)];
        if (!p) return "skipped (no payment)";
        const res = await this.call(`/payments/${p.id}/simulate`, { body: { action: cmd.action } });
        const ok = res.status === 200 || (res.status === 400 && res.body?.error?.code === "invalid_request");
        if (!ok) this.fail(`simulate ${cmd.action} ${p.id}`, `unexpected ${res.status} ${res.text.slice(0, 400)}`);
        return `${p.id} ${res.status} ${res.status === 200 ? res.body.status : res.body.error.code}`;
      }
      case "refund": {
        const p = this.payments[cmd.pick % Math.max(1, this.payments.length)];
        if (!p) return "skipped (no payment)";
        let body: Record<string, unknown> = {};
        if (cmd.percent !== null) {
          const minor = BigInt(Math.round(p.amountLocal * 100));
          const part = (minor * BigInt(cmd.percent)) / 100n;
          body = { amount: toMajor(part > 0n ? part : 1n, p.currencyLocal) };
        }
        const res = await this.call(`/payments/${p.id}/refund`, { body });
        const code = res.body?.error?.code;
        const ok =
          res.status === 200 || res.status === 201 || (res.status === 422 && (code === "balance_insufficient" || code === "amount_out_of_limits")) || (res.status === 400 && (code === "invalid_request" || code === "amount_invalid"));
        if (!ok) this.fail(`refund ${p.id} ${j(body)}`, `unexpected ${res.status} ${res.text.slice(0, 400)}`);
        return `${p.id} ${j(body)} ${res.status} ${code ?? `${res.body.status} ${res.body.amountUsd} USD`}`;
      }
      case "runScheduledActions":
        return j(await runScheduledActions({ merchantId: this.merchantId }));
      case "settle":
        return `${await settleDueBalances({ now: new Date(Date.now() + 4 * DAY) })} settled`;
      case "releaseReserves":
        return `${await releaseDueReserves({ now: new Date(Date.now() + 91 * DAY) })} released`;
      case "deposit": {
        if (!this.depositAccountId) {
          const a = await this.call("/me/deposit-accounts", { body: { endUserRef: "property-user", name: "Property User", email: "property@example.com" } });
          if (a.status !== 201 && a.status !== 200) this.fail("create deposit account", `${a.status} ${a.text.slice(0, 300)}`);
          this.depositAccountId = a.body.account.id as string;
        }
        const trackingKey = cmd.repeat && this.lastTrackingKey ? this.lastTrackingKey : `PROP${Math.random().toString(36).slice(2, 14).toUpperCase()}`;
        this.lastTrackingKey = trackingKey;
        const amount = toMajor(BigInt(cmd.mxnCents), "MXN");
        const res = await this.call(`/me/deposit-accounts/${this.depositAccountId}/simulate-deposit`, { body: { amount, payerName: "Payer", payerBank: "Banorte", trackingKey } });
        if (res.status !== 201 && res.status !== 200) this.fail(`deposit ${amount}`, `${res.status} ${res.text.slice(0, 300)}`);
        const d = res.body.deposit;
        if (d.status === "credited" && d.transactionId && !this.payments.some((p) => p.id === d.transactionId)) this.payments.push({ id: d.transactionId, amountLocal: d.amount, currencyLocal: "MXN" });
        return `${res.status} ${d.id} ${d.status} ${d.amountUsd} USD`;
      }
      case "fundSandbox": {
        const res = await this.call("/me/payout/fund-sandbox", { body: { currency: cmd.currency, amount: toMajor(BigInt(cmd.cents), cmd.currency) } });
        if (res.status !== 200) this.fail(`fund ${cmd.currency}`, `${res.status} ${res.text.slice(0, 300)}`);
        return `${cmd.cents} ${cmd.currency}`;
      }
      case "transfer": {
        const available = usdMinor((await this.call("/me/balance")).body.balance.available);
        // Nothing available: ask for 1.00 anyway (a refusal must move nothing either).
        const amount = Math.floor((Math.max(0, available) * cmd.percent) / 100) || 100;
        const res = await this.call("/me/payout/transfer", { body: { amountUsd: amount / 100 } });
        const ok = res.status === 200 || (res.status === 422 && res.body?.error?.code === "balance_insufficient");
        if (!ok) this.fail(`transfer ${amount}`, `unexpected ${res.status} ${res.text.slice(0, 300)}`);
        return `${amount / 100} USD ${res.status}`;
      }
      case "swap": {
        const usd = (await this.call("/me/payout/balance")).body.balances.find((b: any) => b.currency === "USD").available as number;
        const amount = Math.floor((usdMinor(usd) * cmd.percent) / 100) || 100;
        const q = await this.call(`/me/payout/swap?currency=${cmd.currency}&amountUsd=${amount / 100}`);
        if (q.status !== 200) {
          if (q.status === 400 && q.body?.error?.code === "amount_invalid") return `${amount / 100} too small`;
          this.fail(`quote ${cmd.currency}`, `${q.status} ${q.text.slice(0, 300)}`);
        }
        const runs = await Promise.all(Array.from({ length: cmd.executeTwice ? 2 : 1 }, () => this.call("/me/payout/swap", { body: { quoteId: q.body.quoteId } })));
        const executed = runs.filter((r) => r.status === 200).length;
        for (const r of runs) {
          const code = r.body?.error?.code;
          const ok = r.status === 200 || (r.status === 422 && code === "balance_insufficient") || (r.status === 400 && r.body.error.details?.reason === "quote_already_executed");
          if (!ok) this.fail(`swap ${q.body.quoteId}`, `unexpected ${r.status} ${r.text.slice(0, 300)}`);
        }
        if (executed > 1) this.fail(`swap ${q.body.quoteId}`, "a quote executed twice");
        return `${amount / 100} USD -> ${cmd.currency} executed ${executed}`;
      }
      case "send": {
        const currency = PAYOUT_METHODS[cmd.methodId];
        const have = (await this.call("/me/payout/balance")).body.balances.find((b: any) => b.currency === currency)?.available ?? 0;
        const amount = Math.floor((usdMinor(have) * cmd.percent) / 100) || 1000;
        const res = await this.call("/me/payout/send", { body: { methodId: cmd.methodId, amount: amount / 100, recipient: RECIPIENTS[currency] } });
        const code = res.body?.error?.code;
        const ok = res.status === 200 || (res.status === 422 && (code === "balance_insufficient" || code === "currency_not_funded"));
        if (!ok) this.fail(`send ${cmd.methodId} ${amount}`, `unexpected ${res.status} ${res.text.slice(0, 300)}`);
        if (res.status === 200) this.payouts.push(res.body.payout.id);
        return `${amount / 100} ${currency} ${res.status} ${res.status === 200 ? res.body.payout.id : code}`;
      }
      case "simulatePayout": {
        const id = this.payouts[cmd.pick % Math.max(1, this.payouts.length)];
        if (!id) return "skipped (no payout)";
        const res = await this.call(`/me/payout/send/${id}/simulate`, { body: { action: cmd.action } });
        const ok = res.status === 200 || (res.status === 400 && res.body?.error?.code === "invalid_request");
        if (!ok) this.fail(`simulate payout ${cmd.action} ${id}`, `unexpected ${res.status} ${res.text.slice(0, 300)}`);
        return `${id} ${res.status} ${res.status === 200 ? res.body.payout.status : res.body.error.code}`;
      }
      case "qrOrder": {
        if (!this.qrReady) {
          const shop = await db().shop.findFirstOrThrow({ where: { merchantId: this.merchantId } });
          await registerEstablishment({ shopId: shop.id, name: "Property Cafe", city: "Sao Paulo", mcc: "5814" });
          this.qrReady = true;
        }
        const made = await this.call("/qr/orders", { body: { amount: cmd.cents / 100, merchantOrderId: `qr-${cmd.cents}` } });
        const code = made.body?.error?.code;
        if (made.status === 422 && code === "amount_out_of_limits") return `qr ${cmd.cents} refused: ${code}`;
        if (made.status !== 201) this.fail(`qr order ${cmd.cents}`, `unexpected ${made.status} ${made.text.slice(0, 300)}`);
        const o = made.body.order;
        this.payments.push({ id: o.transactionId, amountLocal: o.amountLocal, currencyLocal: o.currencyLocal });
        if (o.amountLocal !== cmd.cents / 100) this.fail(`qr order ${cmd.cents}`, `asked ${cmd.cents / 100} BRL, the code asks ${o.amountLocal}`);
        if (cmd.then === "none") return `${o.id} pending`;
        const r = cmd.then === "cancel" ? await this.call(`/qr/orders/${o.id}/cancel`, { body: {} }) : await this.call(`/qr/orders/${o.id}/simulate`, { body: { action: cmd.then } });
        const okCode = r.status === 409 && r.body?.error?.code === "qr_order_not_pending";
        if (r.status !== 200 && !okCode) this.fail(`qr ${cmd.then} ${o.id}`, `unexpected ${r.status} ${r.text.slice(0, 300)}`);
        const after = (await this.call(`/qr/orders/${o.id}`)).body.order.status;
        const tx = (await this.call(`/payments/${o.transactionId}`)).body.status;
        const agrees = { pending: ["pending"], paid: ["completed", "refunded", "chargeback"], expired: ["expired", "failed"], cancelled: ["expired"] }[after as "pending"] ?? [];
        if (!agrees.includes(tx)) this.fail(`qr ${cmd.then} ${o.id}`, `order ${after} but its transaction ${tx}`);
        return `${o.id} ${cmd.then} -> ${after} (${tx})`;
      }
      case "withdraw": {
        // Settled first (as the settle step does), so there is something to withdraw.
        await settleDueBalances({ now: new Date(Date.now() + 4 * DAY) });
        const available = (await this.call("/me/balance")).body.balance.available as number;
        const amountUsd = Math.floor(Math.max(0, available) * cmd.percent) / 100;
        if (amountUsd <= 0) return "skipped (nothing available)";
        const r = await this.call("/me/withdrawals", { body: { amountUsd, destination: { asset: "USDT", network: "TRON", address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" } } });
        if (r.status === 422 && r.body?.error?.code === "balance_insufficient") return `${amountUsd} refused: balance_insufficient`;
        if (r.status !== 200) this.fail(`withdraw ${amountUsd}`, `unexpected ${r.status} ${r.text.slice(0, 300)}`);
        const w = r.body.withdrawal;
        if (cmd.outcome === "none") return `${w.id} ${amountUsd} processing`;
        const end = await this.call(`/me/withdrawals/${w.id}/simulate`, { body: { action: cmd.outcome } });
        if (end.status !== 200) this.fail(`withdrawal ${cmd.outcome} ${w.id}`, `unexpected ${end.status} ${end.text.slice(0, 300)}`);
        return `${w.id} ${amountUsd} ${end.body.withdrawal.status}`;
      }
      case "topup": {
        const t = await this.call("/me/payout/topups", { body: { asset: "USDC", network: "POLYGON" } });
        if (t.status !== 201) this.fail("topup", `unexpected ${t.status} ${t.text.slice(0, 300)}`);
        const before = (await this.call("/me/payout/balance")).body.balances.find((b: { currency: string }) => b.currency === "USD").available as number;
        // Reported more than once: credited once.
        for (let i = 0; i < cmd.times; i++) {
          const r = await this.call(`/me/payout/topups/${t.body.topup.id}/simulate`, { body: { amount: cmd.cents / 100 } });
          if (r.status !== 200) this.fail("topup simulate", `unexpected ${r.status} ${r.text.slice(0, 300)}`);
        }
        const after = (await this.call("/me/payout/balance")).body.balances.find((b: { currency: string }) => b.currency === "USD").available as number;
        const credited = cmd.cents >= 100 ? cmd.cents / 100 : 0;
        if (Math.round((after - before) * 100) !== Math.round(credited * 100)) this.fail(`topup ${cmd.cents} x${cmd.times}`, `payout USD moved ${after - before}, expected ${credited}`);
        return `${t.body.topup.id} ${cmd.cents / 100} x${cmd.times} -> +${credited}`;
      }
      case "dispute": {
        const open = await openChargebacks(this.merchantId);
        const claimId = open[cmd.pick % Math.max(1, open.length)];
        if (!claimId) return "skipped (no open chargeback)";
        if (cmd.answer === "evidenceThenWon") {
          const form = new FormData();
          form.append("text", "Delivered and signed for.");
          const up = await fetch(`${API_URL}/api/v1/claims/${claimId}/evidence`, { method: "POST", headers: { authorization: `Bearer ${this.key}` }, body: form });
          if (up.status !== 201 && up.status !== 409) this.fail(`evidence ${claimId}`, `unexpected ${up.status} ${await up.text()}`);
        }
        const r = cmd.answer === "accept" ? await this.call(`/claims/${claimId}/accept`, { body: {} }) : await this.call(`/claims/${claimId}/simulate`, { body: { action: "won" } });
        const code = r.body?.error?.code;
        const expected = r.status === 200 || code === "claim_already_resolved" || (cmd.answer === "wonWithoutEvidence" && code === "missing_required_fields");
        if (!expected) this.fail(`dispute ${cmd.answer} ${claimId}`, `unexpected ${r.status} ${r.text.slice(0, 300)}`);
        return `${claimId} ${cmd.answer} ${r.status === 200 ? r.body.claim.status : code}`;
      }
      case "resolveChargeback": {
        const open = await openChargebacks(this.merchantId);
        const claimId = open[cmd.pick % Math.max(1, open.length)];
        if (!claimId) return "skipped (no open chargeback)";
        try {
          const c = await resolveChargeback(claimId, cmd.outcome);
          return `${claimId} ${c.status}`;
        } catch (err) {
          // Only this test resolves chargebacks, but a claim found open may not be open any more.
          if (err instanceof AppError && err.code === "claim_already_resolved") return `${claimId} already resolved`;
          throw err;
        }
      }
    }
  }

  /** The invariants; `step` names what just happened. */
  async check(step: string, opts: { payoutApi?: boolean } = {}): Promise<Record<Bucket, bigint>> {
    // (1) Every posting of the merchant sums to zero per currency.
    const unbalanced = await unbalancedPostings(this.merchantId);
    if (unbalanced.length) this.fail(step, `unbalanced postings ${j(unbalanced)}`);

    // (1b) The running totals equal the entries, and the verification job (its check, run here
    // on this merchant's ledger) finds nothing.
    const mismatches = await runningTotalMismatches(this.merchantId);
    if (mismatches.length) this.fail(step, `running totals differ from the entries: ${j(mismatches)}`);
    const verified = await verifyLedger(this.merchantId, "sandbox", { batch: 25 });
    if (verified.warnings.length) this.fail(step, `the verification job warns: ${j(verified.warnings)}`);

    // (2) + (3) GET /me/balance equals the ledger and carries no warnings. The ledger may move
    // while the request runs (the server's ticker): compare only when it did not.
    for (let attempt = 0; ; attempt++) {
      const before = await accountSums(this.merchantId);
      const res = await this.call("/me/balance");
      if (res.status !== 200) this.fail(step, `GET /me/balance answered ${res.status} ${res.text.slice(0, 300)}`);
      const afterSums = await accountSums(this.merchantId);
      const stable = sameSums(before, afterSums);
      if (!Array.isArray(res.body.ledgerWarnings) || res.body.ledgerWarnings.length > 0) {
        this.fail(
          step,
          `ledgerWarnings ${j(res.body.ledgerWarnings)}; ledger ${stable ? "did not change" : "changed"} during the request; ` +
            `one-snapshot cross-checks now: ${j(await crossChecks(this.merchantId))}; balance ${j(res.body.balance)}`,
        );
      }
      if (stable) {
        const got = Object.fromEntries(BUCKETS.map((b) => [b, usdMinor(res.body.balance[b])]));
        const want = Object.fromEntries(BUCKETS.map((b) => [b, Number(bucket(afterSums, b))]));
        if (j(got) !== j(want)) this.fail(step, `balance ${j(got)} (minor units) differs from the ledger ${j(want)}`);
        break;
      }
      if (attempt >= 20) this.fail(step, "the ledger kept moving during 20 balance reads");
    }

    // The same cross-checks ledgerWarnings makes, from one snapshot, and the buckets that can
    // never be negative (every payment here has a positive net).
    const x = await crossChecks(this.merchantId);
    if (x.frozen !== x.open_claims) this.fail(step, `frozen ${x.frozen} != open claims ${x.open_claims}`);
    if (x.reserve !== x.held_reserves) this.fail(step, `reserve ${x.reserve} != unreleased reserves ${x.held_reserves}`);
    const sums = await accountSums(this.merchantId);
    const out = Object.fromEntries(BUCKETS.map((b) => [b, bucket(sums, b)])) as Record<Bucket, bigint>;
    for (const b of ["pending", "reserve", "frozen"] as const) if (out[b] < 0n) this.fail(step, `${b} is negative: ${j(out)}`);

    // (4) The payout environment: never below zero, in-flight money is exactly what processing
    // payouts hold, and GET /me/payout/balance equals the ledger (nothing here runs in the
    // background, so the ledger is still).
    const payout = await payoutChecks(this.merchantId);
    for (const c of payout) {
      if (c.available < 0n) this.fail(step, `payout ${c.currency} available is negative: ${j(c)}`);
      if (c.in_flight !== c.processing) this.fail(step, `payout ${c.currency} in flight ${c.in_flight} != processing payouts ${c.processing}`);
    }
    if (opts.payoutApi === false) return out;
    const pb = await this.call("/me/payout/balance");
    if (pb.status !== 200) this.fail(step, `GET /me/payout/balance answered ${pb.status}`);
    const shown = Object.fromEntries(pb.body.balances.map((b: any) => [b.currency, [toMinorOf(b.available, b.currency), toMinorOf(b.reserved, b.currency)]]));
    const want: Record<string, [number, number]> = { USD: [0, 0] };
    for (const c of payout) want[c.currency] = [Number(c.available), Number(c.in_flight)];
    if (j(shown) !== j(Object.fromEntries(Object.entries(want).sort(([a], [b]) => (a === "USD" ? -1 : b === "USD" ? 1 : a.localeCompare(b)))))) {
      this.fail(step, `payout balance ${j(pb.body.balances)} differs from the ledger ${j(payout)}`);
    }
    return out;
  }

  /** End of a run: let every scheduled outcome happen, settle and release everything. */
  async drain() {
    // A scheduled action that threw is a bug of its own (the transitions are idempotent and
    // never refuse): report it rather than wait for its retry.
    // 45 s: on a loaded 2-core CI machine the server's ticker and this process compete for rows.
    let last: unknown[] = [];
    await waitFor(
      async () => {
        await runScheduledActions({ merchantId: this.merchantId });
        const actions = await scheduledActionsOf(this.merchantId);
        last = actions;
        // A thrown error (a lost connection) is retried without spending an attempt and may leave
        // its last_error on an action that then completed: only a failed action is broken.
        const broken = actions.filter((a) => a.state === "failed");
        if (broken.length) this.fail("drain", `scheduled actions failed: ${j(broken)}`);
        return actions.every((a) => a.state === "done");
      },
      "the merchant's scheduled actions to finish",
      45_000,
    ).catch((err: Error) => this.fail("drain", `${err.message}; actions: ${j(last)}`));
    await settleDueBalances({ now: new Date(Date.now() + 4 * DAY) });
    await releaseDueReserves({ now: new Date(Date.now() + 91 * DAY) });
    // The job itself (claiming the merchant's ledger) stores no warning, and the API shows none.
    // (A merchant whose ledger has no entries has nothing to check.)
    if ((await db().ledgerBalance.count({ where: { merchantId: this.merchantId } })) > 0) {
      await waitFor(async () => (await verifyLedgers({ merchantId: this.merchantId, force: true })).some((c) => c.merchantId === this.merchantId), "the verification job to check the merchant's ledger", 30_000);
    }
    const b = await this.check("drain (all settled, all reserves released)");
    // Settled payments leave nothing pending; released reserves leave no reserve.
    if (b.pending !== 0n) this.fail("drain", `pending is ${b.pending} after settling everything`);
    if (b.reserve !== 0n) this.fail("drain", `reserve is ${b.reserve} after releasing everything`);
  }
}


/** One run's steps: each command, its outcome in the trace (a non-assertion throw is a failure), then `checkAfter`. */
async function runSteps<C>(run: { exec(cmd: C): Promise<string>; fail(step: string, message: string): never; trace: string[] }, cmds: C[], checkAfter: (label: string, cmd: C) => Promise<unknown>) {
  for (const [i, cmd] of cmds.entries()) {
    const label = `#${i} ${j(cmd)}`;
    const outcome = await run.exec(cmd).catch((err: unknown) => {
      if (err instanceof assert.AssertionError) throw err;
      return run.fail(label, `threw ${err instanceof Error ? err.stack : String(err)}`);
    });
    run.trace.push(`${label} -> ${outcome}`);
    await checkAfter(label, cmd);
  }
}

test("ledger property: random pay-in, refund, chargeback, deposit, transfer, swap, payout and job sequences keep the ledger and the balances consistent", { timeout: 600_000 }, async (t) => {
  const numRuns = Number(process.env.LEDGER_PROP_RUNS ?? 20);
  const seed = process.env.LEDGER_PROP_SEED ? Number(process.env.LEDGER_PROP_SEED) : undefined;
  await fc.assert(
    fc.asyncProperty(fc.constantFrom<Tier>("starter", "standard", "premium"), fc.array(cmdArb, { minLength: 5, maxLength: 30 }), async (tier, cmds) => {
      const m = await newMerchant({ tier });
      const run = new Run(m.merchantId, m.sandbox.secretKey);
      await run.check("start");
      // The payout balance's API answer is compared after the commands that move it (and at
      // the end); its ledger invariants after every step. This keeps a starter key's runs
      // within its 100 requests a minute.
      await runSteps(run, cmds, (label, cmd) => run.check(label, { payoutApi: PAYOUT_KINDS.has(cmd.kind) }));
      await run.drain();
      if (process.env.LEDGER_PROP_TRACE) console.log(`--- ${tier}\n${run.trace.join("\n")}`);
    }),
    // Failures that come from a race do not reproduce on demand: shrinking would re-run the
    // whole sequence many times for nothing, so it is bounded in time.
    { numRuns, seed, plugins: [fc.interruptAfterTimeLimit(240_000)] },
  );
});

test("ledger property: random deposit, settlement, transfer, swap, send and payout outcome sequences keep both ledgers balanced and every payout balance at or above zero", { timeout: 600_000 }, async () => {
  const numRuns = Number(process.env.LEDGER_PROP_RUNS ?? 20);
  const seed = process.env.LEDGER_PROP_SEED ? Number(process.env.LEDGER_PROP_SEED) : undefined;
  await fc.assert(
    fc.asyncProperty(fc.constantFrom<Tier>("standard", "premium"), fc.array(moneyCmdArb, { minLength: 15, maxLength: 40 }), async (tier, cmds) => {
      const m = await newMerchant({ tier });
      const run = new Run(m.merchantId, m.sandbox.secretKey);
      await runSteps(run, cmds, (label) => run.check(label));
      await run.drain();
      if (process.env.LEDGER_PROP_TRACE) console.log(`--- money ${tier}\n${run.trace.join("\n")}`);
    }),
    { numRuns, seed, plugins: [fc.interruptAfterTimeLimit(180_000)] },
  );
});

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

  await settleDueBalances({ now: new Date(Date.now() + 4 * DAY) });
  assert.deepEqual(await balance(), { available: 89.11, pending: 0, frozen: 0, reserve: 4.69 });
  // One settlement posting, of exactly the net.
  assert.deepEqual(await postingEntries("settlement", id), [
    ["available", 8911n],
    ["pending", -8911n],
  ]);
  assert.equal((await api(`/payments/${id}`, { key })).body.settlement.status, "settled");

  // Settling again changes nothing.
  await settleDueBalances({ now: new Date(Date.now() + 4 * DAY) });
  assert.deepEqual(await balance(), { available: 89.11, pending: 0, frozen: 0, reserve: 4.69 });
  assert.equal((await postingEntries("settlement", id)).length, 2);

  // Before the 90 days are over the reserve stays.
  await releaseDueReserves({ now: new Date(Date.now() + 89 * DAY) });
  assert.deepEqual(await balance(), { available: 89.11, pending: 0, frozen: 0, reserve: 4.69 });
  assert.ok((await releaseDueReserves({ now: new Date(Date.now() + 91 * DAY) })) >= 1);
  assert.deepEqual(await balance(), { available: 93.8, pending: 0, frozen: 0, reserve: 0 });
  assert.deepEqual(await postingEntries("reserve_release", id), [
    ["available", 469n],
    ["reserve", -469n],
  ]);
  // Releasing again changes nothing.
  await releaseDueReserves({ now: new Date(Date.now() + 91 * DAY) });
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
    await settleDueBalances({ now: new Date(Date.now() + 4 * DAY) });

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
  await resolveChargeback(claim.id, "won");
  assert.deepEqual(await balance(), afterRefunds);

  await settleDueBalances({ now: new Date(Date.now() + 31 * DAY) });
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
});

// ---------------------------------------------------------------------------------------------
// Unknown provider outcomes in production (issue 16): payouts and refunds through the simulated
// PSP (pagosur) whose answer is lost after the provider acted (succeed_then_timeout /
// succeed_then_error), explicit refusals, plain successes, and the status jobs that learn the
// outcome by our reference. Each command uses an email (and a CLABE) of its own, so a mode set on
// the simulator hits that command only. After every step the production ledger keeps the same
// invariants as above, also while rows are processing/pending; at the end every row whose answer
// was lost is completed/resolved, its beneficiary paid once and the merchant debited once.

const PAGOSUR = process.env.PROVIDER_PAGOSUR_URL!;
type LostMode = "succeed_then_timeout" | "succeed_then_error";
type ProdMode = LostMode | "decline" | "none";
type ProdCmd =
  | { kind: "prodSend"; mode: ProdMode; cents: number }
  | { kind: "prodRefund"; mode: ProdMode; percent: number }
  | { kind: "statusJobs" }
  | { kind: "awaitInFlight" };

const prodModeArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<ProdMode>("succeed_then_timeout", "succeed_then_error") },
  { weight: 1, arbitrary: fc.constant<ProdMode>("decline") },
  { weight: 2, arbitrary: fc.constant<ProdMode>("none") },
);
const prodCmdArb: fc.Arbitrary<ProdCmd> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("prodSend" as const), mode: prodModeArb, cents: fc.integer({ min: 1_000, max: 60_000 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("prodRefund" as const), mode: prodModeArb, percent: fc.integer({ min: 1, max: 100 }) }) },
  { weight: 2, arbitrary: fc.constant({ kind: "statusJobs" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "awaitInFlight" as const }) },
);

async function pagosur(path: string, body?: unknown) {
  const r = await fetch(`${PAGOSUR}${path}`, body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  assert.equal(r.status, 200, `${path}: ${await r.clone().text()}`);
  return r.json() as Promise<any>;
}
const uniq = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
const freshClabe = () => {
  let first17 = "002180";
  for (let i = 0; i < 11; i++) first17 += String(Math.floor(Math.random() * 10));
  return first17 + clabeCheckDigit(first17);
};


type LostPayout = { id: string; account: string; mode: LostMode };
type LostRefund = { claimId: string; charge: string; mode: LostMode };

class ProdRun {
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
    await settleDueBalances({ now: new Date(Date.now() + 4 * DAY) });
    return { tx, charge };
  }

  /** MXN in the payout balance: a SPEI deposit through pagosur, settled, moved and swapped. */
  async fund(shopId: string) {
    await setShopDepositMethods(shopId, { enable: ["dm_spei_pagosur"] });
    const a = await this.call("/me/deposit-accounts", { body: { endUserRef: `u-${uniq()}`, name: "Pay In", email: `dep-${uniq()}@example.com` } });
    if (a.status !== 201 && a.status !== 200) this.fail("deposit account", a.text.slice(0, 300));
    const sent = await pagosur("/_control/deposits", { clabe: a.body.account.clabe, amount: "364000", payerName: "Payer", payerBank: "Banorte" });
    assert.deepEqual(sent.statuses, [200]);
    await settleDueBalances({ now: new Date(Date.now() + 4 * DAY) });
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
    const unbalanced = await unbalancedPostings(this.merchantId);
    if (unbalanced.length) this.fail(step, `unbalanced postings ${j(unbalanced)}`);
    const mismatches = await runningTotalMismatches(this.merchantId);
    if (mismatches.length) this.fail(step, `running totals differ from the entries: ${j(mismatches)}`);
    const verified = await verifyLedger(this.merchantId, "production", { batch: 25 });
    if (verified.warnings.length) this.fail(step, `the verification job warns: ${j(verified.warnings)}`);
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

test("ledger property: production payouts and refunds whose provider answer is lost, refusals and status jobs keep the ledger consistent, and every lost answer ends completed once", { timeout: 300_000 }, async () => {
  for (const [quote, rate] of [["BRL", "5.40"], ["MXN", "18.20"], ["COP", "4100"]] as const) await setRate(quote, rate, "test");
  const numRuns = Number(process.env.LEDGER_PROP_PROD_RUNS ?? 4);
  const seed = process.env.LEDGER_PROP_SEED ? Number(process.env.LEDGER_PROP_SEED) : undefined;
  await fc.assert(
    fc.asyncProperty(fc.array(prodCmdArb, { minLength: 4, maxLength: 10 }), async (cmds) => {
      const m = await newMerchant({ tier: "premium" });
      const run = new ProdRun(m.merchantId, m.production.secretKey);
      await run.fund(m.shopId);
      await run.check("funded");
      await runSteps(run, cmds, (label) => run.check(label));
      await run.final();
      if (process.env.LEDGER_PROP_TRACE) console.log(`--- production\n${run.trace.join("\n")}`);
    }),
    { numRuns, seed, plugins: [fc.interruptAfterTimeLimit(60_000)] },
  );
});
