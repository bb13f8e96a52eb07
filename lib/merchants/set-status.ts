// Administrator actions behind merchant_suspended / shop_suspended.
import { db } from "@/lib/platform/db";
import { notifyCredentialsChanged } from "@/lib/platform/auth/principal";

export async function setMerchantStatus(merchantId: string, status: "active" | "suspended") {
  const updated = await db().merchant.update({ where: { id: merchantId }, data: { status }, select: { id: true, status: true } });
  await notifyCredentialsChanged();
  return updated;
}

export async function setShopStatus(shopId: string, status: "active" | "suspended") {
  const updated = await db().shop.update({ where: { id: shopId }, data: { status }, select: { id: true, merchantId: true, status: true } });
  await notifyCredentialsChanged();
  return updated;
}
