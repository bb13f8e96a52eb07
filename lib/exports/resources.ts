// What each CSV export holds: its columns, and one keyset-paged query per batch. Rows come in
// (created_at, id) order from the merchant's (merchant, environment, created_at) indexes, a batch
// at a time, so a million rows never sit in memory; times are printed in the report's time zone
// by PostgreSQL, amounts as exact decimals from minor units (toDecimalString, never a float).
import { sql } from "@/lib/platform/db";
import { toDecimalString } from "@/lib/money/amount";
import type { Environment } from "@/lib/generated/prisma/enums";

export type ExportScope = { merchantId: string; environment: Environment; shopId: string | null; timeZone: string; from: Date; to: Date };
export type Cursor = { at: string; id: string } | null;
type Row = Record<string, unknown> & { cursor_at: string; id: string };
export type ExportResource = {
  header: string[];
  batch: (scope: ExportScope, after: Cursor, limit: number) => Promise<{ rows: string[][]; last: Cursor }>;
};

/** Local time in the report's zone, to the second, ISO-like ("2026-11-24 09:30:00"). */
const local = (col: string) => `to_char(${col} AT TIME ZONE $4, 'YYYY-MM-DD HH24:MI:SS')`;
const money = (v: unknown, currency: unknown) => (v === null || v === undefined ? "" : toDecimalString(BigInt(v as string), String(currency)));
const text = (v: unknown) => (v === null || v === undefined ? "" : String(v));

/**
 * One page of `table` for the scope, after the cursor: `columns` are the SELECT list (with
 * `cursor_at` = created_at as text at full precision, and `id`). $1 merchant, $2 environment,
 * $3 shop or null, $4 time zone, $5 from, $6 to, $7/$8 the cursor, $9 the limit.
 */
async function page(table: string, columns: string, shopColumn: string | null, scope: ExportScope, after: Cursor, limit: number): Promise<Row[]> {
  const shop = shopColumn ? `AND ($3::text IS NULL OR ${shopColumn} = $3)` : "AND ($3::text IS NULL OR TRUE)";
  return sql<Row>(
    `SELECT ${columns}, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') AS cursor_at
       FROM ${table}
      WHERE merchant_id = $1 AND environment = $2::"Environment" ${shop}
        AND created_at >= $5 AND created_at < $6
        AND ($7::timestamp IS NULL OR (created_at, id) > ($7::timestamp AT TIME ZONE 'UTC', $8::text))
      ORDER BY created_at, id
      LIMIT $9`,
    [scope.merchantId, scope.environment, scope.shopId, scope.timeZone, scope.from, scope.to, after?.at ?? null, after?.id ?? null, limit],
  );
}

const lastOf = (rows: Row[]): Cursor => (rows.length ? { at: rows[rows.length - 1]!.cursor_at, id: rows[rows.length - 1]!.id } : null);

const payments: ExportResource = {
  header: ["id", "created_at", "completed_at", "status", "merchant_order_id", "payment_method_id", "method", "country", "amount_usd", "amount_local", "currency_local", "fee_platform_usd", "fee_provider_usd", "fee_network_usd", "reserve_usd", "refunded_local", "customer_name", "customer_email", "provider", "provider_ref"],
  async batch(scope, after, limit) {
    const rows = await page(
      "transactions",
      `id, ${local("created_at")} AS created, ${local("completed_at")} AS completed, status::text AS status, merchant_order_id, payment_method_id, method, country,
       amount_usd::text, amount_local::text, currency_local, fee_platform::text, fee_provider::text, fee_network::text, reserve_amount::text, refunded_local::text,
       user_name, user_email, provider, provider_ref`,
      "shop_id",
      scope,
      after,
      limit,
    );
    return {
      rows: rows.map((r) => [
        r.id, text(r.created), text(r.completed), text(r.status), text(r.merchant_order_id), text(r.payment_method_id), text(r.method), text(r.country),
        money(r.amount_usd, "USD"), money(r.amount_local, r.currency_local), text(r.currency_local), money(r.fee_platform, "USD"), money(r.fee_provider, "USD"),
        money(r.fee_network, "USD"), money(r.reserve_amount, "USD"), money(r.refunded_local, r.currency_local), text(r.user_name), text(r.user_email), text(r.provider), text(r.provider_ref),
      ]),
      last: lastOf(rows),
    };
  },
};

/** The merchant's own accounts (its balance buckets and payout balances), not the counter accounts. */
const MERCHANT_ACCOUNTS = ["available", "pending", "reserve", "frozen", "payout_available", "payout_in_flight", "in_transit"];

