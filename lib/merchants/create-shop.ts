// Operator action: open another shop for a merchant, with its own key pairs for both environments
// (sandbox and production), as merchant:create gives the first shop. Secret keys exist in clear
// only in the returned value; the database keeps their hash and last four characters.
import { db } from "@/lib/platform/db";
import { newId } from "@/lib/platform/ids";
import { generateKeyPair } from "@/lib/platform/auth/keys";
import type { KeySet } from "@/lib/merchants/create-merchant";

export type CreatedShop = { merchantId: string; shopId: string; name: string; sandbox: KeySet; production: KeySet };

export async function createShop(input: { merchantId: string; name: string }): Promise<CreatedShop> {
  const name = input.name.trim();
  if (!name) throw new Error("a shop needs a name (--name)");
  if (name.length > 120) throw new Error("a shop's name has at most 120 characters");
  const merchant = await db().merchant.findUnique({ where: { id: input.merchantId }, select: { id: true } });
  if (!merchant) throw new Error(`no merchant ${input.merchantId}`);
  const shopId = newId("shop");
  const sandbox = generateKeyPair("sandbox");
  const production = generateKeyPair("production");
  await db().$transaction(async (tx) => {
    await tx.shop.create({ data: { id: shopId, merchantId: merchant.id, name } });
    for (const [environment, pair] of [["sandbox", sandbox], ["production", production]] as const) {
      await tx.apiKeyPair.create({
        data: { id: newId("keyPair"), merchantId: merchant.id, shopId, environment, publishableKey: pair.publishableKey, secretHash: pair.secretHash, secretPreview: pair.secretPreview },
      });
    }
  });
  return {
    merchantId: merchant.id,
    shopId,
    name,
    sandbox: { publishableKey: sandbox.publishableKey, secretKey: sandbox.secretKey },
    production: { publishableKey: production.publishableKey, secretKey: production.secretKey },
  };
}
