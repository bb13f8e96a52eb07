// A provider-reported status (notice or reconciliation poll) applied to a transaction.
// A provider's paid is money the buyer paid: it completes the payment even after we failed or
// expired it (decisions.md "Late payments"), and `paidBy` names the charge that was paid.
import { completePayment, failPayment, type InTransaction } from "@/lib/payments/transitions";
import { openChargeback, refundInFull } from "@/lib/claims/transitions";
import type { ProviderStatus } from "@/lib/providers/types";

// `installmentsCount`: the plan the buyer chose at the provider, booked with the completion (CompleteOptions).
export async function applyProviderStatus(transactionId: string, status: ProviderStatus | "chargeback", opts: InTransaction & { paidBy?: { provider: string; providerRef: string }; installmentsCount?: number } = {}): Promise<boolean> {
  const { installmentsCount, ...rest } = opts;
  switch (status) {
    case "paid":
      return (await completePayment(transactionId, { ...rest, late: true, ...(installmentsCount !== undefined ? { installmentsCount } : {}) })).changed;
    case "failed":
      return (await failPayment(transactionId, "failed", rest)).changed;
    case "expired":
      return (await failPayment(transactionId, "expired", rest)).changed;
    case "refunded":
      return (await refundInFull(transactionId, { ...rest, reason: "provider_refund" })).changed;
    case "chargeback":
      return (await openChargeback(transactionId, "provider_chargeback", rest)).changed;
    default:
      return false;
  }
}