// A shop-bound key: the movements its shop's operations posted (its payments, their claims, its
// deposits, the payouts its keys sent), plus the merchant's own (transfers, swaps, settlements,
// withdrawals: no shop); never another shop's (the posting's shop_id, written by the kernel).
const ledger: ExportResource = {
  header: ["id", "created_at", "posting_id", "kind", "account", "currency", "amount", "transaction_id", "claim_id"],
  // Entries are paged by their insertion sequence (the (merchant, environment, seq) index).
  async batch(scope, after, limit) {
    const rows = await sql<Row & { seq: string }>(
      `SELECT e.id, e.seq::text AS seq, ${local("e.created_at")} AS created, e.posting_id, p.kind, e.account, e.currency, e.amount::text AS amount, p.transaction_id, p.claim_id
         FROM ledger_entries e JOIN ledger_postings p ON p.id = e.posting_id
        WHERE e.merchant_id = $1 AND e.environment = $2::"Environment"
          AND ($3::text IS NULL OR p.shop_id IS NULL OR p.shop_id = $3)
          AND e.account = ANY($9::text[])
          AND e.created_at >= $5 AND e.created_at < $6
          AND ($7::bigint IS NULL OR e.seq > $7::bigint)
        ORDER BY e.seq
        LIMIT $8`,
      [scope.merchantId, scope.environment, scope.shopId, scope.timeZone, scope.from, scope.to, after?.at ?? null, limit, MERCHANT_ACCOUNTS],
    );
    const last = rows[rows.length - 1];
    return {
      rows: rows.map((r) => [r.id, text(r.created), text(r.posting_id), text(r.kind), text(r.account), text(r.currency), money(r.amount, r.currency), text(r.transaction_id), text(r.claim_id)]),
      last: last ? { at: last.seq, id: last.id } : null,
    };
  },
};

const payouts: ExportResource = {
  header: ["id", "created_at", "completed_at", "failed_at", "status", "method_id", "method_name", "rail", "country", "amount", "currency", "recipient_name", "provider", "provider_ref", "failure_reason"],
  async batch(scope, after, limit) {
    const rows = await page(
      "payouts",
      `id, ${local("created_at")} AS created, ${local("completed_at")} AS completed, ${local("failed_at")} AS failed, status::text AS status, method_id, method_name, rail, country,
       amount::text, currency, recipient->>'name' AS recipient_name, provider, provider_ref, failure_reason`,
      // A shop key: the payouts its shop sent and the merchant-wide ones (no shop), never another shop's.
      "COALESCE(shop_id, $3)",
      scope,
      after,
      limit,
    );
    return {
      rows: rows.map((r) => [r.id, text(r.created), text(r.completed), text(r.failed), text(r.status), text(r.method_id), text(r.method_name), text(r.rail), text(r.country), money(r.amount, r.currency), text(r.currency), text(r.recipient_name), text(r.provider), text(r.provider_ref), text(r.failure_reason)]),
      last: lastOf(rows),
    };
  },
};

// Claims have no shop of their own: a shop-bound key sees those of its shop's payments.
const claims: ExportResource = {
  header: ["id", "created_at", "resolved_at", "kind", "status", "transaction_id", "amount", "currency", "amount_usd", "reason", "due_by", "evidence_count"],
  async batch(scope, after, limit) {
    const rows = await page(
      "claims",
      `id, ${local("created_at")} AS created, ${local("resolved_at")} AS resolved, kind::text AS kind, status::text AS status, transaction_id, amount_local::text, currency, amount_usd::text, reason,
       ${local("due_by")} AS due, (SELECT count(*) FROM claim_evidence e WHERE e.claim_id = claims.id)::text AS evidence_count`,
      "(SELECT t.shop_id FROM transactions t WHERE t.id = claims.transaction_id)",
      scope,
      after,
      limit,
    );
    return {
      rows: rows.map((r) => [
        r.id, text(r.created), text(r.resolved), text(r.kind), text(r.status), text(r.transaction_id), money(r.amount_local, r.currency), text(r.currency), money(r.amount_usd, "USD"), text(r.reason),
        text(r.due), text(r.evidence_count),
      ]),
      last: lastOf(rows),
    };
  },
};

const settlements: ExportResource = {
  header: ["id", "created_at", "status", "period_from", "period_to", "transaction_count", "gross_usd", "fee_usd", "net_usd", "asset", "network", "address", "tx_hash", "paid_at", "failure_reason"],
  async batch(scope, after, limit) {
    const rows = await page(
      "settlements",
      `id, ${local("created_at")} AS created, status::text AS status, ${local("period_from")} AS period_from, ${local("period_to")} AS period_to, transaction_count,
       gross_usd::text, fee_usd::text, net_usd::text, asset, network, address, tx_hash, ${local("paid_at")} AS paid, failure_reason`,
      null,
      scope,
      after,
      limit,
    );
    return {
      rows: rows.map((r) => [r.id, text(r.created), text(r.status), text(r.period_from), text(r.period_to), text(r.transaction_count), money(r.gross_usd, "USD"), money(r.fee_usd, "USD"), money(r.net_usd, "USD"), text(r.asset), text(r.network), text(r.address), text(r.tx_hash), text(r.paid), text(r.failure_reason)]),
      last: lastOf(rows),
    };
  },
};

export const EXPORTS = { payments, ledger, payouts, claims, settlements } satisfies Record<string, ExportResource>;
export type ExportName = keyof typeof EXPORTS;
export const EXPORT_NAMES = Object.keys(EXPORTS) as ExportName[];
