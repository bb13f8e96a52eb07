// Key lifecycle for operators: roll a shop's secret key, or issue a legacy merchant-wide pair.
import { db } from "@/lib/platform/db";
import { newId } from "@/lib/platform/ids";
import { generateKeyPair } from "@/lib/platform/auth/keys";
import { notifyCredentialsChanged } from "@/lib/platform/auth/principal";
import type { Environment } from "@/lib/generated/prisma/enums";
import { recordSecurityEvent, type SecurityActor } from "@/lib/accounts/record-security-event";

/**
 * Replaces the secret of the shop's pair in `environment` (the publishable key stays). The old
 * secret stops working at once, and so do access and refresh tokens issued under it.
 */
export async function rollSecretKey(input: { shopId: string; environment: Environment; actor?: SecurityActor }): Promise<{ keyPairId: string; publishableKey: string; secretKey: string }> {
  const fresh = generateKeyPair(input.environment);
  const pair = await db().$transaction(async (tx) => {
    const current = await tx.apiKeyPair.findFirst({ where: { shopId: input.shopId, environment: input.environment, revokedAt: null }, orderBy: { createdAt: "desc" } });
    if (!current) throw new Error(`no active ${input.environment} key pair for shop ${input.shopId}`);
    const updated = await tx.apiKeyPair.update({
      where: { id: current.id },
      data: { secretHash: fresh.secretHash, secretPreview: fresh.secretPreview, secretVersion: { increment: 1 }, rolledAt: new Date() },
    });
    await tx.refreshToken.updateMany({ where: { keyPairId: current.id, revokedAt: null }, data: { revokedAt: new Date() } });
    return updated;
  });
  await notifyCredentialsChanged();
  await recordSecurityEvent({ merchantId: pair.merchantId, type: "api_key.rolled", actor: "operator", ...input.actor, details: { keyPairId: pair.id, environment: input.environment } });
  return { keyPairId: pair.id, publishableKey: pair.publishableKey, secretKey: fresh.secretKey };
}

/** Legacy credentials bound to the merchant but to no shop (they get shop_required where a shop is needed). */
export async function createMerchantWideKeys(input: { merchantId: string; environment: Environment }) {
  const pair = generateKeyPair(input.environment);
  await db().apiKeyPair.create({
    data: { id: newId("keyPair"), merchantId: input.merchantId, shopId: null, environment: input.environment, publishableKey: pair.publishableKey, secretHash: pair.secretHash, secretPreview: pair.secretPreview },
  });
  return { publishableKey: pair.publishableKey, secretKey: pair.secretKey };
}

