// Refund claims raised to an operator (lib/jobs/run-scheduled-actions.ts): still pending, their
// provider step failing or its outcome unknown for an hour. The operator CLI lists them
// (claims:attention) and, once the cause is dealt with (the provider configured again, the refund
// settled with the provider), runs the step at once instead of at its next hourly try
// (claims:retry). Across merchants: this is the platform operator's view, not a merchant's.
import { db } from "@/lib/platform/db";
import { toMajor } from "@/lib/money/amount";

export type ClaimNeedingAttention = {
  id: string;
  merchantId: string;
  environment: string;
  transactionId: string;
  provider: string;
  amount: number;
  currency: string;
  createdAt: string;
  attentionAt: string;
  lastError: string | null;
  nextTryAt: string | null;
};

export async function listClaimsNeedingAttention(): Promise<ClaimNeedingAttention[]> {
  const claims = await db().claim.findMany({
    where: { status: "pending", attentionAt: { not: null } },
    orderBy: [{ attentionAt: "asc" }, { id: "asc" }],
    include: { transaction: { select: { provider: true } } },
  });
  const steps = await db().scheduledAction.findMany({
    where: { claimId: { in: claims.map((c) => c.id) }, kind: "claim_resolution", state: { in: ["pending", "running"] } },
    select: { claimId: true, lastError: true, dueAt: true },
  });
  const stepOf = new Map(steps.map((s) => [s.claimId, s]));
  return claims.map((c) => ({
    id: c.id,
    merchantId: c.merchantId,
    environment: c.environment,
    transactionId: c.transactionId,
    provider: c.transaction.provider,
    amount: toMajor(c.amountLocal, c.currency),
    currency: c.currency,
    createdAt: c.createdAt.toISOString(),
    attentionAt: c.attentionAt!.toISOString(),
    lastError: stepOf.get(c.id)?.lastError ?? null,
    nextTryAt: stepOf.get(c.id)?.dueAt.toISOString() ?? null,
  }));
}

/** Makes a pending claim's waiting refund step due now; false when it has none waiting. */
export async function retryClaimStepNow(claimId: string, now = new Date()): Promise<boolean> {
  const r = await db().scheduledAction.updateMany({ where: { claimId, kind: "claim_resolution", state: "pending" }, data: { dueAt: now } });
  return r.count > 0;
}
