import { toMajor } from "@/lib/money/amount";
import type { Withdrawal } from "@/lib/generated/prisma/client";

export function presentWithdrawal(w: Withdrawal) {
  return {
    id: w.id,
    status: w.status,
    amountUsd: toMajor(w.amountUsd, "USD"),
    feeUsd: toMajor(w.feeUsd, "USD"),
    destination: { asset: w.asset as "USDT" | "USDC", network: w.network as "TRON" | "ETHEREUM" | "POLYGON", address: w.address },
    txHash: w.txHash,
    failureReason: w.failureReason,
    createdAt: w.createdAt.toISOString(),
    completedAt: w.completedAt?.toISOString() ?? null,
  };
}
