// GET /me/deposit-accounts/{id}/deposits: transfers received on one account, newest first.
import type { Deposit } from "@/lib/generated/prisma/client";
import { db } from "@/lib/platform/db";
import { readPage } from "@/lib/platform/paging/pagination";
import { pageModel } from "@/lib/platform/paging/page-model";
import { presentDeposit, usable } from "@/lib/deposits/present";
import { statsFor } from "@/lib/deposits/deposit-stats";
import { findOwnedAccount, type ShopContext } from "@/lib/deposits/scope";

export async function listDeposits(auth: ShopContext, id: string, query: { limit?: unknown; offset?: unknown; startingAfter?: string; endingBefore?: string }) {
  const account = await findOwnedAccount(auth, id);
  const where = { depositAccountId: account.id };
  const [{ rows, meta }, stats] = await Promise.all([
    pageModel<Deposit>(readPage(query, { max: 200, def: 50 }), { model: db().deposit, name: "deposit", where, scope: where, field: "receivedAt" }),
    statsFor([account.id]),
  ]);
  return {
    account: { id: account.id, endUserRef: account.endUserRef, clabe: usable(account).clabe, currency: account.currency, status: usable(account).status },
    stats: stats.get(account.id)!,
    deposits: rows.map(presentDeposit),
    ...meta,
  };
}
