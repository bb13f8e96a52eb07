"use server";
// A chargeback's actions: concede it, or (sandbox) decide it.
import { dashboardAction, oneOf } from "@/server/dashboard-action";
import { acceptChargeback, simulateChargebackOutcome } from "@/lib/claims/decide-chargeback";
import { getClaim } from "@/lib/claims/get-claim";

/** Concede a chargeback (it becomes lost: the amount and the fee leave the balance). */
export const acceptClaimAction = dashboardAction(
  "respondToDisputes",
  { args: (claimId: string, formKey?: string) => ({ claimId, formKey }), once: "accept-claim", replay: ({ ctx }, ref) => getClaim(ctx, ref.id) },
  ({ ctx, claimId }) => acceptChargeback(ctx, claimId),
);

export const simulateClaimAction = dashboardAction(
  "simulateDispute",
  { args: (claimId: string, action: "won" | "lost", formKey?: string) => ({ claimId, formKey, input: action }), input: oneOf("action", ["won", "lost"], "Unknown outcome."), once: "simulate-claim" },
  ({ ctx, claimId, input }) => simulateChargebackOutcome(ctx, claimId, input),
);
