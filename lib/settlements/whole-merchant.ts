// Who may move a settlement batch's money (docs/integrators/payouts.md "Settlements", who sees and runs a batch).
// The ledger keeps one balance per merchant and environment, not per shop: a batch sweeps the
// whole `available` (every shop's sales, the merchant's own moves) and its postings belong to no
// shop. So every key of the merchant reads its batches (as every key's ledger export shows them),
// but running or settling one acts for every shop: a shop-bound key may do it only when its shop
// is the merchant's only one. Beside another shop it is refused, 403 forbidden.
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";

/** The acting credential's merchant, and its shop when it is bound to one (an AuthContext fits). */
export async function requireWholeMerchant(auth: { merchant: { id: string }; shop: { id: string } | null }): Promise<void> {
  if (!auth.shop) return;
  // Every other shop, suspended ones too: their sales are in the balance all the same.
  const others = await db().shop.count({ where: { merchantId: auth.merchant.id, id: { not: auth.shop.id } } });
  if (others === 0) return;
  throw new AppError("forbidden", "A settlement batch sweeps the whole merchant's available balance, other shops' sales included: run or settle it with a merchant-wide credential (keys:merchant-wide) or from the dashboard, not a shop's key.", {
    details: { reason: "merchant_wide_credential_required" },
  });
}
