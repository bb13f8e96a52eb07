// QR establishments: a shop registered for counter QR collection (operator CLI, or the owner from
// the sandbox dashboard, which counts in the sandbox only), and the key's own establishment
// (GET /qr/establishment).
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import { newId } from "@/lib/platform/ids";
import { presentEstablishment } from "@/lib/qr/present";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

export type EstablishmentInput = { shopId: string; name: string; city: string; mcc: string };

/** Registers a shop (or updates its registration: name, city, MCC). The operator's registration counts in both environments. */
export async function registerEstablishment(input: EstablishmentInput, opts: { sandboxOnly?: boolean } = {}) {
  const shop = await db().shop.findUnique({ where: { id: input.shopId }, select: { id: true, merchantId: true } });
  if (!shop) throw new AppError("shop_not_found", `No shop ${input.shopId}.`, { param: "shop" });
  if (!/^\d{4}$/.test(input.mcc)) throw new AppError("invalid_request", "The MCC is 4 digits (e.g. 5812 restaurants, 5411 groceries).", { param: "mcc" });
  const name = input.name.trim();
  const city = input.city.trim();
  if (!name || !city) throw new AppError("missing_required_fields", "An establishment needs a name and a city (they are printed in every BR Code).", { param: !name ? "name" : "city" });
  const data = { name, city, mcc: input.mcc };
  // The owner's sandbox registration never narrows an operator's one; the operator's clears the owner's.
  const sandboxOnly = opts.sandboxOnly === true;
  return db().qrEstablishment.upsert({ where: { shopId: shop.id }, create: { id: newId("qrEstablishment"), merchantId: shop.merchantId, shopId: shop.id, ...data, sandboxOnly }, update: sandboxOnly ? data : { ...data, sandboxOnly: false } });
}

/**
 * The sandbox "Register this shop" of the Charge with QR page: the shop's owner tries counter
 * charges on day one without the operator. Sandbox only (the gate's `registerQrSandbox`); the
 * registration does not reach production, where the operator's qr:register decides.
 */
export async function registerSandboxEstablishment(auth: Pick<AuthContext, "merchant" | "shop">, input: { name: string; city: string; mcc: string }) {
  if (!auth.shop) throw new AppError("shop_required", "Pick a shop to register.");
  const e = await registerEstablishment({ shopId: auth.shop.id, ...input }, { sandboxOnly: true });
  return { establishment: presentEstablishment(e) };
}

export async function setEstablishmentStatus(shopId: string, status: "active" | "suspended") {
  const r = await db().qrEstablishment.updateMany({ where: { shopId }, data: { status } });
  if (r.count === 0) throw new AppError("qr_establishment_not_found", `Shop ${shopId} is not a QR establishment; register it with qr:register.`);
  return db().qrEstablishment.findUniqueOrThrow({ where: { shopId } });
}

export async function findEstablishment(auth: Pick<AuthContext, "merchant" | "shop" | "environment">) {
  const found = auth.shop ? await db().qrEstablishment.findFirst({ where: { shopId: auth.shop.id, merchantId: auth.merchant.id } }) : null;
  const e = found && !(found.sandboxOnly && auth.environment !== "sandbox") ? found : null;
  if (!e) {
    const shop = auth.shop?.id ?? "shp_…";
    throw new AppError(
      "qr_establishment_not_found",
      auth.environment === "sandbox"
        ? "This shop is not registered for QR collection in the sandbox. Its owner can register it on the dashboard's Charge with QR page."
        : `This shop is not registered for QR collection. The operator registers it with: npm run qr:register -- --shop ${shop} --name "Store name" --city "City" --mcc 5812`,
    );
  }
  return e;
}

export async function getEstablishment(auth: Pick<AuthContext, "merchant" | "shop" | "environment">) {
  return { establishment: presentEstablishment(await findEstablishment(auth)) };
}
