// The commands of the ledger property tests (ledger-property*.test.ts; not a test file itself)
// and their fast-check arbitraries, with the reads of the database the invariants compare
// against, each one SQL statement (one snapshot).
import fc from "fast-check";
import { db } from "@/lib/platform/db";
import { verifyLedger } from "@/lib/ledger/verify";

export const DAY = 86_400_000;
export const BUCKETS = ["available", "pending", "reserve", "frozen"] as const;
export type Bucket = (typeof BUCKETS)[number];
export type Tier = "starter" | "standard" | "premium";

// ---------------------------------------------------------------------------------------------
// Buyer data each sandbox rail needs (decisions.md, Pay-ins).
export const BUYER = { userName: "Ana Souza", userEmail: "ana@example.com" };
export const RAIL_DATA = {
  sbx_pix: { ...BUYER, documentId: "529.982.247-25" },
  sbx_spei: { userName: "Diego Gómez", documentId: "GODE561231GR8" },
  sbx_pse: { ...BUYER, documentId: "1234567890" },
  sbx_cash: { ...BUYER, userPhone: "+525512345678", documentId: "GODE561231GR8" },
  sbx_card: {},
  // Brazil's test card, created now and then in installments (issue 42: the financing leg).
  sbx_br_card: {},
} as const;
export type RailId = keyof typeof RAIL_DATA;
export const RAILS = Object.keys(RAIL_DATA) as RailId[];

export type Action = "paid" | "failed" | "expired" | "refunded" | "chargeback" | "open_med";
export type Cmd =
  | { kind: "create"; rail: RailId; cents: number; sandboxSimulate?: "paid" | "chargeback"; installments?: number }
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

export type PayoutCurrency = "USD" | "MXN" | "BRL" | "COP";
export const PAYOUT_KINDS = new Set<Cmd["kind"]>(["fundSandbox", "transfer", "swap", "send", "simulatePayout"]);
export const PAYOUT_METHODS = { po_mx_spei: "MXN", po_br_pix: "BRL", po_co_bank: "COP", sbx_po_mx_spei: "MXN" } as const;
export type PayoutMethodId = keyof typeof PAYOUT_METHODS;
export type PayoutAction = "completed" | "failed" | "rejected" | "processing";
export const RECIPIENTS: Record<string, Record<string, string>> = {
  MXN: { name: "Carlos Ruiz", account: "002180012345678906", bankCode: "002", documentId: "GODE561231GR8" },
  BRL: { name: "Ana Souza", account: "52998224725", accountType: "CPF", documentId: "52998224725" },
  COP: { name: "Camila Rojas", account: "00123456789", bankCode: "007", documentId: "1020304050" },
};

