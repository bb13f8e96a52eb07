// The mandate's shop acting as its own secret key would, for what the mandate job does on the
// merchant's behalf: a charge's payment (scheduled by the shop's key), a duplicate's refund.
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import type { Environment } from "@/lib/generated/prisma/enums";

/** The mandate's shop acting as its own secret key would (the charge is the merchant's, scheduled by its key). */
export async function mandateAuth(merchantId: string, shopId: string, environment: Environment): Promise<AuthContext> {
  const shop = await db().shop.findUniqueOrThrow({
    where: { id: shopId },
    select: { id: true, name: true, status: true, merchant: { select: { id: true, name: true, email: true, industry: true, tier: true, trustScore: true, status: true, timeZone: true } } },
  });
  if (shop.merchant.id !== merchantId) throw new Error("mandate shop of another merchant");
  if (shop.merchant.status !== "active") throw new AppError("merchant_suspended", "The merchant cannot take payments right now.");
  if (shop.status === "suspended") throw new AppError("shop_suspended", "The shop cannot take payments right now.");
  const { merchant, ...rest } = shop;
  const holder = `mandate:${shopId}`;
  return { merchant, shop: rest, environment, keyKind: "secret", keyPairId: holder, keyId: "mandate_job", via: "api_key", actor: { kind: "key", keyKind: "secret" } };
}
