// GET /me/deposit-accounts and GET /me/deposit-accounts/{id}: the shop's accounts, newest first.
import type { DepositAccount } from "@/lib/generated/prisma/client";
import { db } from "@/lib/platform/db";
import { readPage } from "@/lib/platform/paging/pagination";
import { pageModel } from "@/lib/platform/paging/page-model";
import { presentAccount } from "@/lib/deposits/present";
import { statsFor } from "@/lib/deposits/deposit-stats";
import { USABLE } from "@/lib/deposits/provision-account";
import { findOwnedAccount, requireShop, type ShopContext } from "@/lib/deposits/scope";

export async function listDepositAccounts(auth: ShopContext, query: { limit?: unknown; offset?: unknown; startingAfter?: string; endingBefore?: string; endUserRef?: string; include?: "stats" }) {
  const shop = requireShop(auth);
  const scope = { merchantId: auth.merchant.id, shopId: shop.id, environment: auth.environment, ...USABLE };
  const where = { ...scope, ...(query.endUserRef ? { endUserRef: query.endUserRef } : {}) };
  const { rows, meta } = await pageModel<DepositAccount>(readPage(query, { max: 200, def: 50 }), { model: db().depositAccount, name: "depositAccount", where, scope });
  const stats = query.include === "stats" ? await statsFor(rows.map((r) => r.id)) : null;
  return { accounts: rows.map((r) => presentAccount(r, stats?.get(r.id))), ...meta };
}

export async function getDepositAccount(auth: ShopContext, id: string) {
  return { account: presentAccount(await findOwnedAccount(auth, id)) };
}
