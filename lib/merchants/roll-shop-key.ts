// The dashboard's "roll secret key": a key pair of the signed-in merchant in its environment, by
// id. Scoped here (merchant, environment, not revoked) so the caller passes only the id it was shown.
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/platform/errors";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import { actorOf } from "@/lib/accounts/record-security-event";
import { rollSecretKey } from "@/lib/merchants/manage-keys";
import { merchantScope } from "@/lib/platform/scope";

export async function rollShopSecretKey(ctx: AuthContext, keyPairId: string): Promise<{ keyPairId: string; secretKey: string }> {
  const pair = await db().apiKeyPair.findFirst({ where: { id: keyPairId, ...merchantScope(ctx), revokedAt: null }, select: { shopId: true } });
  if (!pair) throw new AppError("invalid_request", "No such key in this environment.", { param: "keyPairId" });
  if (!pair.shopId) throw new AppError("invalid_request", "Merchant-wide keys are rolled by the operator.", { param: "keyPairId" });
  const rolled = await rollSecretKey({ shopId: pair.shopId, environment: ctx.environment, actor: actorOf(ctx) });
  return { keyPairId: rolled.keyPairId, secretKey: rolled.secretKey };
}
