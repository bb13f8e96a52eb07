import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { presentClaim } from "@/lib/claims/present";
import type { AuthContext } from "@/lib/auth/authenticate";

export async function getClaim(auth: AuthContext, id: string) {
  const c = await db().claim.findFirst({
    where: { id, merchantId: auth.merchant.id, environment: auth.environment, ...(auth.shop ? { transaction: { shopId: auth.shop.id } } : {}) },
  });
  if (!c) throw new AppError("claim_not_found", `No claim ${id}.`, { param: "id" });
  return { claim: presentClaim(c) };
}
