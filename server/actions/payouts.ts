"use server";
// Payouts: funding the payout balance (sandbox funds, transfer from pay-in, currency swap),
// sending a payout, and (sandbox) its outcome.
import { dashboardAction } from "@/server/dashboard-action";
import { executeSwapEndpoint, fundSandboxEndpoint, quoteSwapEndpoint, sendBody, simulatePayoutEndpoint, transferEndpoint } from "@/lib/payouts/schema";
import { fundSandbox } from "@/lib/payouts/fund-sandbox";
import { transferToPayout } from "@/lib/payouts/transfer-to-payout";
import { executeSwap, quoteSwap } from "@/lib/payouts/swap";
import { sendPayout } from "@/lib/payouts/send-payout";
import { simulatePayout } from "@/lib/payouts/simulate-payout";
import { replayFunding, replayPayout, replaySwap, replayTransfer } from "@/lib/payouts/replays";
import { amountField, optionalText } from "@/server/actions/form-fields";

export const fundSandboxAction = dashboardAction(
  "fundSandbox",
  {
    args: (form: { currency?: string; amount?: string }, formKey?: string) => ({ formKey, input: { currency: form.currency ?? "", amount: amountField(form.amount) } }),
    input: fundSandboxEndpoint.body,
    once: "fund-sandbox",
    replay: ({ ctx, input }) => replayFunding(ctx, input),
  },
  ({ ctx, input }) => fundSandbox(ctx, input),
);

export const transferToPayoutAction = dashboardAction(
  "moveMoney",
  {
    args: (form: { amountUsd?: string }, formKey?: string) => ({ formKey, input: { amountUsd: amountField(form.amountUsd) } }),
    input: transferEndpoint.body,
    once: "transfer",
    replay: ({ ctx }, ref) => replayTransfer(ctx, ref),
  },
  ({ ctx, input }) => transferToPayout(ctx, input),
);

// A quote is a row (and the first step of moving money), so it takes the same permission.
export const quoteSwapAction = dashboardAction(
  "moveMoney",
  {
    args: (form: { currency?: string; amountUsd?: string }) => ({ input: { currency: form.currency ?? "", amountUsd: (form.amountUsd ?? "").trim().replace(",", ".") } }),
    input: quoteSwapEndpoint.query,
    inputIn: "query",
  },
  ({ ctx, input }) => quoteSwap(ctx, input),
);

export const executeSwapAction = dashboardAction(
  "moveMoney",
  { args: (quoteId: string, formKey?: string) => ({ formKey, input: { quoteId } }), input: executeSwapEndpoint.body, once: "swap", replay: ({ ctx }, ref) => replaySwap(ctx, ref) },
  ({ ctx, input }) => executeSwap(ctx, input),
);

export const sendPayoutAction = dashboardAction(
  "moveMoney",
  {
    args: (form: { methodId?: string; amount?: string; recipient?: Record<string, string | undefined> }, formKey?: string) => ({
      formKey,
      input: { methodId: form.methodId ?? "", amount: amountField(form.amount), recipient: Object.fromEntries(Object.entries(form.recipient ?? {}).flatMap(([k, v]) => (optionalText(v) ? [[k, optionalText(v)]] : []))) },
    }),
    input: sendBody,
    once: "send-payout",
    replay: ({ ctx }, ref) => replayPayout(ctx, ref),
  },
  ({ ctx, input }) => sendPayout(ctx, input),
);

export const simulatePayoutAction = dashboardAction(
  "simulatePayout",
  { args: (payoutId: string, action: string, formKey?: string) => ({ payoutId, formKey, input: { action } }), input: simulatePayoutEndpoint.body, once: "simulate-payout" },
  ({ ctx, payoutId, input }) => simulatePayout(ctx, payoutId, input.action),
);
