// GET /me/deposit-accounts/{id}/deposits: transfers received on one account, newest first.
import { db } from "@/lib/platform/db";
import { pageRows, readPage } from "@/lib/platform/paging/pagination";
import { presentDeposit, usable } from "@/lib/deposits/present";
import { statsFor } from "@/lib/deposits/deposit-stats";
import { findOwnedAccount, type ShopContext } from "@/lib/deposits/scope";

export async function listDeposits(auth: ShopContext, id: string, query: { limit?: unknown; offset?: unknown; startingAfter?: string; endingBefore?: string }) {
  const account = await findOwnedAccount(auth, id);
  const where = { depositAccountId: account.id };
  const [{ rows, meta }, stats] = await Promise.all([
    pageRows(readPage(query, { max: 200, def: 50 }), {
      field: "receivedAt",
      find: ({ extra, orderBy, skip, take }) => db().deposit.findMany({ where: { ...where, ...extra }, orderBy, skip, take }),
      count: () => db().deposit.count({ where }),
      countKey: ["deposit", where],
      cursor: (cid) => db().deposit.findFirst({ where: { ...where, id: cid } }),
    }),
    statsFor([account.id]),
  ]);
  return {
    account: { id: account.id, endUserRef: account.endUserRef, clabe: usable(account).clabe, currency: account.currency, status: usable(account).status },
    stats: stats.get(account.id)!,
    deposits: rows.map(presentDeposit),
    ...meta,
  };
}
