// Refund and chargeback claims of a merchant, newest first (the dashboard's Claims page).
import { db } from "@/lib/db";
import { clampPage, envelope } from "@/lib/http/pagination";
import { presentClaim } from "@/lib/claims/present";
import type { AuthContext } from "@/lib/auth/authenticate";
import type { ClaimKind, ClaimStatus } from "@/lib/generated/prisma/enums";

export { CLAIM_KINDS, CLAIM_STATUSES } from "@/lib/claims/schema";

export async function listClaims(auth: AuthContext, query: { limit?: unknown; offset?: unknown; kind?: ClaimKind; status?: ClaimStatus; transactionId?: string }) {
  const page = clampPage(query);
  const where = {
    merchantId: auth.merchant.id,
    environment: auth.environment,
    ...(auth.shop ? { transaction: { shopId: auth.shop.id } } : {}),
    ...(query.kind ? { kind: query.kind } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(query.transactionId ? { transactionId: query.transactionId } : {}),
  };
  const [rows, total] = await Promise.all([
    db().claim.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: page.offset, take: page.limit }),
    db().claim.count({ where }),
  ]);
  return envelope(rows.map(presentClaim), total, page);
}
