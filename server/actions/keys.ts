"use server";
// API keys: rolling a shop's secret key (the new secret is shown once).
import { dashboardAction } from "@/server/dashboard-action";
import { rollShopSecretKey } from "@/lib/merchants/roll-shop-key";

export const rollSecretKeyAction = dashboardAction("seeSecrets", { args: (keyPairId: string) => ({ keyPairId }) }, ({ ctx, keyPairId }) => rollShopSecretKey(ctx, String(keyPairId)));
