// QR establishments: a shop registered for counter QR collection (operator CLI), and the key's
// own establishment (GET /qr/establishment).
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { presentEstablishment } from "@/lib/qr/present";
import type { AuthContext } from "@/lib/auth/authenticate";

export type EstablishmentInput = { shopId: string; name: string; city: string; mcc: string };

/** Registers a shop (or updates its registration: name, city, MCC). */
export async function registerEstablishment(input: EstablishmentInput) {
  const shop = await db().shop.findUnique({ where: { id: input.shopId }, select: { id: true, merchantId: true } });
  if (!shop) throw new AppError("shop_not_found", `No shop ${input.shopId}.`, { param: "shop" });
  if (!/^\d{4}$/.test(input.mcc)) throw new AppError("invalid_request", "The MCC is 4 digits (e.g. 5812 restaurants, 5411 groceries).", { param: "mcc" });
  const name = input.name.trim();
  const city = input.city.trim();
  if (!name || !city) throw new AppError("missing_required_fields", "An establishment needs a name and a city (they are printed in every BR Code).", { param: !name ? "name" : "city" });
  const data = { name, city, mcc: input.mcc };
  return db().qrEstablishment.upsert({ where: { shopId: shop.id }, create: { id: newId("qrEstablishment"), merchantId: shop.merchantId, shopId: shop.id, ...data }, update: data });
}

export async function setEstablishmentStatus(shopId: string, status: "active" | "suspended") {
  const r = await db().qrEstablishment.updateMany({ where: { shopId }, data: { status } });
  if (r.count === 0) throw new AppError("qr_establishment_not_found", `Shop ${shopId} is not a QR establishment; register it with qr:register.`);
  return db().qrEstablishment.findUniqueOrThrow({ where: { shopId } });
}

export async function findEstablishment(auth: Pick<AuthContext, "merchant" | "shop">) {
  const e = auth.shop ? await db().qrEstablishment.findFirst({ where: { shopId: auth.shop.id, merchantId: auth.merchant.id } }) : null;
  if (!e) throw new AppError("qr_establishment_not_found", "This shop is not registered for QR collection. Ask support to register it.");
  return e;
}

export async function getEstablishment(auth: Pick<AuthContext, "merchant" | "shop">) {
  return { establishment: presentEstablishment(await findEstablishment(auth)) };
}
