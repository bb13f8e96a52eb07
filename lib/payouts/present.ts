// Payout rows -> the API's payout (2.9; event payloads of section 6 use the same shape).
import { toMajor } from "@/lib/money/amount";
import type { Payout } from "@/lib/generated/prisma/client";

export function presentPayout(p: Payout) {
  const r = (p.recipient ?? {}) as { name?: string; account?: string };
  return {
    id: p.id,
    methodId: p.methodId,
    methodName: p.methodName,
    method: p.rail,
    country: p.country,
    currency: p.currency,
    amount: toMajor(p.amount, p.currency),
    status: p.status,
    provider: p.provider,
    providerRef: p.providerRef,
    recipient: { name: r.name ?? "", accountLast4: (r.account ?? "").slice(-4) },
    environment: p.environment,
    failureReason: p.failureReason,
    createdAt: p.createdAt.toISOString(),
    completedAt: p.completedAt?.toISOString() ?? null,
    timestamps: { created: p.createdAt.toISOString(), completed: p.completedAt?.toISOString() ?? null, failed: p.failedAt?.toISOString() ?? null },
  };
}
