// The `stats` of accounts: counts and totals of their deposits, for many accounts in one query.
import { db } from "@/lib/platform/db";
import { toMajor } from "@/lib/money/amount";
import type { DepositStats } from "@/lib/deposits/present";

export async function statsFor(accountIds: string[]): Promise<Map<string, DepositStats>> {
  const out = new Map<string, DepositStats>();
  for (const id of accountIds) out.set(id, { deposits: 0, credited: 0, totalUsd: 0, localTotals: [], lastDepositAt: null });
  if (accountIds.length === 0) return out;
  const rows = await db().deposit.groupBy({
    by: ["depositAccountId", "status", "currency"],
    where: { depositAccountId: { in: accountIds } },
    _count: { _all: true },
    _sum: { amount: true, amountUsd: true },
    _max: { receivedAt: true },
  });
  const usd = new Map<string, bigint>();
  for (const r of rows) {
    const s = out.get(r.depositAccountId)!;
    s.deposits += r._count._all;
    const last = r._max.receivedAt?.toISOString() ?? null;
    if (last && (!s.lastDepositAt || last > s.lastDepositAt)) s.lastDepositAt = last;
    if (r.status !== "credited") continue;
    s.credited += r._count._all;
    usd.set(r.depositAccountId, (usd.get(r.depositAccountId) ?? 0n) + (r._sum.amountUsd ?? 0n));
    s.localTotals.push({ currency: r.currency, amount: toMajor(r._sum.amount ?? 0n, r.currency) });
  }
  for (const [id, total] of usd) out.get(id)!.totalUsd = toMajor(total, "USD");
  return out;
}
