import { toMajor } from "@/lib/money/amount";
import type { Settlement } from "@/lib/generated/prisma/client";

export function presentSettlement(s: Settlement) {
  return {
    id: s.id,
    status: s.status,
    periodFrom: s.periodFrom.toISOString(),
    periodTo: s.periodTo.toISOString(),
    grossUsd: toMajor(s.grossUsd, "USD"),
    feeUsd: toMajor(s.feeUsd, "USD"),
    netUsd: toMajor(s.netUsd, "USD"),
    transactionCount: s.transactionCount,
    destination: { asset: s.asset as "USDT" | "USDC", network: s.network as "TRON" | "ETHEREUM" | "POLYGON", address: s.address },
    txHash: s.txHash,
    receiptReady: s.receiptReady,
    createdAt: s.createdAt.toISOString(),
    closedAt: s.closedAt.toISOString(),
    paidAt: s.paidAt?.toISOString() ?? null,
    failureReason: s.failureReason,
  };
}
