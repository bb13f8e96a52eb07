"use server";
// Top-ups: a deposit address for stablecoins to the payout USD balance, and (sandbox) a deposit to it.
import { parseWith } from "@/lib/platform/contract/validation";
import { dashboardOrThrow } from "@/server/dashboard";
import { runAction } from "@/lib/dashboard/action-result";
import { onceForForm } from "@/lib/dashboard/once";
import { createTopupEndpoint } from "@/lib/topups/schema";
import { createTopup, getTopup, simulateTopup } from "@/lib/topups/topups";
import { amountField } from "@/server/actions/form-fields";

/** A deposit address to top up the payout USD balance with stablecoins. */
export async function createTopupAction(input: { asset?: string; network?: string }, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("collect");
    const body = parseWith(createTopupEndpoint.body, input, "body");
    return onceForForm(d, "topup", formKey, body, () => createTopup(d.ctx, body), (ref) => getTopup(d.ctx, ref.id));
  });
}

export async function simulateTopupAction(topupId: string, amount: string, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("simulateCrypto");
    return onceForForm(d, "topup-simulate", formKey, { topupId, amount }, () => simulateTopup(d.ctx, topupId, amountField(amount)));
  });
}
