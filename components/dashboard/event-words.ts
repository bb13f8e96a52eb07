// The webhook event types as a shop owner reads them, grouped by what they are about; the API's
// name stays in the tooltip (Term). The subscription picker, a subscription's events and its
// deliveries all read them here. Constants only, so client components may import it.
import type { EventType } from "@/lib/platform/outbox/emit";

export const EVENT_WORDS: Record<EventType, string> = {
  "payment.completed": "Payment received",
  "payment.failed": "Payment failed or expired",
  "payment.refunded": "Payment refunded",
  "payment.captured": "Payment captured (legacy alias)",
  "chargeback.created": "Chargeback opened",
  "claim.opened": "Refund or chargeback opened",
  "claim.resolved": "Refund or chargeback decided",
  "settlement.closed": "Settlement on its way",
  "settlement.pdf_ready": "Settlement receipt ready",
  "withdrawal.completed": "Withdrawal arrived",
  "withdrawal.failed": "Withdrawal failed",
  "payout.completed": "Payout completed",
  "payout.failed": "Payout failed",
  "mandate.authorized": "Subscription authorized by the payer",
  "mandate.rejected": "Subscription refused by the payer",
  "mandate.cancelled": "Subscription cancelled",
  "mandate.expired": "Subscription not authorized in time",
  "webhook.test": "Test event",
};

/** The picker's groups, in the order a shop owner thinks of them. */
export const EVENT_GROUPS: Array<{ name: string; types: EventType[] }> = [
  { name: "Payments", types: ["payment.completed", "payment.failed", "payment.refunded", "payment.captured"] },
  { name: "Refunds and chargebacks", types: ["claim.opened", "chargeback.created", "claim.resolved"] },
  { name: "Settlements and withdrawals", types: ["settlement.closed", "settlement.pdf_ready", "withdrawal.completed", "withdrawal.failed"] },
  { name: "Payouts", types: ["payout.completed", "payout.failed"] },
  { name: "Recurring PIX (subscriptions)", types: ["mandate.authorized", "mandate.rejected", "mandate.cancelled", "mandate.expired"] },
];

/** One event name in words ("*" is every event); an unknown name stays as it is. */
export function eventWord(type: string): string {
  if (type === "*") return "All events";
  return (EVENT_WORDS as Record<string, string>)[type] ?? type;
}

/** A subscription's events list in words. */
export function eventsInWords(types: string[]): string {
  return types.map(eventWord).join(", ");
}
