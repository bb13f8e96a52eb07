// Deposit account and deposit rows -> API shapes (2.7, 2.8). Amounts become API numbers here only.
import { toMajor } from "@/lib/money/amount";
import type { Deposit, DepositAccount } from "@/lib/generated/prisma/client";

export type DepositStats = { deposits: number; credited: number; totalUsd: number; localTotals: Array<{ currency: string; amount: number }>; lastDepositAt: string | null };

/**
 * The CLABE of a usable account. A `provisioning` row has none and is never presented (every read
 * filters it out, lib/deposits/provision-account.ts), so reaching here without one is a bug.
 */
export function usable(a: Pick<DepositAccount, "id" | "clabe" | "status">): { clabe: string; status: "active" | "disabled" } {
  if (a.clabe === null || a.status === "provisioning") throw new Error(`deposit account ${a.id} has no CLABE yet (provisioning) and cannot be presented`);
  return { clabe: a.clabe, status: a.status };
}

export function presentAccount(a: DepositAccount, stats?: DepositStats) {
  return {
    id: a.id,
    endUserRef: a.endUserRef,
    depositMethodId: a.depositMethodId,
    clabe: usable(a).clabe,
    bank: a.bank,
    currency: a.currency,
    country: a.country,
    methodName: a.methodName,
    beneficiary: { name: a.beneficiaryName, email: a.beneficiaryEmail },
    customer: { name: a.beneficiaryName, email: a.beneficiaryEmail, phone: a.phone, documentType: a.documentType, documentId: a.documentId, country: a.customerCountry },
    metadata: (a.metadata ?? {}) as Record<string, string>,
    status: usable(a).status,
    environment: a.environment,
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
    ...(stats ? { stats } : {}),
  };
}

const usdOrNull = (m: bigint | null) => (m === null ? null : toMajor(m, "USD"));

export function presentDeposit(d: Deposit) {
  return {
    id: d.id,
    depositAccountId: d.depositAccountId,
    transactionId: d.transactionId,
    amount: toMajor(d.amount, d.currency),
    currency: d.currency,
    amountUsd: usdOrNull(d.amountUsd),
    feeUsd: usdOrNull(d.feeUsd),
    netUsd: usdOrNull(d.netUsd),
    status: d.status,
    rejectReason: d.rejectReason,
    beneficiaryName: d.beneficiaryName,
    beneficiaryEmail: d.beneficiaryEmail,
    payerName: d.payerName,
    payerBank: d.payerBank,
    payerDocument: d.payerDocument,
    trackingKey: d.trackingKey,
    reference: d.reference,
    receivedAt: d.receivedAt.toISOString(),
  };
}
