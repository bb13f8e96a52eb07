// GET /me/deposit-accounts/{id}/deposits: transfers received on one account, newest first.
import { db } from "@/lib/db";
import { clampPage } from "@/lib/http/pagination";
import { presentDeposit, usable } from "@/lib/deposits/present";
import { statsFor } from "@/lib/deposits/deposit-stats";
import { findOwnedAccount, type ShopContext } from "@/lib/deposits/scope";

export async function listDeposits(auth: ShopContext, id: string, query: { limit?: unknown; offset?: unknown }) {
  const account = await findOwnedAccount(auth, id);
  const page = clampPage(query, { max: 200, def: 50 });
  const where = { depositAccountId: account.id };
  const [rows, total, stats] = await Promise.all([
    db().deposit.findMany({ where, orderBy: [{ receivedAt: "desc" }, { id: "desc" }], skip: page.offset, take: page.limit }),
    db().deposit.count({ where }),
    statsFor([account.id]),
  ]);
  return {
    account: { id: account.id, endUserRef: account.endUserRef, clabe: usable(account).clabe, currency: account.currency, status: usable(account).status },
    stats: stats.get(account.id)!,
    deposits: rows.map(presentDeposit),
    pagination: { total, limit: page.limit, offset: page.offset, pages: Math.ceil(total / page.limit) },
  };
}
