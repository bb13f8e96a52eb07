// GET /me/deposit-accounts and GET /me/deposit-accounts/{id}: the shop's accounts, newest first.
import { db } from "@/lib/db";
import { clampPage } from "@/lib/http/pagination";
import { presentAccount } from "@/lib/deposits/present";
import { statsFor } from "@/lib/deposits/deposit-stats";
import { USABLE } from "@/lib/deposits/provision-account";
import { findOwnedAccount, requireShop, type ShopContext } from "@/lib/deposits/scope";

export async function listDepositAccounts(auth: ShopContext, query: { limit?: unknown; offset?: unknown; endUserRef?: string; include?: "stats" }) {
  const shop = requireShop(auth);
  const page = clampPage(query, { max: 200, def: 50 });
  const where = { merchantId: auth.merchant.id, shopId: shop.id, environment: auth.environment, ...USABLE, ...(query.endUserRef ? { endUserRef: query.endUserRef } : {}) };
  const [rows, total] = await Promise.all([
    db().depositAccount.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: page.offset, take: page.limit }),
    db().depositAccount.count({ where }),
  ]);
  const stats = query.include === "stats" ? await statsFor(rows.map((r) => r.id)) : null;
  return {
    accounts: rows.map((r) => presentAccount(r, stats?.get(r.id))),
    pagination: { total, limit: page.limit, offset: page.offset, pages: Math.ceil(total / page.limit) },
  };
}

export async function getDepositAccount(auth: ShopContext, id: string) {
  return { account: presentAccount(await findOwnedAccount(auth, id)) };
}
