"use server";
// Deposit accounts (CLABEs): a sandbox deposit from a payer.
import { parseWith } from "@/lib/platform/contract/validation";
import { dashboardOrThrow, withShop } from "@/server/dashboard";
import { runAction } from "@/lib/dashboard/action-result";
import { onceForForm } from "@/lib/dashboard/once";
import { simulateDepositBody } from "@/lib/deposits/schema";
import { simulateDeposit } from "@/lib/deposits/simulate-deposit";
import { replayDeposit } from "@/lib/deposits/replays";
import { amountField, optionalText } from "@/server/actions/form-fields";

export async function simulateDepositAction(accountId: string, input: { amount?: string; payerName?: string; payerBank?: string; payerDocument?: string; trackingKey?: string; reference?: string }, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("simulateDeposit");
    const body = parseWith(
      simulateDepositBody,
      {
        amount: amountField(input.amount),
        payerName: input.payerName ?? "",
        payerBank: input.payerBank ?? "",
        payerDocument: optionalText(input.payerDocument),
        trackingKey: optionalText(input.trackingKey),
        reference: optionalText(input.reference),
      },
      "body",
    );
    const ctx = await withShop(d);
    return onceForForm(d, "simulate-deposit", formKey, { accountId, body }, () => simulateDeposit(ctx, accountId, body), (ref) => replayDeposit(ctx, accountId, ref));
  });
}
