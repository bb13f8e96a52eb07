"use server";
// A chargeback's actions: concede it, or (sandbox) decide it.
import { AppError } from "@/lib/platform/errors";
import { dashboardOrThrow } from "@/server/dashboard";
import { runAction } from "@/lib/dashboard/action-result";
import { onceForForm } from "@/lib/dashboard/once";
import { acceptChargeback, simulateChargebackOutcome } from "@/lib/claims/decide-chargeback";
import { getClaim } from "@/lib/claims/get-claim";

/** Concede a chargeback (it becomes lost: the amount and the fee leave the balance). */
export async function acceptClaimAction(claimId: string, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("respondToDisputes");
    return onceForForm(d, "accept-claim", formKey, { claimId }, () => acceptChargeback(d.ctx, claimId), (ref) => getClaim(d.ctx, ref.id));
  });
}

export async function simulateClaimAction(claimId: string, action: "won" | "lost", formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("simulateDispute");
    if (action !== "won" && action !== "lost") throw new AppError("invalid_request", "Unknown outcome.", { param: "action" });
    return onceForForm(d, "simulate-claim", formKey, { claimId, action }, () => simulateChargebackOutcome(d.ctx, claimId, action));
  });
}
