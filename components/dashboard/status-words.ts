// The one map of the dashboard's status words: every status of every resource the dashboard
// shows, as a shop owner reads it ("Partially refunded", not `partially_refunded`). Badges,
// filters and sentences all read it here; the API's own word stays in the badge's tooltip
// (components/dashboard/status-badge.tsx). The same API word can mean different things per
// resource (a refund's `resolved` is "Refunded", a delivery's `succeeded` "Delivered"), hence
// one table per resource. Constants only, so client components may import it.

export const STATUS_WORDS = {
  /** A pay-in, with the dashboard's own states of a completed one (lib/dashboard/display-status.ts). */
  payment: { pending: "Pending", completed: "Completed", failed: "Failed", refunded: "Refunded", expired: "Expired", chargeback: "Charged back", partially_refunded: "Partially refunded", disputed: "Disputed" },
  /** A claim of either kind, where the kind is not known (the claims list's filter). */
  claim: { pending: "Being processed", open: "Open", resolved: "Done", rejected: "Refused", won: "Won", lost: "Lost" },
  /** A refund (a claim of kind `user_dispute`): resolved means paid back. */
  refund: { pending: "Being processed", open: "Open", resolved: "Refunded", rejected: "Refused", won: "Won", lost: "Lost" },
  chargeback: { pending: "Being processed", open: "Open", resolved: "Done", rejected: "Refused", won: "Won", lost: "Lost" },
  /** A payment's settlement to the merchant's balance. */
  paymentSettlement: { pending: "Not settled yet", settled: "Settled" },
  /** A provider's answer to one attempt of the cascade. */
  attempt: { accepted: "Accepted", declined: "Declined", unavailable: "Unavailable", no_instructions: "No payment instructions" },
  payout: { processing: "Processing", completed: "Completed", failed: "Failed" },
  /** A settlement batch: closed means its crypto payout is on its way. */
  settlement: { closed: "Being sent", paid: "Paid", failed: "Failed" },
  withdrawal: { processing: "Processing", completed: "Completed", failed: "Failed" },
  topup: { awaiting_funds: "Waiting for funds", credited: "Credited", expired: "Expired" },
  depositAccount: { active: "Active", disabled: "Disabled", provisioning: "Being set up" },
  deposit: { pending: "Pending", credited: "Credited", rejected: "Rejected" },
  webhook: { enabled: "Enabled", disabled: "Disabled" },
  delivery: { pending: "Pending", succeeded: "Delivered", failed: "Failed" },
  shop: { active: "Active", suspended: "Suspended" },
  qrOrder: { pending: "Waiting for payment", paid: "Paid", expired: "Expired", cancelled: "Cancelled" },
  /** A provider's circuit breaker in routing: closed is healthy, open is skipped while failing. */
  circuit: { closed: "Healthy", open: "Skipped (failing)", half_open: "Being probed" },
  /** A recurring PIX mandate (Pix Automático): the payer's authorization in their bank's app. */
  mandate: { pending_authorization: "Waiting for the payer", active: "Active", rejected: "Refused by the payer", expired: "Not authorized in time", cancelled: "Cancelled", completed: "Ended" },
  /** One charge of a mandate, from scheduled to paid. */
  mandateCharge: { scheduled: "Scheduled", sending: "Being sent", sent: "With the payer's bank", paid: "Paid", retrying: "Retrying", failed: "Failed", cancelled: "Cancelled", missed: "Not sent in time" },
  /** A team member's invite, while it is not accepted. */
  invite: { pending: "Invited", expired: "Invite expired" },
} as const satisfies Record<string, Record<string, string>>;

export type StatusOf = keyof typeof STATUS_WORDS;

/** A status in the dashboard's words; a status the map does not know yet, capitalised. */
export function statusWord(of: StatusOf, status: string): string {
  const words: Record<string, string> = STATUS_WORDS[of];
  if (words[status]) return words[status];
  const plain = status.replace(/_/g, " ");
  return plain.charAt(0).toUpperCase() + plain.slice(1);
}

/** Which table a claim's status is read in. */
export const claimStatusOf = (kind: string | null | undefined): StatusOf => (kind === "chargeback" || kind === "pix_med" ? "chargeback" : kind ? "refund" : "claim");
