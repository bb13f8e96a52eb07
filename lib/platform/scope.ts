// Every query of merchant data names its owner (CODE_STYLE "Scoping"): the merchant, the
// environment and, for a shop-bound credential, the shop. These are the only places those
// filters are written; a use case spreads one into its `where`.
import type { Environment } from "@/lib/generated/prisma/enums";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

/** Who is asking: an AuthContext, or any part of one that names the owner. */
export type Owner = { merchant: { id: string }; environment: Environment; shop?: { id: string } | null };

/** An Owner and the other parts of its AuthContext a use case reads: `actor` (who made a change), `merchant` (its tier). */
export type OwnerWith<K extends keyof AuthContext> = Owner & Pick<AuthContext, K>;

/** The merchant's rows in this environment, whatever shop they belong to (merchant-wide resources). */
export const merchantScope = (o: Owner) => ({ merchantId: o.merchant.id, environment: o.environment });

/** The rows the credential may see: a shop-bound one sees its shop's only; a merchant-wide one, every shop's. */
export const ownedScope = (o: Owner) => ({ ...merchantScope(o), ...(o.shop ? { shopId: o.shop.id } : {}) });

/** Like ownedScope, but a shop-bound credential also sees the merchant's own rows (no shop: events, payouts). */
export const ownedOrMerchantScope = (o: Owner) => ({ ...merchantScope(o), ...(o.shop ? { OR: [{ shopId: o.shop.id }, { shopId: null }] } : {}) });

/** The shop a row created by this credential belongs to: its own shop, or none for a merchant-wide credential. */
export const creatorShop = (o: Owner) => ({ ...merchantScope(o), shopId: o.shop?.id ?? null });
