// Pending production payments written straight into the database, for tests and benchmarks that
// need thousands of open vouchers: each is a copy of a template row (a real payment) with its own
// id, provider charge, creation time, deadline, next reconciliation check and last one (none: a
// payment never asked yet, which reconciliation takes before the backlog).
import { copyTransactions } from "../../lib/test-fixtures/copy-transactions.ts";

export type PendingSeed = { id: string; provider: string; providerRef: string | null; createdAt: Date; expiresAt: Date; nextCheckAt: Date; checkedAt?: Date | null; merchantId?: string; shopId?: string };

export async function seedPendingFrom(templateId: string, rows: PendingSeed[], batch = 5_000): Promise<void> {
  const over: Record<string, string> = {
    id: "n.id",
    provider: "n.provider",
    provider_ref: "n.ref",
    created_at: "n.created",
    updated_at: "n.created",
    expires_at: "n.expires",
    next_check_at: "n.next",
    checked_at: "n.checked",
    status: "'pending'",
    completed_at: "NULL",
    late_completion: "false",
    merchant_order_id: "n.id",
    merchant_id: "coalesce(n.merchant, tpl.merchant_id)",
    shop_id: "coalesce(n.shop, tpl.shop_id)",
  };
  const from = `unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::timestamptz[], $7::timestamptz[], $8::text[], $9::text[], $10::timestamptz[]) AS n(id, provider, ref, created, expires, next, merchant, shop, checked)`;
  for (let i = 0; i < rows.length; i += batch) {
    const b = rows.slice(i, i + batch);
    await copyTransactions(templateId, over, from, [b.map((r) => r.id), b.map((r) => r.provider), b.map((r) => r.providerRef), b.map((r) => r.createdAt.toISOString()), b.map((r) => r.expiresAt.toISOString()), b.map((r) => r.nextCheckAt.toISOString()), b.map((r) => r.merchantId ?? null), b.map((r) => r.shopId ?? null), b.map((r) => r.checkedAt?.toISOString() ?? null)]);
  }
}
