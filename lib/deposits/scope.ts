// Deposit accounts belong to a shop: every use case starts from the credential's shop, and an
// account of another shop (or environment) is as unknown as an id that never existed.
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

/** What the deposit use cases act for; an AuthContext fits, and so does a dashboard session's context. */
export type ShopContext = Pick<AuthContext, "merchant" | "shop" | "environment">;

export function requireShop(auth: ShopContext): { id: string } {
  // 4.6: a merchant-wide credential gets 400 invalid_request here (not 401 shop_required).
  if (!auth.shop) throw new AppError("invalid_request", "Deposit accounts belong to a shop: use a shop-bound credential, not a merchant-wide one.", { details: { reason: "shop_bound_credential_required" } });
  return auth.shop;
}

export async function findOwnedAccount(auth: ShopContext, id: string) {
  const shop = requireShop(auth);
  // A row still waiting for its CLABE (lib/deposits/provision-account.ts) is not an account yet.
  const account = await db().depositAccount.findFirst({ where: { id, merchantId: auth.merchant.id, shopId: shop.id, environment: auth.environment, status: { not: "provisioning" } } });
  if (!account) throw new AppError("deposit_account_not_found", `No deposit account ${id} for this shop.`, { param: "id" });
  return account;
}
