// Transaction rows -> API shapes (2.1, 4.4). The one place pay-in amounts become API numbers.
import { config } from "@/lib/platform/config";
import { toMajor } from "@/lib/money/amount";
import { railById } from "@/lib/rails/rails";
import { railIconUrl } from "@/lib/catalog/list-payment-methods";
import type { Transaction } from "@/lib/generated/prisma/client";
import type { Attempt } from "@/lib/payments/cascade";
import { presentInstallments } from "@/lib/installments/stored";

/** What presenting needs of a row (a freshly inserted one has no Decimal fxRate object; the search keys are derived on insert, lib/payments/search.ts). */
export type PresentableTransaction = Omit<Transaction, "fxRate" | "updatedAt" | "settlementBatchId" | "searchOrderKey" | "searchEmailKey" | "searchNameTerms" | "searchAmount" | "nextCheckAt" | "checkedAt" | "lateCompletion" | "declineCode" | "routingVersion" | "installments" | "feeFinancing" | "mandateId"> & {
  /** The recurring PIX mandate whose charge this is (lib/mandates); absent or null: none. */
  mandateId?: string | null;
  /** The chosen installment plan (lib/installments/stored.ts); absent or null: paid at once. */
  installments?: Transaction["installments"];
  feeFinancing?: bigint;
  lateCompletion?: boolean;
  declineCode?: string | null;
  routingVersion?: number | null;
};

const usd = (m: bigint) => toMajor(m, "USD");

export function checkoutUrlFor(tx: Pick<Transaction, "id" | "returnUrl">): string {
  const url = new URL(`${config().APP_URL}/c/${tx.id}`);
  if (tx.returnUrl) url.searchParams.set("returnUrl", tx.returnUrl);
  return url.toString();
}

function iconFor(tx: PresentableTransaction): string {
  const rail = railById(tx.paymentMethodId);
  return rail ? railIconUrl(rail) : `${config().APP_URL}/icons/rails/generic.svg`;
}

function common(tx: PresentableTransaction) {
  const icon = iconFor(tx);
  return {
    amount: usd(tx.amountUsd),
    currency: "USD" as const,
    ...(tx.inputCurrency && tx.inputAmount !== null ? { inputCurrency: tx.inputCurrency, inputAmount: toMajor(tx.inputAmount, tx.inputCurrency) } : {}),
    amountLocal: toMajor(tx.amountLocal, tx.currencyLocal),
    currencyLocal: tx.currencyLocal,
    paymentMethodId: tx.paymentMethodId,
    paymentMethod: tx.method,
    paymentMethodName: tx.railName,
    logoUrl: icon,
    iconUrl: icon,
    fees: { platform: usd(tx.feePlatform), provider: usd(tx.feeProvider), network: usd(tx.feeNetwork), total: usd(tx.feePlatform + tx.feeProvider + tx.feeNetwork) },
    settlement: { type: "delayed", delay: tx.settlementDelay, reserve: usd(tx.reserveAmount), status: tx.settlementStatus },
    paymentData: { method: tx.method },
    merchantOrderId: tx.merchantOrderId,
    ...(tx.qrOrderId ? { qrOrderId: tx.qrOrderId } : {}),
    ...(tx.mandateId ? { mandateId: tx.mandateId } : {}),
    tag1: tx.tag1,
    tag2: tx.tag2,
    tag3: tx.tag3,
    expiresAt: tx.expiresAt.toISOString(),
    ...presentInstallments(tx.installments, tx.currencyLocal),
  };
}

export function presentCreated(tx: PresentableTransaction) {
  return {
    transactionId: tx.id,
    status: "pending" as const,
    ...common(tx),
    ...(tx.hostedCheckout ? { checkoutUrl: checkoutUrlFor(tx) } : { paymentFormUrl: tx.paymentFormUrl ?? undefined }),
  };
}

export function presentTransaction(tx: PresentableTransaction) {
  return {
    id: tx.id,
    status: tx.status,
    ...common(tx),
    country: tx.country,
    customer: { name: tx.userName, email: tx.userEmail },
    refundedAmountLocal: toMajor(tx.refundedLocal, tx.currencyLocal),
    timestamps: { created: tx.createdAt.toISOString(), completed: tx.completedAt?.toISOString() ?? null },
    paymentFormUrl: tx.paymentFormUrl,
    ...(tx.hostedCheckout ? { checkoutUrl: checkoutUrlFor(tx) } : {}),
    provider: tx.provider,
    // Completed after we had failed or expired it (decisions.md "Late payments").
    ...(tx.lateCompletion ? { lateCompletion: true as const } : {}),
    declineCode: tx.declineCode ?? null,
    routingVersion: tx.routingVersion ?? null,
    attempts: (tx.attempts as Attempt[]).map((a) => ({
      provider: a.provider,
      outcome: a.outcome,
      reason: a.reason,
      durationMs: a.durationMs,
      declineCode: a.declineCode ?? null,
      decision: a.decision ?? null,
      routingVersion: a.routingVersion ?? null,
      routingReason: a.routingReason ?? null,
    })),
  };
}
