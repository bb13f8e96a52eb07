// The dashboard's Shops page (owners): every shop of the merchant with its status, its key pairs
// in both environments (publishable key and the secret's masked last four; a secret is shown only
// when it is made, by shop:create or keys:roll), and its payment methods in the dashboard's
// environment (enabled first).
import { db } from "@/lib/platform/db";
import { maskKey } from "@/lib/platform/auth/keys";
import { shopRails } from "@/lib/catalog/list-payment-methods";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

export async function listShops(auth: Pick<AuthContext, "merchant" | "environment">) {
  const shops = await db().shop.findMany({
    where: { merchantId: auth.merchant.id },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: {
      id: true,
      name: true,
      status: true,
      createdAt: true,
      apiKeys: { where: { revokedAt: null }, orderBy: { createdAt: "asc" }, select: { id: true, environment: true, publishableKey: true, secretPreview: true } },
    },
  });
  return Promise.all(
    shops.map(async (s) => {
      const rails = await shopRails(s.id, auth.environment);
      return {
        id: s.id,
        name: s.name,
        status: s.status,
        createdAt: s.createdAt.toISOString(),
        keys: (["sandbox", "production"] as const).map((environment) => ({
          environment,
          pairs: s.apiKeys.filter((k) => k.environment === environment).map((k) => ({ id: k.id, publishableKey: k.publishableKey, secretKey: maskKey("secret", environment, k.secretPreview) })),
        })),
        methods: rails.map(({ rail, enabled }) => ({ id: rail.paymentMethodId, name: rail.name, country: rail.countryIso2, enabled })).sort((a, b) => Number(b.enabled) - Number(a.enabled)),
      };
    }),
  );
}

export type ShopSummary = Awaited<ReturnType<typeof listShops>>[number];
