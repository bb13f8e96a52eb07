// A provider-reported status (notice or reconciliation poll) applied to a transaction.
import { completePayment, failPayment, openChargeback, refundInFull } from "@/lib/payments/transitions";
import type { ProviderStatus } from "@/lib/providers/types";

export async function applyProviderStatus(transactionId: string, status: ProviderStatus | "chargeback"): Promise<boolean> {
  switch (status) {
    case "paid":
      return (await completePayment(transactionId)).changed;
    case "failed":
      return (await failPayment(transactionId, "failed")).changed;
    case "expired":
      return (await failPayment(transactionId, "expired")).changed;
    case "refunded":
      return (await refundInFull(transactionId)).changed;
    case "chargeback":
      return (await openChargeback(transactionId, "provider_chargeback")).changed;
    default:
      return false;
  }
}
