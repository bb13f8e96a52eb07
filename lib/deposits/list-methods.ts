// GET /me/deposit-methods.
import { presentDepositMethod, shopDepositMethods } from "@/lib/deposits/methods";
import { requireShop, type ShopContext } from "@/lib/deposits/scope";

export async function listDepositMethods(auth: ShopContext) {
  const shop = requireShop(auth);
  return { methods: (await shopDepositMethods(shop.id, auth.environment)).map(presentDepositMethod) };
}
