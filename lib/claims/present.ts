import { toMajor } from "@/lib/money/amount";
import type { Claim } from "@/lib/generated/prisma/client";

export type ClaimHistory = Array<{ status: string; at: string }>;

/** The claim as GET /claims/{id} returns it (decisions.md), also the data.object of claim events. */
export function presentClaim(c: Claim) {
  return {
    id: c.id,
    kind: c.kind,
    status: c.status,
    transactionId: c.transactionId,
    amount: toMajor(c.amountLocal, c.currency),
    amountUsd: toMajor(c.amountUsd, "USD"),
    currency: c.currency,
    reason: c.reason,
    createdAt: c.createdAt.toISOString(),
    resolvedAt: c.resolvedAt?.toISOString() ?? null,
    history: c.history as ClaimHistory,
  };
}

/** The refund answer of POST /payments/{id}/refund (2.12). */
export function presentRefund(c: Claim) {
  return {
    refundId: c.id,
    transactionId: c.transactionId,
    amount: toMajor(c.amountLocal, c.currency),
    amountUsd: toMajor(c.amountUsd, "USD"),
    currency: c.currency,
    status: c.status,
    reason: c.reason,
    createdAt: c.createdAt.toISOString(),
  };
}
