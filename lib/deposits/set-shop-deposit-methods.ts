// Operator action: which deposit methods a shop offers (`npm run shop:deposit-methods`).
import { db } from "@/lib/platform/db";
import { DEPOSIT_METHODS, depositMethodById } from "@/lib/deposits/methods";

export async function setShopDepositMethods(shopId: string, change: { enable?: string[]; disable?: string[] }) {
  const enable = change.enable ?? [];
  const disable = change.disable ?? [];
  for (const id of [...enable, ...disable]) if (!depositMethodById(id)) throw new Error(`unknown deposit method ${id}; known: ${DEPOSIT_METHODS.map((m) => m.depositMethodId).join(", ")}`);
  await db().shop.findUniqueOrThrow({ where: { id: shopId }, select: { id: true } });
  await db().$transaction(async (tx) => {
    for (const [ids, enabled] of [[enable, true], [disable, false]] as const) {
      for (const depositMethodId of ids) {
        await tx.shopDepositMethod.upsert({ where: { shopId_depositMethodId: { shopId, depositMethodId } }, create: { shopId, depositMethodId, enabled }, update: { enabled } });
      }
    }
  });
  const rows = await db().shopDepositMethod.findMany({ where: { shopId }, select: { depositMethodId: true, enabled: true } });
  const overrides = new Map(rows.map((r) => [r.depositMethodId, r.enabled]));
  return { shopId, enabled: DEPOSIT_METHODS.filter((m) => overrides.get(m.depositMethodId) ?? m.enabledByDefault).map((m) => m.depositMethodId) };
}
