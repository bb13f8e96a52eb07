"use server";
// API keys: rolling a shop's secret key (the new secret is shown once).
import { dashboardOrThrow } from "@/server/dashboard";
import { runAction } from "@/lib/dashboard/action-result";
import { rollShopSecretKey } from "@/lib/merchants/roll-shop-key";

export async function rollSecretKeyAction(keyPairId: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("seeSecrets");
    return rollShopSecretKey(d.ctx, String(keyPairId));
  });
}
