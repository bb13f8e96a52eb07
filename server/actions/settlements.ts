"use server";
// Settlements: where they go, (sandbox) closing a batch now and deciding its transfer.
import { AppError } from "@/lib/platform/errors";
import { parseWith } from "@/lib/platform/contract/validation";
import { dashboardOrThrow } from "@/server/dashboard";
import { runAction } from "@/lib/dashboard/action-result";
import { onceForForm } from "@/lib/dashboard/once";
import { runSettlement } from "@/lib/settlements/run-settlement";
import { setDestinationBody } from "@/lib/crypto-assets/schema";
import { setSettlementDestination } from "@/lib/crypto-assets/settlement-destination";
import { simulateSettlement } from "@/lib/settlements/settle-batch";

/** Where settlements and withdrawals go (PUT /me/settlement-destination's use case and checks). */
export async function setSettlementDestinationAction(input: { asset?: string; network?: string; address?: string }, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("manageSettlements");
    const body = parseWith(setDestinationBody, { ...input, address: input.address?.trim() }, "body");
    return onceForForm(d, "settlement-destination", formKey, body, () => setSettlementDestination(d.ctx, body));
  });
}

/** Sandbox: close a settlement batch now (the daily job's work, for this merchant). */
export async function runSettlementAction(formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("runSettlement");
    return onceForForm(d, "settlement-run", formKey, {}, () => runSettlement(d.ctx));
  });
}

export async function simulateSettlementAction(settlementId: string, action: "paid" | "failed", formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("simulateCrypto");
    if (action !== "paid" && action !== "failed") throw new AppError("invalid_request", "Unknown simulate action.", { param: "action" });
    return onceForForm(d, "settlement-simulate", formKey, { settlementId, action }, () => simulateSettlement(d.ctx, settlementId, action));
  });
}
