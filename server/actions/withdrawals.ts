"use server";
// Withdrawals of available pay-in USD to a crypto destination, and (sandbox) their outcome.
import { AppError } from "@/lib/platform/errors";
import { parseWith } from "@/lib/platform/contract/validation";
import { dashboardOrThrow } from "@/server/dashboard";
import { runAction } from "@/lib/dashboard/action-result";
import { onceForForm } from "@/lib/dashboard/once";
import { createWithdrawalBody } from "@/lib/withdrawals/schema";
import { replayWithdrawal, requestWithdrawal } from "@/lib/withdrawals/request-withdrawal";
import { simulateWithdrawal } from "@/lib/withdrawals/settle-withdrawal";
import { amountField } from "@/server/actions/form-fields";

/** Withdraw available pay-in USD to the settlement destination (or another address). */
export async function withdrawAction(input: { amountUsd?: string; asset?: string; network?: string; address?: string }, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("moveMoney");
    const destination = input.address?.trim() ? { asset: input.asset, network: input.network, address: input.address.trim() } : undefined;
    const body = parseWith(createWithdrawalBody, { amountUsd: amountField(input.amountUsd), ...(destination ? { destination } : {}) }, "body");
    return onceForForm(d, "withdraw", formKey, body, () => requestWithdrawal(d.ctx, body), (ref) => replayWithdrawal(d.ctx, ref.id));
  });
}

export async function simulateWithdrawalAction(withdrawalId: string, action: "completed" | "failed", formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("simulateCrypto");
    if (action !== "completed" && action !== "failed") throw new AppError("invalid_request", "Unknown simulate action.", { param: "action" });
    return onceForForm(d, "withdrawal-simulate", formKey, { withdrawalId, action }, () => simulateWithdrawal(d.ctx, withdrawalId, action));
  });
}
