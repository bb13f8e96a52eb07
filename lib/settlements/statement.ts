// What a settlement batch's receipt reconciles (issue 24, point 4): every movement of the
// merchant's available pay-in balance since the previous batch closed, grouped by what it was
// (payments and deposits settled, refunds, chargebacks, reserve released, withdrawals with their
// fees, failed batches returned…), with counts and USD totals. Read from the ledger inside the
// closing transaction, under the ledger lock: the lines add up to exactly the gross the batch
// takes (the previous close emptied `available`; the first batch starts from the beginning).
import type { Tx } from "@/lib/platform/db";
import type { Environment } from "@/lib/generated/prisma/enums";

export type StatementLine = { kind: string; count: number; amountUsd: string };
export type WithdrawalsSummary = { count: number; amountUsd: string; feeUsd: string };

/** The receipt's words for each kind of movement, in the order it lists them. */
export const STATEMENT_LABELS: Record<string, string> = {
  settlement: "Payments settled (net of fees and reserve)",
  deposit_settled: "Deposits settled (net of fees)",
  reserve_release: "Reserve released",
  refund_freeze: "Refunds",
  refund_immediate: "Refunds",
  refund_rejected: "Refunds reversed",
  chargeback_freeze: "Chargebacks",
  chargeback_won: "Chargebacks won (returned)",
  chargeback_lost: "Chargeback fees",
  med_freeze: "PIX MED claims (blocked)",
  med_released: "PIX MED claims released",
  withdrawal_requested: "Withdrawals (amount + fee)",
  withdrawal_failed: "Withdrawals returned (failed)",
  settlement_failed: "Earlier batches returned (failed)",
  payout_transfer: "Transfers to the payout balance",
  adjustment: "Adjustments",
};

export async function availableStatement(tx: Tx, merchantId: string, environment: Environment, since: Date): Promise<{ lines: StatementLine[]; withdrawals: WithdrawalsSummary }> {
  // The previous close's entry on `available` (by seq, the ledger's commit order), found from the
  // newest postings backwards; entries after it are this batch's.
  const rows = await tx.$queryRaw<Array<{ kind: string; n: string; amount: string }>>`
    WITH last_close AS (
      SELECT p.id FROM ledger_postings p
      WHERE p.merchant_id = ${merchantId} AND p.environment = ${environment}::"Environment" AND p.kind = 'settlement_closed'
      ORDER BY p.created_at DESC LIMIT 1),
    since AS (
      SELECT COALESCE((SELECT max(e.seq) FROM ledger_entries e JOIN last_close l ON l.id = e.posting_id), 0) AS seq)
    SELECT CASE WHEN p.kind = 'settlement' AND EXISTS (SELECT 1 FROM ledger_postings d WHERE d.transaction_id = p.transaction_id AND d.kind = 'deposit_credited') THEN 'deposit_settled'
                WHEN p.kind = 'refund_immediate' THEN 'refund_freeze' ELSE p.kind END AS kind,
           count(DISTINCT p.id)::text AS n, sum(e.amount)::text AS amount
    FROM ledger_entries e JOIN ledger_postings p ON p.id = e.posting_id, since
    WHERE e.merchant_id = ${merchantId} AND e.environment = ${environment}::"Environment" AND e.account = 'available' AND e.currency = 'USD' AND e.seq > since.seq
    GROUP BY 1`;
  const order = Object.keys(STATEMENT_LABELS);
  const rank = (k: string) => (order.includes(k) ? order.indexOf(k) : order.length);
  const lines = rows
    .map((r) => ({ kind: r.kind, count: Number(r.n), amountUsd: r.amount }))
    .filter((l) => l.amountUsd !== "0")
    .sort((a, b) => rank(a.kind) - rank(b.kind) || a.kind.localeCompare(b.kind));
  // Withdrawals' amount and fee apart (their posting holds the sum): the ones requested since the previous batch.
  const [w] = await tx.$queryRaw<Array<{ n: string; amount: string | null; fee: string | null }>>`
    SELECT count(*)::text AS n, sum(amount_usd)::text AS amount, sum(fee_usd)::text AS fee FROM withdrawals
    WHERE merchant_id = ${merchantId} AND environment = ${environment}::"Environment" AND created_at > ${since}`;
  return { lines, withdrawals: { count: Number(w?.n ?? 0), amountUsd: w?.amount ?? "0", feeUsd: w?.fee ?? "0" } };
}
