// GET /me/deposit-accounts and GET /me/deposit-accounts/{id}: the shop's accounts, newest first.
import { db } from "@/lib/platform/db";
import { pageRows, readPage } from "@/lib/platform/paging/pagination";
import { presentAccount } from "@/lib/deposits/present";
import { statsFor } from "@/lib/deposits/deposit-stats";
import { USABLE } from "@/lib/deposits/provision-account";
import { findOwnedAccount, requireShop, type ShopContext } from "@/lib/deposits/scope";

export async function listDepositAccounts(auth: ShopContext, query: { limit?: unknown; offset?: unknown; startingAfter?: string; endingBefore?: string; endUserRef?: string; include?: "stats" }) {
  const shop = requireShop(auth);
  const scope = { merchantId: auth.merchant.id, shopId: shop.id, environment: auth.environment, ...USABLE };
  const where = { ...scope, ...(query.endUserRef ? { endUserRef: query.endUserRef } : {}) };
  const { rows, meta } = await pageRows(readPage(query, { max: 200, def: 50 }), {
    find: ({ extra, orderBy, skip, take }) => db().depositAccount.findMany({ where: { ...where, ...extra }, orderBy, skip, take }),
    count: () => db().depositAccount.count({ where }),
    countKey: ["depositAccount", where],
    cursor: (id) => db().depositAccount.findFirst({ where: { ...scope, id } }),
  });
  const stats = query.include === "stats" ? await statsFor(rows.map((r) => r.id)) : null;
  return { accounts: rows.map((r) => presentAccount(r, stats?.get(r.id))), ...meta };
}

export async function getDepositAccount(auth: ShopContext, id: string) {
  return { account: presentAccount(await findOwnedAccount(auth, id)) };
}
