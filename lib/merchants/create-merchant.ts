// Operator bootstrap: a merchant with one shop and both key pairs (sandbox and production),
// optionally a dashboard owner. The secret keys exist in clear only in the returned value.
import { hashPassword } from "@/lib/platform/crypto/password";
import { db } from "@/lib/platform/db";
import { newId } from "@/lib/platform/ids";
import { generateKeyPair } from "@/lib/platform/auth/keys";
import type { MerchantTier } from "@/lib/generated/prisma/enums";
import { isTimeZone } from "@/lib/platform/time-zone";

export type CreateMerchantInput = {
  name: string;
  shopName?: string;
  email?: string;
  industry?: string;
  tier?: MerchantTier;
  trustScore?: number;
  /** IANA time zone of the merchant's reports (default UTC). */
  timeZone?: string;
  /** With email: creates the dashboard owner with this password. */
  password?: string;
};

export type KeySet = { publishableKey: string; secretKey: string };
export type CreatedMerchant = { merchantId: string; shopId: string; sandbox: KeySet; production: KeySet };


export async function createMerchant(input: CreateMerchantInput): Promise<CreatedMerchant> {
  if (input.timeZone !== undefined && !isTimeZone(input.timeZone)) throw new Error(`${input.timeZone} is not an IANA time zone (e.g. America/Mexico_City)`);
  const name = input.name.trim();
  if (!name) throw new Error("a merchant needs a name");
  if (input.password && !input.email) throw new Error("--password needs --email");
  if (input.password !== undefined && input.password.length < 10) throw new Error("the password needs at least 10 characters");
  const merchantId = newId("merchant");
  const shopId = newId("shop");
  const sandbox = generateKeyPair("sandbox");
  const production = generateKeyPair("production");
  const passwordHash = input.password ? await hashPassword(input.password) : null;

  await db().$transaction(async (tx) => {
    await tx.merchant.create({
      data: { id: merchantId, name, email: input.email ?? null, industry: input.industry ?? null, tier: input.tier ?? "standard", trustScore: input.trustScore ?? 500, timeZone: input.timeZone ?? "UTC" },
    });
    await tx.shop.create({ data: { id: shopId, merchantId, name: input.shopName?.trim() || name } });
    for (const [environment, pair] of [["sandbox", sandbox], ["production", production]] as const) {
      await tx.apiKeyPair.create({
        data: { id: newId("keyPair"), merchantId, shopId, environment, publishableKey: pair.publishableKey, secretHash: pair.secretHash, secretPreview: pair.secretPreview },
      });
    }
    if (input.email && passwordHash) {
      await tx.dashboardUser.create({ data: { id: newId("dashboardUser"), merchantId, email: input.email.toLowerCase(), passwordHash, role: "owner" } });
    }
  });

  return {
    merchantId,
    shopId,
    sandbox: { publishableKey: sandbox.publishableKey, secretKey: sandbox.secretKey },
    production: { publishableKey: production.publishableKey, secretKey: production.secretKey },
  };
}
