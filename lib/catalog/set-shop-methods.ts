// Operator action: which production rails a shop may charge (all are enabled by default).
import { db } from "@/lib/platform/db";
import { PRODUCTION_RAILS } from "@/lib/rails/rails";
import { notifyInvalidated } from "@/lib/platform/cache/invalidation";

export async function setShopPaymentMethods(shopId: string, change: { enable: string[]; disable: string[] }) {
  const known = new Set(PRODUCTION_RAILS.map((r) => r.paymentMethodId));
  for (const id of [...change.enable, ...change.disable]) if (!known.has(id)) throw new Error(`unknown payment method ${id}`);
  await db().shop.findUniqueOrThrow({ where: { id: shopId }, select: { id: true } });
  await db().$transaction(async (tx) => {
    for (const id of change.disable) {
      await tx.shopPaymentMethod.upsert({ where: { shopId_paymentMethodId: { shopId, paymentMethodId: id } }, create: { shopId, paymentMethodId: id, enabled: false }, update: { enabled: false } });
    }
    for (const id of change.enable) await tx.shopPaymentMethod.deleteMany({ where: { shopId, paymentMethodId: id } });
  });
  await notifyInvalidated("shop_methods");
  const disabled = (await db().shopPaymentMethod.findMany({ where: { shopId, enabled: false }, select: { paymentMethodId: true } })).map((r) => r.paymentMethodId).sort();
  return { shopId, disabled };
}
