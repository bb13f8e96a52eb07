"use server";
// Payouts: funding the payout balance (sandbox funds, transfer from pay-in, currency swap),
// sending a payout, and (sandbox) its outcome.
import { parseWith } from "@/lib/platform/contract/validation";
import { dashboardOrThrow } from "@/server/dashboard";
import { runAction } from "@/lib/dashboard/action-result";
import { onceForForm } from "@/lib/dashboard/once";
import { executeSwapEndpoint, fundSandboxEndpoint, quoteSwapEndpoint, sendBody, simulatePayoutEndpoint, transferEndpoint } from "@/lib/payouts/schema";
import { fundSandbox } from "@/lib/payouts/fund-sandbox";
import { transferToPayout } from "@/lib/payouts/transfer-to-payout";
import { executeSwap, quoteSwap } from "@/lib/payouts/swap";
import { sendPayout } from "@/lib/payouts/send-payout";
import { simulatePayout } from "@/lib/payouts/simulate-payout";
import { replayFunding, replayPayout, replaySwap, replayTransfer } from "@/lib/payouts/replays";
import { amountField, optionalText } from "@/server/actions/form-fields";

export async function fundSandboxAction(input: { currency?: string; amount?: string }, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("fundSandbox");
    const body = parseWith(fundSandboxEndpoint.body, { currency: input.currency ?? "", amount: amountField(input.amount) }, "body");
    return onceForForm(d, "fund-sandbox", formKey, body, () => fundSandbox(d.ctx, body), () => replayFunding(d.ctx, body));
  });
}

export async function transferToPayoutAction(input: { amountUsd?: string }, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("moveMoney");
    const body = parseWith(transferEndpoint.body, { amountUsd: amountField(input.amountUsd) }, "body");
    return onceForForm(d, "transfer", formKey, body, () => transferToPayout(d.ctx, body), (ref) => replayTransfer(d.ctx, ref));
  });
}

export async function quoteSwapAction(input: { currency?: string; amountUsd?: string }) {
  return runAction(async () => {
    // A quote is a row (and the first step of moving money), so it takes the same permission.
    const d = await dashboardOrThrow("moveMoney");
    return quoteSwap(d.ctx, parseWith(quoteSwapEndpoint.query, { currency: input.currency ?? "", amountUsd: (input.amountUsd ?? "").trim().replace(",", ".") }, "query"));
  });
}

export async function executeSwapAction(quoteId: string, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("moveMoney");
    const body = parseWith(executeSwapEndpoint.body, { quoteId }, "body");
    return onceForForm(d, "swap", formKey, body, () => executeSwap(d.ctx, body), (ref) => replaySwap(d.ctx, ref));
  });
}

export async function sendPayoutAction(input: { methodId?: string; amount?: string; recipient?: Record<string, string | undefined> }, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("moveMoney");
    const recipient = Object.fromEntries(Object.entries(input.recipient ?? {}).flatMap(([k, v]) => (optionalText(v) ? [[k, optionalText(v)]] : [])));
    const body = parseWith(sendBody, { methodId: input.methodId ?? "", amount: amountField(input.amount), recipient }, "body");
    return onceForForm(d, "send-payout", formKey, body, () => sendPayout(d.ctx, body), (ref) => replayPayout(d.ctx, ref));
  });
}

export async function simulatePayoutAction(payoutId: string, action: string, formKey?: string) {
  return runAction(async () => {
    const d = await dashboardOrThrow("simulatePayout");
    const body = parseWith(simulatePayoutEndpoint.body, { action }, "body");
    return onceForForm(d, "simulate-payout", formKey, { payoutId, ...body }, () => simulatePayout(d.ctx, payoutId, body.action));
  });
}
