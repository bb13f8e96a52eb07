// GET /claims (and the dashboard's Claims page): refund and chargeback claims, newest first.
import { db } from "@/lib/platform/db";
import { listEnvelope, readPage } from "@/lib/platform/paging/pagination";
import { pageModel } from "@/lib/platform/paging/page-model";
import type { Claim } from "@/lib/generated/prisma/client";
import { EVIDENCE_META, presentClaim, type EvidenceMeta } from "@/lib/claims/present";
import { claimScope } from "@/lib/claims/find-claim";
import type { AuthContext } from "@/lib/platform/auth/authenticate";
import type { ClaimKind, ClaimStatus } from "@/lib/generated/prisma/enums";

export { CLAIM_KINDS, CLAIM_STATUSES } from "@/lib/claims/schema";

type Query = { limit?: unknown; offset?: unknown; startingAfter?: string; endingBefore?: string; kind?: ClaimKind; status?: ClaimStatus; transactionId?: string; from?: string; to?: string };

export async function listClaims(auth: Pick<AuthContext, "merchant" | "environment" | "shop">, query: Query) {
  const base = claimScope(auth);
  const opened = { ...(query.from ? { gte: new Date(query.from) } : {}), ...(query.to ? { lt: new Date(query.to) } : {}) };
  const where = {
    ...base,
    ...(query.kind ? { kind: query.kind } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(query.transactionId ? { transactionId: query.transactionId } : {}),
    ...(query.from || query.to ? { createdAt: opened } : {}),
  };
  const evidence = { select: EVIDENCE_META, orderBy: [{ createdAt: "asc" as const }, { id: "asc" as const }] };
  const { rows, meta } = await pageModel<Claim & { evidence: EvidenceMeta[] }>(readPage(query), { model: db().claim, name: "claim", where, scope: base, shape: { include: { evidence } } });
  return listEnvelope(rows.map(({ evidence: e, ...c }) => presentClaim(c, e)), meta);
}
