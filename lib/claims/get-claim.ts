import { db } from "@/lib/platform/db";
import { EVIDENCE_META, presentClaim } from "@/lib/claims/present";
import { findOwnedClaim } from "@/lib/claims/find-claim";
import type { AuthContext } from "@/lib/platform/auth/authenticate";

export async function getClaim(auth: Pick<AuthContext, "merchant" | "environment" | "shop">, id: string) {
  const c = await findOwnedClaim(auth, id);
  const evidence = await db().claimEvidence.findMany({ where: { claimId: c.id }, select: EVIDENCE_META, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return { claim: presentClaim(c, evidence) };
}
