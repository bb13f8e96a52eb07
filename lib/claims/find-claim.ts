// A claim as the caller may see it: its merchant, environment and (shop-bound key) shop.
import type { Prisma } from "@/lib/generated/prisma/client";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import { AppError } from "@/lib/platform/errors";
import { db } from "@/lib/platform/db";
import { merchantScope } from "@/lib/platform/scope";

type Scope = Pick<AuthContext, "merchant" | "environment" | "shop">;

export function claimScope(auth: Scope): Prisma.ClaimWhereInput {
  return { ...merchantScope(auth), ...(auth.shop ? { transaction: { shopId: auth.shop.id } } : {}) };
}

export async function findOwnedClaim(auth: Scope, id: string) {
  const c = await db().claim.findFirst({ where: { id, ...claimScope(auth) } });
  if (!c) throw new AppError("claim_not_found", `No claim ${id}.`, { param: "id" });
  return c;
}

/** The resolve options that keep a kernel transition to the caller's own claims. */
export function resolveScope(auth: Scope) {
  return { ...merchantScope(auth), shopId: auth.shop?.id ?? null };
}
