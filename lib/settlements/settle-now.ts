// POST /me/balance/settle-now (sandbox): settlement takes a day (T+N), so a merchant trying the
// sandbox could not reach settlements or withdrawals on day one. This moves every completed,
// still-pending payment of the key's merchant (of its shop, for a shop-bound key) to `available`
// now, through the same recipe as the daily job (lib/settlements/settle-balances.ts); nothing else
// differs. Sandbox only: the gate answers production_key_refused elsewhere (policy `settleNow`).
import { db } from "@/lib/platform/db";
import { settleTransactions } from "@/lib/settlements/settle-balances";
import { getBalance } from "@/lib/ledger/get-balance";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import { merchantScope } from "@/lib/platform/scope";

/** Enough for any sandbox day; a larger backlog settles over a second press. */
const LIMIT = 1000;

export async function settleNow(auth: AuthContext) {
  const due = await db().transaction.findMany({
    where: { ...merchantScope(auth), ...(auth.shop ? { shopId: auth.shop.id } : {}), completedAt: { not: null }, settlementStatus: "pending" },
    select: { id: true },
    orderBy: { settleAt: "asc" },
    take: LIMIT,
  });
  const settled = await settleTransactions(due.map((d) => d.id));
  return { settled, balance: await getBalance(auth) };
}