export const pick = fc.nat({ max: 63 });
export const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
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
        // Sent on sbx_br_card only; a count too many for the amount is refused, nothing created.
        installments: fc.constantFrom(2, 3, 6, 12),
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
        // A PIX MED claim (only a completed PIX payment takes one; others answer 400).
        { weight: 1, arbitrary: fc.constant("open_med" as const) },
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
export const moneyCmdArb: fc.Arbitrary<Cmd> = fc.oneof(
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

export type Sums = Record<string, { total: bigint; n: bigint }>;

/** Every account's USD sum and entry count for the merchant in sandbox. */
export async function accountSums(merchantId: string): Promise<Sums> {
  const rows = await db().$queryRaw<{ account: string; total: bigint; n: bigint }[]>`
    SELECT account, SUM(amount)::bigint AS total, COUNT(*)::bigint AS n FROM ledger_entries
    WHERE merchant_id = ${merchantId} AND environment = 'sandbox' AND currency = 'USD'
    GROUP BY account`;
  return Object.fromEntries(rows.map((r) => [r.account, { total: r.total, n: r.n }]));
}
export const bucket = (s: Sums, b: string) => s[b]?.total ?? 0n;
export const sameSums = (a: Sums, b: Sums) => JSON.stringify(a, (_, v) => (typeof v === "bigint" ? v.toString() : v)) === JSON.stringify(b, (_, v) => (typeof v === "bigint" ? v.toString() : v));

export async function unbalancedPostings(merchantId: string) {
  return db().$queryRaw<{ posting_id: string; currency: string; total: bigint }[]>`
    SELECT posting_id, currency, SUM(amount)::bigint AS total FROM ledger_entries
    WHERE merchant_id = ${merchantId}
    GROUP BY posting_id, currency HAVING SUM(amount) <> 0`;
}

/**
 * Running totals (ledger_balances) that differ from the sums and counts recomputed from the
 * entries, over every account and currency of the merchant, in one statement (one snapshot).
 */
export async function runningTotalMismatches(merchantId: string) {
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
export async function crossChecks(merchantId: string) {
  const [r] = await db().$queryRaw<{ frozen: bigint; open_claims: bigint; reserve: bigint; held_reserves: bigint; financing: bigint; financing_kept: bigint }[]>`
    SELECT
      (SELECT COALESCE(SUM(amount), 0) FROM ledger_entries WHERE merchant_id = ${merchantId} AND environment = 'sandbox' AND currency = 'USD' AND account = 'frozen')::bigint AS frozen,
      (SELECT COALESCE(SUM(amount_usd), 0) FROM claims WHERE merchant_id = ${merchantId} AND environment = 'sandbox' AND status IN ('pending', 'open'))::bigint AS open_claims,
      (SELECT COALESCE(SUM(amount), 0) FROM ledger_entries WHERE merchant_id = ${merchantId} AND environment = 'sandbox' AND currency = 'USD' AND account = 'reserve')::bigint AS reserve,
      (SELECT COALESCE(SUM(reserve_amount), 0) FROM transactions WHERE merchant_id = ${merchantId} AND environment = 'sandbox' AND completed_at IS NOT NULL AND reserve_released_at IS NULL)::bigint AS held_reserves,
      (SELECT COALESCE(SUM(amount), 0) FROM ledger_entries WHERE merchant_id = ${merchantId} AND environment = 'sandbox' AND currency = 'USD' AND account = 'financing_fees')::bigint AS financing,
      ((SELECT COALESCE(SUM(fee_financing), 0) FROM transactions WHERE merchant_id = ${merchantId} AND environment = 'sandbox' AND completed_at IS NOT NULL)
        - (SELECT COALESCE(SUM(financing_reversed), 0) FROM claims WHERE merchant_id = ${merchantId} AND environment = 'sandbox' AND kind = 'user_dispute' AND status IN ('pending', 'resolved')))::bigint AS financing_kept`;
  return r!;
}

/**
 * The payout ledger from one snapshot: per currency, the available and in-flight accounts, and
 * what processing (debited) payouts hold.
 */
export async function payoutChecks(merchantId: string, environment: "sandbox" | "production" = "sandbox") {
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

export async function scheduledActionsOf(merchantId: string) {
  return db().$queryRaw<{ id: string; kind: string; action: string; state: string; last_error: string | null }[]>`
    SELECT sa.id, sa.kind, sa.action, sa.state, sa.last_error, sa.attempts, sa.due_at, sa.locked_until, t.status AS payment_status FROM scheduled_actions sa
    JOIN transactions t ON t.id = sa.transaction_id
    WHERE t.merchant_id = ${merchantId}`;
}

/** Open chargebacks and PIX MED claims: the disputes a shop answers, accepts or has decided. */
export async function openChargebacks(merchantId: string): Promise<string[]> {
  const rows = await db().claim.findMany({ where: { merchantId, kind: { in: ["chargeback", "pix_med"] }, status: "open" }, select: { id: true }, orderBy: { createdAt: "asc" } });
  return rows.map((r) => r.id);
}

export const usdMinor = (major: number) => Math.round(major * 100);
/** API number -> minor units for the check only (every payout currency here has 2 decimals). */
export const toMinorOf = (major: number, _currency: string) => Math.round(major * 100);
export const j = (v: unknown) => JSON.stringify(v, (_, x) => (typeof x === "bigint" ? x.toString() : x));

/**
 * The kernel's own invariants on one ledger: (1) every posting of the merchant sums to zero per
 * currency; (1b) the running totals equal the entries, and the verification job (its check, run
 * here on this merchant's ledger) finds nothing. `fail` reports what broke.
 */
export async function kernelChecks(merchantId: string, environment: "sandbox" | "production", fail: (message: string) => never) {
  const unbalanced = await unbalancedPostings(merchantId);
  if (unbalanced.length) fail(`unbalanced postings ${j(unbalanced)}`);
  const mismatches = await runningTotalMismatches(merchantId);
  if (mismatches.length) fail(`running totals differ from the entries: ${j(mismatches)}`);
  const verified = await verifyLedger(merchantId, environment, { batch: 25 });
  if (verified.warnings.length) fail(`the verification job warns: ${j(verified.warnings)}`);
}
