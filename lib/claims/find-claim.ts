// A claim as the caller may see it: its merchant, environment and (shop-bound key) shop.
import type { Prisma } from "@/lib/generated/prisma/client";
import { AppError } from "@/lib/platform/errors";
import { db } from "@/lib/platform/db";
import { merchantScope, type Owner } from "@/lib/platform/scope";

export function claimScope(auth: Owner): Prisma.ClaimWhereInput {
  return { ...merchantScope(auth), ...(auth.shop ? { transaction: { shopId: auth.shop.id } } : {}) };
}

export async function findOwnedClaim(auth: Owner, id: string) {
  const c = await db().claim.findFirst({ where: { id, ...claimScope(auth) } });
  if (!c) throw new AppError("claim_not_found", `No claim ${id}.`, { param: "id" });
  return c;
}

/** The resolve options that keep a kernel transition to the caller's own claims. */
export function resolveScope(auth: Owner) {
  return { ...merchantScope(auth), shopId: auth.shop?.id ?? null };
}
